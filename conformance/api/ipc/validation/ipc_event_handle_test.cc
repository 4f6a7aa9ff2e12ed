// Copyright mxcts authors.
//
// Conformance: the misuses of mcIpcGetEventHandle and mcIpcOpenEventHandle
// (docs/spec/api-ipc.md, "Interprocess events"): events that are not
// interprocess or not live, null pointers, a handle of the calling
// process, handles no live event stands behind, and timing with an opened
// event. Each has its control: the same call with an interprocess event,
// or the handle opened by another process.

#include <mc_runtime.h>

#include <cstring>
#include <string>
#include <tuple>

#include "conformance/api/ipc/ipc_testing.h"
#include "conformance/api/testing/bad_handles.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::ipc {
namespace {

constexpr unsigned kInterprocess = mcEventInterprocess | mcEventDisableTiming;

std::string DeviceName(const testing::TestParamInfo<int>& info) {
  return "Device" + std::to_string(info.param);
}

// Child: opens the event handle it receives, checks that a query and a
// synchronization succeed, destroys it.
MX_CHILD_ROLE(OpenEvent) {
  mcIpcEventHandle_t handle;
  if (!FromHex(parent.Receive(), &handle)) return "no handle received";
  mcEvent_t event = nullptr;
  std::string problems = Expect(
      "mcIpcOpenEventHandle", mcIpcOpenEventHandle(&event, handle), mcSuccess);
  if (!problems.empty()) return problems;
  problems += Expect("mcEventQuery", mcEventQuery(event), mcSuccess);
  problems +=
      Expect("mcEventSynchronize", mcEventSynchronize(event), mcSuccess);
  problems += Expect("mcEventDestroy", mcEventDestroy(event), mcSuccess);
  return problems;
}

// Child: creates an interprocess event, sends its handle, then obeys
// "destroy" (replies "destroyed") and "exit".
MX_CHILD_ROLE(EventExporter) {
  if (mcSetDevice(static_cast<int>(ChildArgument(argument, "device", 0))) !=
      mcSuccess) {
    return "mcSetDevice failed";
  }
  mcEvent_t event = nullptr;
  mcIpcEventHandle_t handle;
  if (mcEventCreateWithFlags(&event, kInterprocess) != mcSuccess ||
      mcEventRecord(event, nullptr) != mcSuccess ||
      mcIpcGetEventHandle(&handle, event) != mcSuccess) {
    parent.Send("error");
    return "could not export an event";
  }
  parent.Send(ToHex(handle));
  for (;;) {
    std::string command = parent.Receive();
    if (command.empty() || command == "exit") return "";
    if (command == "destroy") {
      parent.Send(mcEventDestroy(event) == mcSuccess ? "destroyed" : "failed");
    }
  }
}

class EventOnDevice : public IpcTest<int> {};

class NotInterprocess : public testing::TestWithParam<unsigned> {};

TEST_P(NotInterprocess, GetHandleIsInvalidResourceHandle) {
  MX_SPEC("api.ipc.event.get-handle-not-interprocess",
          "api.ipc.event.get-handle");
  MX_IPC_REQUIRE_DEVICE(0);
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreateWithFlags(&event, GetParam()), mcSuccess);
  mcIpcEventHandle_t handle;
  EXPECT_EQ(mcIpcGetEventHandle(&handle, event), mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  // The event still works.
  EXPECT_EQ(mcEventRecord(event, nullptr), mcSuccess);
  EXPECT_EQ(mcEventSynchronize(event), mcSuccess);
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
  // Control: an interprocess event has a handle.
  ASSERT_EQ(mcEventCreateWithFlags(&event, kInterprocess), mcSuccess);
  EXPECT_EQ(mcIpcGetEventHandle(&handle, event), mcSuccess);
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Flags, NotInterprocess,
    testing::Values(unsigned{mcEventDefault}, unsigned{mcEventBlockingSync},
                    unsigned{mcEventDisableTiming},
                    unsigned{mcEventBlockingSync | mcEventDisableTiming}),
    [](const testing::TestParamInfo<unsigned>& info) {
      return "Flags" + std::to_string(info.param);
    });

TEST_P(EventOnDevice, GetHandleIntoNullIsInvalidValue) {
  MX_SPEC("api.ipc.event.get-handle-null-handle", "api.ipc.event.get-handle");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreateWithFlags(&event, kInterprocess), mcSuccess);
  EXPECT_EQ(mcIpcGetEventHandle(nullptr, event), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  mcIpcEventHandle_t handle;
  EXPECT_EQ(mcIpcGetEventHandle(&handle, event), mcSuccess);
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

TEST_P(EventOnDevice, OwnHandleIsDeviceUninitialized) {
  MX_SPEC("api.ipc.event.open-same-process", "api.ipc.event.open-handle");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreateWithFlags(&event, kInterprocess), mcSuccess);
  mcIpcEventHandle_t handle;
  ASSERT_EQ(mcIpcGetEventHandle(&handle, event), mcSuccess);
  mcEvent_t opened = nullptr;
  EXPECT_EQ(mcIpcOpenEventHandle(&opened, handle), mcErrorDeviceUninitialized);
  EXPECT_EQ(mcGetLastError(), mcErrorDeviceUninitialized);
  EXPECT_EQ(opened, nullptr);
  // The event still works, and another process opens the handle.
  EXPECT_EQ(mcEventRecord(event, nullptr), mcSuccess);
  EXPECT_EQ(mcEventSynchronize(event), mcSuccess);
  ChildProcess child("OpenEvent");
  ASSERT_TRUE(child.Send(ToHex(handle)));
  EXPECT_EQ(child.Wait(), 0);
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

TEST_P(EventOnDevice, OpenIntoNullIsInvalidValue) {
  MX_SPEC("api.ipc.event.open-null-pointer", "api.ipc.event.open-handle");
  MX_IPC_REQUIRE_DEVICE(GetParam());
  ChildProcess exporter("EventExporter",
                        "device=" + std::to_string(GetParam()));
  mcIpcEventHandle_t handle;
  ASSERT_TRUE(FromHex(exporter.Receive(), &handle));
  EXPECT_EQ(mcIpcOpenEventHandle(nullptr, handle), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  mcEvent_t opened = nullptr;
  ASSERT_EQ(mcIpcOpenEventHandle(&opened, handle), mcSuccess);
  EXPECT_EQ(mcEventSynchronize(opened), mcSuccess);
  EXPECT_EQ(mcEventDestroy(opened), mcSuccess);
  exporter.Send("exit");
  EXPECT_EQ(exporter.Wait(), 0);
}

INSTANTIATE_TEST_SUITE_P(Devices, EventOnDevice, testing::Values(0, 1),
                         DeviceName);

class InvalidEventForHandle : public testing::TestWithParam<BadEvent> {};

TEST_P(InvalidEventForHandle, GetHandleIsInvalidResourceHandle) {
  MX_SPEC("api.ipc.event.get-handle-invalid-event");
  MX_REQUIRE_CAPABILITY("ipc");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", DevicesNeeded(GetParam()));
  InvalidEvent event(GetParam());
  ASSERT_EQ(event.status(), mcSuccess);
  mcIpcEventHandle_t handle;
  EXPECT_EQ(mcIpcGetEventHandle(&handle, event.get()),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  // Control: a live interprocess event.
  mcEvent_t live = nullptr;
  ASSERT_EQ(mcEventCreateWithFlags(&live, kInterprocess), mcSuccess);
  EXPECT_EQ(mcIpcGetEventHandle(&handle, live), mcSuccess);
  EXPECT_EQ(mcEventDestroy(live), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Events, InvalidEventForHandle,
                         testing::Values(BadEvent::kNull, BadEvent::kDestroyed,
                                         BadEvent::kDestroyedOnOtherDevice,
                                         BadEvent::kNotAnEvent,
                                         BadEvent::kStreamHandle),
                         [](const testing::TestParamInfo<BadEvent>& info) {
                           return std::string(BadEventName(info.param));
                         });

enum class StaleEvent { kZero, kCorrupted, kDestroyedByExporter, kExited };

const char* StaleEventName(StaleEvent stale) {
  switch (stale) {
    case StaleEvent::kZero:
      return "AllZero";
    case StaleEvent::kCorrupted:
      return "OneByteChanged";
    case StaleEvent::kDestroyedByExporter:
      return "DestroyedByExporter";
    case StaleEvent::kExited:
      return "ExporterExited";
  }
  return "Unknown";
}

class InvalidEventHandle : public testing::TestWithParam<StaleEvent> {
 protected:
  // Has a child export an interprocess event, opens the live handle (the
  // control), makes the handle stale as the parameter says, and returns
  // what opening it again answers; `*opened` is the event it gave.
  mcError_t OpenStale(mcEvent_t* opened) {
    ChildProcess exporter("EventExporter", "device=0");
    mcIpcEventHandle_t handle;
    EXPECT_TRUE(FromHex(exporter.Receive(), &handle));
    // Control: the live handle opens.
    mcEvent_t live = nullptr;
    EXPECT_EQ(mcIpcOpenEventHandle(&live, handle), mcSuccess);
    EXPECT_EQ(mcEventDestroy(live), mcSuccess);
    switch (GetParam()) {
      case StaleEvent::kZero:
        std::memset(&handle, 0, sizeof handle);
        break;
      case StaleEvent::kCorrupted:
        handle.reserved[20] ^= 0x01;
        break;
      case StaleEvent::kDestroyedByExporter:
        exporter.Send("destroy");
        EXPECT_EQ(exporter.Receive(), "destroyed");
        break;
      case StaleEvent::kExited:
        exporter.Send("exit");
        EXPECT_EQ(exporter.Wait(), 0);
        break;
    }
    *opened = nullptr;
    const mcError_t result = mcIpcOpenEventHandle(opened, handle);
    EXPECT_EQ(mcGetLastError(), result);
    exporter.Send("exit");
    return result;
  }
};

TEST_P(InvalidEventHandle, OpenIsRefusedOrGivesAnEventToDestroy) {
  MX_SPEC("api.ipc.event.open-zero-handle", "api.ipc.event.open-stale-handle");
  MX_IPC_REQUIRE_DEVICE(0);
  mcEvent_t opened = nullptr;
  const mcError_t result = OpenStale(&opened);
  if (GetParam() == StaleEvent::kZero || result != mcSuccess) {
    // A handle no mcIpcGetEventHandle makes is refused; so may a stale one
    // be, and then no event is given.
    EXPECT_EQ(result, mcErrorInvalidValue);
    EXPECT_EQ(opened, nullptr);
  } else {
    // An event that a stale handle opened may only be destroyed.
    ASSERT_NE(opened, nullptr);
    EXPECT_EQ(mcEventDestroy(opened), mcSuccess);
  }
}

TEST_P(InvalidEventHandle, ReferenceRefusesTheStaleHandle) {
  // The reference's choice [api.ipc.event.open-stale-handle].
  MX_SPEC("api.ipc.event.open-zero-handle", "api.ipc.event.open-stale-handle");
  MX_REQUIRE_CAPABILITY("reference_choices");
  MX_IPC_REQUIRE_DEVICE(0);
  mcEvent_t opened = nullptr;
  EXPECT_EQ(OpenStale(&opened), mcErrorInvalidValue);
  EXPECT_EQ(opened, nullptr);
}

INSTANTIATE_TEST_SUITE_P(Handles, InvalidEventHandle,
                         testing::Values(StaleEvent::kZero,
                                         StaleEvent::kCorrupted,
                                         StaleEvent::kDestroyedByExporter,
                                         StaleEvent::kExited),
                         [](const testing::TestParamInfo<StaleEvent>& info) {
                           return std::string(StaleEventName(info.param));
                         });

// Child: opens the event handle it receives and checks that
// mcEventElapsedTime refuses it as start ("start"), end ("end") or both
// ("both"), beside a timed event of its own, all recorded and complete.
MX_CHILD_ROLE(TimeOpenedEvent) {
  mcIpcEventHandle_t handle;
  if (!FromHex(parent.Receive(), &handle)) return "no handle received";
  mcEvent_t opened = nullptr, timed = nullptr;
  std::string problems = Expect(
      "mcIpcOpenEventHandle", mcIpcOpenEventHandle(&opened, handle), mcSuccess);
  if (!problems.empty()) return problems;
  if (mcEventCreate(&timed) != mcSuccess) return "mcEventCreate failed";
  mcEvent_t other = nullptr;
  if (mcEventCreate(&other) != mcSuccess) return "mcEventCreate failed";
  mcEventRecord(timed, nullptr);
  mcEventRecord(opened, nullptr);
  mcEventRecord(other, nullptr);
  mcDeviceSynchronize();
  float ms = -1;
  mcEvent_t start = argument == "end" ? timed : opened;
  mcEvent_t end = argument == "start" ? timed : opened;
  problems += Expect("mcEventElapsedTime", mcEventElapsedTime(&ms, start, end),
                     mcErrorInvalidResourceHandle);
  // Control: two timed events of this process.
  problems += Expect("mcEventElapsedTime of timed events",
                     mcEventElapsedTime(&ms, timed, other), mcSuccess);
  mcEventDestroy(opened);
  mcEventDestroy(timed);
  mcEventDestroy(other);
  return problems;
}

class OpenedTiming : public testing::TestWithParam<std::string> {};

TEST_P(OpenedTiming, ElapsedTimeIsInvalidResourceHandle) {
  MX_SPEC("api.ipc.event.opened-has-no-timing");
  MX_IPC_REQUIRE_DEVICE(0);
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreateWithFlags(&event, kInterprocess), mcSuccess);
  mcIpcEventHandle_t handle;
  ASSERT_EQ(mcIpcGetEventHandle(&handle, event), mcSuccess);
  ChildProcess child("TimeOpenedEvent", GetParam());
  ASSERT_TRUE(child.Send(ToHex(handle)));
  EXPECT_EQ(child.Wait(), 0);
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Positions, OpenedTiming,
                         testing::Values("start", "end", "both"),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return "OpenedAs_" + info.param;
                         });

}  // namespace
}  // namespace mxcts::conformance::ipc
