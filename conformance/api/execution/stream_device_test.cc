// Copyright mxcts authors.
//
// Conformance: streams and events belong to a device (docs/spec/
// api-stream.md, "Streams of another device", "Destroying streams";
// api-event.md, "Destroying events"; api-device.md, mcDeviceReset).
//
//   - A kernel launched into a stream of a device other than the current
//     one fails with mcErrorInvalidResourceHandle and does not run; the
//     control launches it with the stream's device current.
//   - Memory sets and copies into such a stream succeed, in its order.
//   - mcDeviceReset destroys the streams and events of the current device
//     (each later use returns mcErrorInvalidResourceHandle) and leaves the
//     other device's working: the same use of them is the control. Each
//     reset runs in a fresh process, since it also releases the device's
//     memory.
//
// The results hold in every timeline mode (the target also runs as
// _deferred and _shuffle; the fresh processes inherit the mode).

#include <mc_runtime.h>

#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <tuple>

#include "conformance/api/execution/stream_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

__global__ void Store(int* cell, int value) { *cell = value; }

class OtherDeviceStream : public testing::TestWithParam<KindOnDevice> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
    ScopedDevice on(device());
    ASSERT_TRUE(on.ok());
    stream_ = std::make_unique<TestStream>(std::get<0>(GetParam()));
    ASSERT_EQ(stream_->status(), mcSuccess);
  }
  void TearDown() override {
    ScopedDevice on(device());
    stream_.reset();
  }

  // The stream's device; the other one is current in the tests.
  int device() const { return std::get<1>(GetParam()); }
  mcStream_t stream() const { return stream_->get(); }

  std::unique_ptr<TestStream> stream_;
};

