// Copyright mxcts authors.
//
// Conformance: mcDeviceSynchronize returns the error of the work it waited
// for (docs/spec/api-device.md, mcDeviceSynchronize): a kernel that writes
// through a null pointer gives mcErrorIllegalAddress, one whose assertion
// fails gives mcErrorAssert, each sticky afterwards and with a diagnostic
// naming the kernel. The same kernels with the fault left out are the
// controls: mcDeviceSynchronize returns mcSuccess.

#include <mc_runtime.h>

#include <cassert>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace mxcts::conformance {
namespace {

__global__ void WriteThrough(int* target) {
  if (threadIdx.x == 3) *static_cast<volatile int*>(target) = 1;
}

__global__ void CheckPositive(int value) { assert(value > 0); }

mcError_t WriteThenSynchronize(bool null_target) {
  int* valid = nullptr;
  if (mcMalloc(&valid, sizeof(int)) != mcSuccess) return mcErrorUnknown;
  WriteThrough<<<1, 8>>>(null_target ? nullptr : valid);
  return mcDeviceSynchronize();
}

mcError_t AssertThenSynchronize(int value) {
  CheckPositive<<<1, 4>>>(value);
  return mcDeviceSynchronize();
}

TEST(DeviceSynchronize, ReturnsTheIllegalAddressOfTheWork) {
  MX_SPEC("api.device.synchronize.returns-work-error");
  MX_REQUIRE_CAPABILITY("trap_handler");
  MX_EXPECT_TRAP(WriteThenSynchronize(true), mcErrorIllegalAddress,
                 "WriteThrough");
}

TEST(DeviceSynchronize, ReturnsTheAssertOfTheWork) {
  MX_SPEC("api.device.synchronize.returns-work-error");
  MX_REQUIRE_CAPABILITY("trap_handler");
  MX_EXPECT_TRAP(AssertThenSynchronize(0), mcErrorAssert, "CheckPositive");
}

TEST(DeviceSynchronize, ControlWorkWithoutFaultsSucceeds) {
  MX_SPEC("api.device.synchronize.returns-work-error");
  MX_EXPECT_NO_TRAP(WriteThenSynchronize(false));
  MX_EXPECT_NO_TRAP(AssertThenSynchronize(1));
}

}  // namespace
}  // namespace mxcts::conformance
