// Copyright mxcts authors.
//
// Conformance: runtime functions called from device code return mcError_t
// (docs/spec/api-errors.md, "Errors returned"): a device-side launch with
// a zero block returns an error and runs nothing, the same launch with a
// valid block returns mcSuccess and runs (the control), and one whose child
// later fails its assertion still returns mcSuccess at the launch, the
// failure reaching the host when it synchronizes. A backend without the
// device runtime (no dynamic_parallelism in its manifest) cannot compile
// these kernels, so the target requires the capability (BUILD).

#include <mc_runtime.h>

#include <cassert>
#include <cstdio>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace mxcts::conformance {
namespace {

// --- Runtime functions in device code. ---

__global__ void Child(int* ran, int must_be_positive) {
  assert(must_be_positive > 0);
  atomicAdd(ran, 1);
}

// Launches Child with `block` threads through the device runtime and
// stores what the launch returned.
__global__ void Parent(int block, int child_argument, int* ran, int* returned) {
  void* buffer = mcGetParameterBufferV2(reinterpret_cast<void*>(Child), dim3(1),
                                        dim3(block), 0);
  if (buffer == nullptr) {
    *returned = -1;
    return;
  }
  struct Arguments {
    int* ran;
    int must_be_positive;
  };
  *static_cast<Arguments*>(buffer) = {ran, child_argument};
  *returned = mcLaunchDeviceV2(buffer, 0);
}

struct DeviceLaunch {
  mcError_t synchronized = mcErrorUnknown;
  int returned = -2;  // what the device-side launch returned
  int ran = -1;       // how many child threads ran
};

DeviceLaunch LaunchFromDevice(int block, int child_argument) {
  DeviceLaunch result;
  int* memory = nullptr;
  if (mcMalloc(&memory, 2 * sizeof(int)) != mcSuccess) return result;
  mcMemset(memory, 0, 2 * sizeof(int));
  Parent<<<1, 1>>>(block, child_argument, &memory[0], &memory[1]);
  result.synchronized = mcDeviceSynchronize();
  if (result.synchronized == mcSuccess) {
    int host[2] = {-1, -2};
    mcMemcpy(host, memory, sizeof(host), mcMemcpyDeviceToHost);
    result.ran = host[0];
    result.returned = host[1];
  }
  mcFree(memory);
  return result;
}

TEST(DeviceRuntimeStatus, InvalidLaunchReturnsAnError) {
  MX_SPEC("api.error.return.device-runtime-returns-status");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const DeviceLaunch invalid = LaunchFromDevice(0, 1);
  ASSERT_EQ(invalid.synchronized, mcSuccess);
  EXPECT_EQ(invalid.returned, mcErrorInvalidConfiguration);
  EXPECT_EQ(invalid.ran, 0);
  // Control: a valid block.
  const DeviceLaunch valid = LaunchFromDevice(8, 1);
  ASSERT_EQ(valid.synchronized, mcSuccess);
  EXPECT_EQ(valid.returned, mcSuccess);
  EXPECT_EQ(valid.ran, 8);
}

// The launch of a child that fails its assertion: the parent stores what
// the launch returned in managed memory before the child runs; the host
// sees mcErrorAssert. Exits with the synchronization's result.
mcError_t FailingChildLaunchReturnsSuccess() {
  int* memory = nullptr;
  if (mcMallocManaged(&memory, 2 * sizeof(int)) != mcSuccess) {
    return mcErrorUnknown;
  }
  memory[0] = 0;
  memory[1] = -2;
  Parent<<<1, 1>>>(4, 0, &memory[0], &memory[1]);
  const mcError_t synchronized = mcDeviceSynchronize();
  if (memory[1] != mcSuccess) {
    std::fprintf(stderr, "the device-side launch returned %d\n", memory[1]);
    return mcErrorUnknown;
  }
  return synchronized;
}

TEST(DeviceRuntimeStatus, LaunchSuccessDoesNotMeanTheChildSucceeded) {
  MX_SPEC("api.error.return.device-runtime-returns-status");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_EXPECT_TRAP(FailingChildLaunchReturnsSuccess(), mcErrorAssert, "Child");
}

}  // namespace
}  // namespace mxcts::conformance
