// Copyright mxcts authors.
//
// Conformance: a kernel that does not terminate, run with
// MACA_KERNEL_TIMEOUT set (docs/spec/lang-undefined-behaviour.md,
// lang.ub.exec.kernel-timeout; docs/spec/api-trap-handler.md,
// api.trap.error.timeout). A non-terminating kernel is undefined; with the
// timeout, the reference stops it with mcErrorLaunchTimeout, sticky, and a
// diagnostic naming the kernel. The kernels spin in different places
// (device code alone, a barrier, the math library, the device heap), each
// beside a control that ends in time under the same setting.

#include <math.h>
#include <mc_runtime.h>
#include <stdlib.h>

#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

using ::mxcts::conformance::AnyOf;
using ::mxcts::conformance::ScopedEnvironment;

// Each kernel loops while *stop is 0; every thread of the block runs it.
__global__ void SpinInDeviceCode(volatile int* stop) {
  while (*stop == 0) {
  }
}

__global__ void SpinAtABarrier(volatile int* stop) {
  while (*stop == 0) __syncthreads();
}

__global__ void SpinInTheMathLibrary(volatile int* stop, float* out) {
  float x = 0.5f;
  while (*stop == 0) x = sinf(x) + 0.5f;
  out[threadIdx.x] = x;
}

__global__ void SpinInTheDeviceHeap(volatile int* stop) {
  while (*stop == 0) {
    void* block = malloc(32);
    free(block);
  }
}

enum class Spin { kDeviceCode, kBarrier, kMath, kHeap };

// Launches the kernel of `spin` with *stop set to `stop` and returns the
// error of the synchronization.
mcError_t RunSpin(Spin spin, int stop) {
  int* flag = nullptr;
  float* out = nullptr;
  if (mcMalloc(&flag, sizeof(int)) != mcSuccess ||
      mcMalloc(&out, 64 * sizeof(float)) != mcSuccess ||
      mcMemcpy(flag, &stop, sizeof(int), mcMemcpyHostToDevice) != mcSuccess) {
    return mcErrorUnknown;
  }
  switch (spin) {
    case Spin::kDeviceCode:
      SpinInDeviceCode<<<2, 32>>>(flag);
      break;
    case Spin::kBarrier:
      SpinAtABarrier<<<2, 64>>>(flag);
      break;
    case Spin::kMath:
      SpinInTheMathLibrary<<<1, 64>>>(flag, out);
      break;
    case Spin::kHeap:
      SpinInTheDeviceHeap<<<1, 4>>>(flag);
      break;
  }
  return mcDeviceSynchronize();
}

struct Timeout {
  Spin spin;
  const char* milliseconds;
};

std::string Name(const testing::TestParamInfo<Timeout>& info) {
  const char* spins[] = {"DeviceCode", "Barrier", "Math", "Heap"};
  return std::string(spins[static_cast<int>(info.param.spin)]) +
         info.param.milliseconds + "ms";
}

class KernelTimeout : public testing::TestWithParam<Timeout> {};

TEST_P(KernelTimeout, EndlessKernelIsStopped) {
  MX_SPEC("lang.ub.exec.kernel-timeout", "api.trap.error.timeout",
          "api.env.kernel-timeout.values", "api.trap.error.sticky",
          "api.trap.cause.runtime-detected-misuse");
  MX_REQUIRE_CAPABILITY("kernel_timeout");
  ScopedEnvironment timeout("MACA_KERNEL_TIMEOUT", GetParam().milliseconds);
  const std::string pattern =
      std::string("Spin.*kernel ran longer than MACA_KERNEL_TIMEOUT=") +
      GetParam().milliseconds + " ms";
  MX_EXPECT_TRAP(RunSpin(GetParam().spin, 0),
                 AnyOf(mcErrorLaunchTimeout, mcErrorKernelExecTimeout),
                 pattern.c_str());
}

TEST_P(KernelTimeout, KernelThatEndsInTimeRuns) {
  MX_SPEC("lang.ub.exec.kernel-timeout", "api.env.kernel-timeout.values");
  MX_REQUIRE_CAPABILITY("kernel_timeout");
  ScopedEnvironment timeout("MACA_KERNEL_TIMEOUT", GetParam().milliseconds);
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(RunSpin(GetParam().spin, 1) == mcSuccess &&
                                   RunSpin(GetParam().spin, 1) == mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Spins, KernelTimeout,
                         testing::Values(Timeout{Spin::kDeviceCode, "50"},
                                         Timeout{Spin::kDeviceCode, "200"},
                                         Timeout{Spin::kBarrier, "50"},
                                         Timeout{Spin::kBarrier, "200"},
                                         Timeout{Spin::kMath, "50"},
                                         Timeout{Spin::kMath, "200"},
                                         Timeout{Spin::kHeap, "50"},
                                         Timeout{Spin::kHeap, "200"}),
                         Name);

}  // namespace
