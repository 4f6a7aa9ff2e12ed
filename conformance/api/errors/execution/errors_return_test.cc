// Copyright mxcts authors.
//
// Conformance: where errors are returned (docs/spec/api-errors.md, "Errors
// returned"): a failed implicit initialization. With MACA_VISIBLE_DEVICES
// selecting no device, the first call of a fresh process returns
// mcErrorNoDevice, and so does every later call that needs a device
// (mcInit too [api.device.init.initializes]). The
// control is the same program with every device visible. What runtime
// functions in device code return is in
// errors_device_runtime_return_test.cc.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/testing/expect_error.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// --- A failed initialization. ---

std::string CallsWithoutADevice() {
  std::string problems;
  void* p = nullptr;
  problems +=
      Expect("the first call (mcMalloc)", mcMalloc(&p, 64), mcErrorNoDevice);
  mcStream_t stream = nullptr;
  problems +=
      Expect("mcStreamCreate", mcStreamCreate(&stream), mcErrorNoDevice);
  problems +=
      Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcErrorNoDevice);
  problems += Expect("mcMalloc again", mcMalloc(&p, 64), mcErrorNoDevice);
  int count = -1;
  problems +=
      Expect("mcGetDeviceCount", mcGetDeviceCount(&count), mcErrorNoDevice);
  if (count != 0) problems += "the count is " + std::to_string(count) + "; ";
  problems += Expect("mcInit", mcInit(0), mcErrorNoDevice);
  return problems;
}

std::string CallsWithDevices() {
  std::string problems;
  void* p = nullptr;
  problems += Expect("the first call (mcMalloc)", mcMalloc(&p, 64), mcSuccess);
  mcStream_t stream = nullptr;
  problems += Expect("mcStreamCreate", mcStreamCreate(&stream), mcSuccess);
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  problems += Expect("mcFree", mcFree(p), mcSuccess);
  problems += Expect("mcInit", mcInit(0), mcSuccess);
  return problems;
}

TEST(InitializationFailure, FirstAndLaterCallsReturnTheCause) {
  MX_SPEC("api.error.return.initialization-failure",
          "api.device.init.initializes");
  ScopedEnvironment none("MACA_VISIBLE_DEVICES", "");
  MX_EXPECT_IN_FRESH_PROCESS(CallsWithoutADevice());
}

TEST(InitializationFailure, ControlWithDevicesTheCallsSucceed) {
  MX_SPEC("api.error.return.initialization-failure",
          "api.device.init.initializes");
  ScopedEnvironment all("MACA_VISIBLE_DEVICES", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(CallsWithDevices());
}

}  // namespace
}  // namespace mxcts::conformance
