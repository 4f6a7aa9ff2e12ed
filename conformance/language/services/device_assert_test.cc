// Conformance: device assert (docs/spec/lang-device-services.md "assert",
// docs/spec/api-trap-handler.md).

#include <assert.h>
#include <mc_runtime.h>

#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

// Thread `failing_thread` of block `failing_block` fails its assertion;
// a negative index names no thread.
__global__ void AssertOnOneThread(int failing_block, int failing_thread) {
  assert(!(static_cast<int>(blockIdx.x) == failing_block &&
           static_cast<int>(threadIdx.x) == failing_thread));
}

mcError_t LaunchAssert(int failing_block, int failing_thread) {
  AssertOnOneThread<<<2, 64>>>(failing_block, failing_thread);
  return mcDeviceSynchronize();
}

TEST(DeviceAssert, FailureTrapsWithAssertErrorNamingBlockAndThread) {
  MX_SPEC("lang.assert.failure.stops-kernel", "api.trap.error.assert",
          "api.trap.error.sticky", "api.trap.diagnostic.content");
  MX_EXPECT_TRAP(LaunchAssert(1, 5), mcErrorAssert,
                 "AssertOnOneThread.*block \\(1,0,0\\) thread \\(5,0,0\\)");
}

TEST(DeviceAssert, HoldingAssertionDoesNotTrap) {
  MX_SPEC("lang.assert.failure.stops-kernel");
  MX_EXPECT_NO_TRAP(LaunchAssert(-1, -1));
}

}  // namespace