TEST_P(OtherDeviceStream, KernelLaunchIsInvalidResourceHandle) {
  MX_SPEC("api.stream.other-device.kernel-launch-fails",
          "lang.launch.limit.stream-of-other-device",
          "api.error.sticky.argument-errors-not-sticky");
  int* cell = nullptr;
  ASSERT_EQ(mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  *cell = 0;
  {
    ScopedDevice other(1 - device());
    ASSERT_TRUE(other.ok());
    ASSERT_EQ(mcGetLastError(), mcSuccess);
    Store<<<1, 1, 0, stream()>>>(cell, 1);
    EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
    int value = 2;
    void* args[] = {&cell, &value};
    EXPECT_EQ(mcLaunchKernel(Store, dim3(1), dim3(1), args, 0, stream()),
              mcErrorInvalidResourceHandle);
    EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
    // Not sticky: the device goes on working.
    EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
    EXPECT_EQ(mcGetLastError(), mcSuccess);
  }
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell, 0) << "a refused kernel ran";
  // Control: with the stream's device current, the same launches run.
  {
    ScopedDevice own(device());
    Store<<<1, 1, 0, stream()>>>(cell, 1);
    EXPECT_EQ(mcGetLastError(), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
    EXPECT_EQ(*cell, 1);
    int value = 2;
    void* args[] = {&cell, &value};
    EXPECT_EQ(mcLaunchKernel(Store, dim3(1), dim3(1), args, 0, stream()),
              mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
    EXPECT_EQ(*cell, 2);
  }
  EXPECT_EQ(mcFree(cell), mcSuccess);
}

TEST_P(OtherDeviceStream, MemsetAndCopyAreOrderedInTheStream) {
  MX_SPEC("api.stream.other-device.memcpy-succeeds",
          "api.stream.model.in-order-execution");
  constexpr size_t kBytes = 64;
  unsigned char* device_memory = nullptr;
  unsigned char* result = nullptr;
  {
    ScopedDevice own(device());
    ASSERT_EQ(mcMalloc(&device_memory, kBytes), mcSuccess);
  }
  ASSERT_EQ(mcMallocManaged(&result, kBytes), mcSuccess);
  std::memset(result, 0, kBytes);
  OrderLog log;
  {
    ScopedDevice other(1 - device());
    ASSERT_TRUE(other.ok());
    ASSERT_EQ(mcMemsetAsync(device_memory, 0x5A, kBytes, stream()), mcSuccess);
    ASSERT_EQ(
        mcMemcpyAsync(result, device_memory, kBytes, mcMemcpyDefault, stream()),
        mcSuccess);
    ASSERT_EQ(log.Append(stream(), "after"), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  }
  EXPECT_EQ(log.Joined(), "after");
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(result[i], 0x5A) << i;
  EXPECT_EQ(mcFree(result), mcSuccess);
  ScopedDevice own(device());
  EXPECT_EQ(mcFree(device_memory), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    KindsAndDevices, OtherDeviceStream,
    testing::Combine(testing::ValuesIn(kCreatedStreamKinds),
                     testing::Values(0, 1)),
    KindOnDeviceName);

// --- mcDeviceReset. ---

// A stream and an event (recorded in it) on each of the two devices.
struct DeviceObjects {
  mcStream_t stream = nullptr;
  mcEvent_t event = nullptr;
};

// One use of a stream and an event of one device; `current` is the
// device current during the call.
struct Use {
  const char* name;
  std::function<mcError_t(const DeviceObjects&, const DeviceObjects& live)>
      call;
};

void Nothing(void*) {}
void NothingCallback(mcStream_t, mcError_t, void*) {}

const Use kUses[] = {
    {"StreamQuery",
     [](const DeviceObjects& o, const DeviceObjects&) {
       return mcStreamQuery(o.stream);
     }},
    {"StreamSynchronize",
     [](const DeviceObjects& o, const DeviceObjects&) {
       return mcStreamSynchronize(o.stream);
     }},
    {"StreamGetFlags",
     [](const DeviceObjects& o, const DeviceObjects&) {
       unsigned flags = 0;
       return mcStreamGetFlags(o.stream, &flags);
     }},
    {"StreamGetPriority",
     [](const DeviceObjects& o, const DeviceObjects&) {
       int priority = 0;
       return mcStreamGetPriority(o.stream, &priority);
     }},
    {"StreamGetDevice",
     [](const DeviceObjects& o, const DeviceObjects&) {
       int device = 0;
       return mcStreamGetDevice(o.stream, &device);
     }},
    {"StreamGetAttribute",
     [](const DeviceObjects& o, const DeviceObjects&) {
       mcStreamAttrValue value;
       return mcStreamGetAttribute(
           o.stream, mcStreamAttributeSynchronizationPolicy, &value);
     }},
    {"LaunchHostFunc",
     [](const DeviceObjects& o, const DeviceObjects&) {
       return mcLaunchHostFunc(o.stream, Nothing, nullptr);
     }},
    {"StreamAddCallback",
     [](const DeviceObjects& o, const DeviceObjects&) {
       return mcStreamAddCallback(o.stream, NothingCallback, nullptr, 0);
     }},
    {"StreamWaitEventOnItsStream",
     [](const DeviceObjects& o, const DeviceObjects& live) {
       return mcStreamWaitEvent(o.stream, live.event, 0);
     }},
    {"StreamWaitEventOnItsEvent",
     [](const DeviceObjects& o, const DeviceObjects& live) {
       return mcStreamWaitEvent(live.stream, o.event, 0);
     }},
    {"StreamDestroy",
     [](const DeviceObjects& o, const DeviceObjects&) {
       return mcStreamDestroy(o.stream);
     }},
    {"EventQuery", [](const DeviceObjects& o,
                      const DeviceObjects&) { return mcEventQuery(o.event); }},
    {"EventSynchronize",
     [](const DeviceObjects& o, const DeviceObjects&) {
       return mcEventSynchronize(o.event);
     }},
    {"EventRecord",
     [](const DeviceObjects& o, const DeviceObjects&) {
       return mcEventRecord(o.event, o.stream);
     }},
    {"EventElapsedTime",
     [](const DeviceObjects& o, const DeviceObjects&) {
       float ms = 0;
       return mcEventElapsedTime(&ms, o.event, o.event);
     }},
    {"EventDestroy",
     [](const DeviceObjects& o, const DeviceObjects&) {
       return mcEventDestroy(o.event);
     }},
};

// Creates the objects of device 0 and 1, resets `reset_device`, then makes
// use `use` of each device's objects (with the reset device current).
std::string ResetThenUse(int reset_device, int use) {
  std::string problems;
  DeviceObjects objects[2];
  for (int device : {0, 1}) {
    ScopedDevice on(device);
    problems += Expect("mcStreamCreate",
                       mcStreamCreate(&objects[device].stream), mcSuccess);
    problems += Expect("mcEventCreate", mcEventCreate(&objects[device].event),
                       mcSuccess);
    problems +=
        Expect("mcEventRecord",
               mcEventRecord(objects[device].event, objects[device].stream),
               mcSuccess);
    problems += Expect("mcEventSynchronize",
                       mcEventSynchronize(objects[device].event), mcSuccess);
  }
  problems += Expect("mcSetDevice", mcSetDevice(reset_device), mcSuccess);
  problems += Expect("mcDeviceReset", mcDeviceReset(), mcSuccess);
  const DeviceObjects& reset = objects[reset_device];
  const DeviceObjects& kept = objects[1 - reset_device];
  problems +=
      Expect((std::string(kUses[use].name) + " of the reset device's").c_str(),
             kUses[use].call(reset, kept), mcErrorInvalidResourceHandle);
  // Control: the other device's objects still work.
  {
    ScopedDevice on(1 - reset_device);
    problems += Expect(
        (std::string(kUses[use].name) + " of the other device's").c_str(),
        kUses[use].call(kept, kept), mcSuccess);
    problems += Expect("mcDeviceSynchronize of the other device",
                       mcDeviceSynchronize(), mcSuccess);
  }
  // The reset device works again with new objects.
  mcStream_t fresh = nullptr;
  problems += Expect("mcStreamCreate after the reset", mcStreamCreate(&fresh),
                     mcSuccess);
  problems += Expect("mcStreamSynchronize after the reset",
                     mcStreamSynchronize(fresh), mcSuccess);
  return problems;
}

using ResetCase = std::tuple<int, int>;

std::string ResetCaseName(const testing::TestParamInfo<ResetCase>& info) {
  return std::string(kUses[std::get<1>(info.param)].name) + "_ResetDevice" +
         std::to_string(std::get<0>(info.param));
}

class DeviceReset : public testing::TestWithParam<ResetCase> {};

TEST_P(DeviceReset, DestroysOnlyTheCurrentDevicesStreamsAndEvents) {
  MX_SPEC("api.device.reset.destroys-streams-and-events",
          "api.device.reset.only-current-device",
          "api.stream.destroy.device-reset-destroys",
          "api.event.destroy.device-reset-destroys",
          "api.stream.handle.invalid-handle-is-invalid-resource-handle");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  MX_EXPECT_IN_FRESH_PROCESS(
      ResetThenUse(std::get<0>(GetParam()), std::get<1>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(
    Uses, DeviceReset,
    testing::Combine(testing::Values(0, 1),
                     testing::Range(0, static_cast<int>(std::size(kUses)))),
    ResetCaseName);

// Work pending in a stream when the device is reset has run when the
// reset returns.
std::string ResetRunsPendingWork(int device) {
  std::string problems;
  problems += Expect("mcSetDevice", mcSetDevice(device), mcSuccess);
  mcStream_t stream = nullptr;
  problems +=
      Expect("mcStreamCreateWithFlags",
             mcStreamCreateWithFlags(&stream, mcStreamNonBlocking), mcSuccess);
  OrderLog log;
  problems +=
      Expect("mcLaunchHostFunc", log.Append(stream, "pending"), mcSuccess);
  problems +=
      Expect("mcLaunchHostFunc", log.Append(nullptr, "legacy"), mcSuccess);
  problems += Expect("mcDeviceReset", mcDeviceReset(), mcSuccess);
  if (log.size() != 2) {
    problems += "after the reset the log is '" + log.Joined() + "'; ";
  }
  return problems;
}

class ResetPending : public testing::TestWithParam<int> {};

TEST_P(ResetPending, PendingWorkRunsBeforeTheReset) {
  MX_SPEC("api.device.reset.waits-for-pending-work",
          "api.stream.destroy.device-reset-destroys");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", GetParam() + 1);
  MX_EXPECT_IN_FRESH_PROCESS(ResetRunsPendingWork(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Devices, ResetPending, testing::Values(0, 1));

}  // namespace
}  // namespace mxcts::conformance
