// Copyright mxcts authors.
//
// Conformance: mcDeviceReset and the streams and events of the devices
// (docs/spec/api-device.md, mcDeviceReset; api-stream.md, "Destroying
// streams"; api-event.md, "Destroying events").
//
//   - mcDeviceReset destroys the streams and events of the current device
//     (each later use returns mcErrorInvalidResourceHandle) and leaves the
//     other device's working: the same use of them is the control.
//   - Work pending in a stream when its device is reset has run when the
//     reset returns.
//
// Each reset runs in a fresh process, since it also releases the device's
// memory. The results hold in every timeline mode (the target also runs as
// _deferred and _shuffle; the fresh processes inherit the mode).

#include <mc_runtime.h>

#include <functional>
#include <iterator>
#include <string>
#include <tuple>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

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
