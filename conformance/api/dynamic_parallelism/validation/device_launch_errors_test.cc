// Copyright mxcts authors.
//
// Conformance: errors of device-side launches and faults of child grids
// (docs/spec/api-dynamic-parallelism.md): an invalid configuration fails the
// launch with the host launch's error and the child does not run (the
// configuration one step inside each limit is the control); a fault in a
// child is the fault of the whole launch tree, sticky for the host, with a
// diagnostic naming the child's kernel, block and thread and the grids that
// launched it; a host stream handle in a device-side launch and freeing
// memory of the other side are reported.

#include <assert.h>
#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"
#include "gtest/gtest.h"

namespace {

__global__ void MarkRan(int* ran) { *ran = 1; }

__global__ void LaunchWith(dim3 grid, dim3 block, size_t shared, int* ran,
                           int* status) {
  MarkRan<<<grid, block, shared>>>(ran);
  status[0] = mcGetLastError();
  status[1] = mcDeviceSynchronize();
}

struct BadConfiguration {
  const char* name;
  dim3 grid;
  dim3 block;
  size_t shared;
  mcError_t error;  // mcSuccess: the control at the limit
};

class DeviceLaunchConfigurationTest
    : public ::testing::TestWithParam<BadConfiguration> {};

TEST_P(DeviceLaunchConfigurationTest, InvalidConfigurationFailsTheLaunch) {
  MX_SPEC("api.devrt.launch.invalid-configuration-fails-launch",
          "api.devrt.api.get-last-error-optional");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const BadConfiguration& c = GetParam();
  int* buffers = nullptr;
  ASSERT_EQ(mcMalloc(&buffers, 3 * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMemset(buffers, 0, 3 * sizeof(int)), mcSuccess);
  LaunchWith<<<1, 1>>>(c.grid, c.block, c.shared, buffers, buffers + 1);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  int host[3] = {};
  ASSERT_EQ(mcMemcpy(host, buffers, sizeof(host), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(host[1], c.error);
  EXPECT_EQ(host[2], mcSuccess);
  EXPECT_EQ(host[0], c.error == mcSuccess ? 1 : 0) << "whether the child ran";
  mcFree(buffers);
}

INSTANTIATE_TEST_SUITE_P(
    Configurations, DeviceLaunchConfigurationTest,
    ::testing::Values(
        BadConfiguration{"GridXZero", dim3(0, 1, 1), dim3(1), 0,
                         mcErrorInvalidConfiguration},
        BadConfiguration{"GridYZero", dim3(1, 0, 1), dim3(1), 0,
                         mcErrorInvalidConfiguration},
        BadConfiguration{"GridZZero", dim3(1, 1, 0), dim3(1), 0,
                         mcErrorInvalidConfiguration},
        BadConfiguration{"BlockXZero", dim3(1), dim3(0, 1, 1), 0,
                         mcErrorInvalidConfiguration},
        BadConfiguration{"BlockYZero", dim3(1), dim3(1, 0, 1), 0,
                         mcErrorInvalidConfiguration},
        BadConfiguration{"BlockZZero", dim3(1), dim3(1, 1, 0), 0,
                         mcErrorInvalidConfiguration},
        BadConfiguration{"Block1025Threads", dim3(1), dim3(1025), 0,
                         mcErrorInvalidConfiguration},
        BadConfiguration{"Block1024Threads", dim3(1), dim3(1024), 0, mcSuccess},
        BadConfiguration{"Block32x33", dim3(1), dim3(32, 33), 0,
                         mcErrorInvalidConfiguration},
        BadConfiguration{"Block32x32", dim3(1), dim3(32, 32), 0, mcSuccess},
        BadConfiguration{"BlockZ1025", dim3(1), dim3(1, 1, 1025), 0,
                         mcErrorInvalidConfiguration},
        BadConfiguration{"Shared65537", dim3(1), dim3(1), 65537,
                         mcErrorInvalidConfiguration},
        BadConfiguration{"Shared65536", dim3(1), dim3(1), 65536, mcSuccess},
        BadConfiguration{"SharedHuge", dim3(1), dim3(1), size_t{1} << 30,
                         mcErrorInvalidConfiguration}),
    [](const auto& info) { return std::string(info.param.name); });

__global__ void __launch_bounds__(64) Bounded(int* ran) { *ran = 1; }

__global__ void LaunchBounded(unsigned threads, int* ran, int* status) {
  Bounded<<<1, threads>>>(ran);
  *status = mcGetLastError();
}

class LaunchBoundsTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(LaunchBoundsTest, LaunchAboveTheKernelsBoundFails) {
  MX_SPEC("api.devrt.launch.invalid-configuration-fails-launch");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const unsigned threads = GetParam();
  int* buffers = nullptr;
  ASSERT_EQ(mcMalloc(&buffers, 2 * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMemset(buffers, 0, 2 * sizeof(int)), mcSuccess);
  LaunchBounded<<<1, 1>>>(threads, buffers, buffers + 1);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  int host[2] = {};
  mcMemcpy(host, buffers, sizeof(host), mcMemcpyDeviceToHost);
  // As a host launch above __launch_bounds__ fails.
  EXPECT_EQ(host[1], threads > 64 ? mcErrorLaunchOutOfResources : mcSuccess);
  EXPECT_EQ(host[0], threads > 64 ? 0 : 1);
  mcFree(buffers);
}

INSTANTIATE_TEST_SUITE_P(Threads, LaunchBoundsTest,
                         ::testing::Values(63u, 64u, 65u, 128u));

// --- Faults in children. ---

enum class Fault { kAssert, kNullWrite, kTrap };

__global__ void FaultingChild(Fault fault, int* out) {
  if (blockIdx.x == 1 && threadIdx.x == 2) {
    switch (fault) {
      case Fault::kAssert:
        assert(out == nullptr);
        break;
      case Fault::kNullWrite:
        *static_cast<volatile int*>(nullptr) = 1;
        break;
      case Fault::kTrap:
        __builtin_trap();
        break;
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ void LaunchFaulting(Fault fault, int* out, int* launch_status) {
  FaultingChild<<<2, 4>>>(fault, out);
  // [api.devrt.launch.success-does-not-imply-child-success]
  *launch_status = mcGetLastError();
}

__global__ void Grandparent(Fault fault, int* out, int* launch_status) {
  LaunchFaulting<<<1, 1>>>(fault, out, launch_status);
}

mcError_t RunFaultingTree(Fault fault, bool deeper) {
  int* out = nullptr;
  int* status = nullptr;
  mcMalloc(&out, 8 * sizeof(int));
  mcMalloc(&status, sizeof(int));
  if (deeper) {
    Grandparent<<<1, 1>>>(fault, out, status);
  } else {
    LaunchFaulting<<<1, 1>>>(fault, out, status);
  }
  return mcDeviceSynchronize();
}

struct FaultCase {
  const char* name;
  Fault fault;
  mcError_t error;
};

class ChildFaultTest
    : public ::testing::TestWithParam<std::tuple<FaultCase, bool>> {};

TEST_P(ChildFaultTest, FaultInAChildIsTheFaultOfTheLaunchTree) {
  MX_SPEC("api.devrt.launch.success-does-not-imply-child-success",
          "api.devrt.completion.parent-waits-for-children");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  const FaultCase& c = std::get<0>(GetParam());
  const bool deeper = std::get<1>(GetParam());
  const std::string chain =
      deeper ? ".*child grid launched by kernel '.*LaunchFaulting.*' block "
               "\\(0,0,0\\) thread \\(0,0,0\\).*child grid launched by "
               "kernel '.*Grandparent"
             : ".*child grid launched by kernel '.*LaunchFaulting.*' block "
               "\\(0,0,0\\) thread \\(0,0,0\\)";
  MX_EXPECT_TRAP(
      RunFaultingTree(c.fault, deeper), c.error,
      ("FaultingChild.*' block \\(1,0,0\\) thread \\(2,0,0\\)" + chain)
          .c_str());
}

INSTANTIATE_TEST_SUITE_P(
    Faults, ChildFaultTest,
    ::testing::Combine(
        ::testing::Values(
            FaultCase{"Assert", Fault::kAssert, mcErrorAssert},
            FaultCase{"NullWrite", Fault::kNullWrite, mcErrorIllegalAddress},
            FaultCase{"Trap", Fault::kTrap, mcErrorIllegalInstruction}),
        ::testing::Bool()),
    [](const auto& info) {
      return std::string(std::get<0>(info.param).name) +
             (std::get<1>(info.param) ? "_Grandchild" : "_Child");
    });

__global__ void HealthyChild(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
__global__ void LaunchHealthy(int* out) { HealthyChild<<<2, 4>>>(out); }

TEST(ChildFault, HealthyChildLeavesTheTreeSucceeding) {
  MX_SPEC("api.devrt.launch.success-does-not-imply-child-success");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, 8 * sizeof(int)), mcSuccess);
  LaunchHealthy<<<1, 1>>>(out);
  MX_EXPECT_NO_TRAP(mcDeviceSynchronize());
  int host[8] = {};
  mcMemcpy(host, out, sizeof(host), mcMemcpyDeviceToHost);
  for (int value : host) EXPECT_EQ(value, 1);
  mcFree(out);
}

// --- Streams of the host. ---

__global__ void LaunchIntoStream(mcStream_t stream, int* out) {
  MarkRan<<<1, 1, 0, stream>>>(out);
}

mcError_t LaunchWithHostStream() {
  mcStream_t stream;
  mcStreamCreate(&stream);
  int* out = nullptr;
  mcMalloc(&out, sizeof(int));
  LaunchIntoStream<<<1, 1>>>(stream, out);
  return mcDeviceSynchronize();
}

TEST(DeviceLaunchStream, HostStreamInADeviceLaunchIsReported) {
  MX_SPEC("api.devrt.stream.host-stream-not-usable-in-device-code");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_EXPECT_TRAP(LaunchWithHostStream(), mcErrorLaunchFailure,
                 "LaunchIntoStream.*names stream .*not created by device code");
}

class NullStreamTest : public ::testing::TestWithParam<int> {};

__global__ void LaunchIntoNullStream(int form, int* out) {
  if (form == 0) MarkRan<<<1, 1>>>(out);
  if (form == 1) MarkRan<<<1, 1, 0>>>(out);
  if (form == 2) MarkRan<<<1, 1, 0, 0>>>(out);
}

TEST_P(NullStreamTest, LaunchWithoutOrWithZeroStreamUsesTheNullStream) {
  MX_SPEC("api.devrt.stream.null-stream-is-default",
          "api.devrt.stream.host-stream-not-usable-in-device-code");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  int* out = nullptr;
  ASSERT_EQ(mcMalloc(&out, sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMemset(out, 0, sizeof(int)), mcSuccess);
  LaunchIntoNullStream<<<1, 1>>>(GetParam(), out);
  MX_EXPECT_NO_TRAP(mcDeviceSynchronize());
  int host = 0;
  mcMemcpy(&host, out, sizeof(host), mcMemcpyDeviceToHost);
  EXPECT_EQ(host, 1);
  mcFree(out);
}

INSTANTIATE_TEST_SUITE_P(Forms, NullStreamTest, ::testing::Values(0, 1, 2));

// --- Freeing memory of the other side. ---

__global__ void FreeInDevice(void* p) { mcFree(p); }

mcError_t FreeHostAllocationInDevice() {
  void* p = nullptr;
  mcMalloc(&p, 64);
  FreeInDevice<<<1, 1>>>(p);
  return mcDeviceSynchronize();
}

TEST(CrossFree, DeviceFreeOfAHostAllocationIsReported) {
  MX_SPEC("api.devrt.api.free-across-host-device-undefined",
          "api.memory.free.device-runtime-host-allocation");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  MX_EXPECT_TRAP(FreeHostAllocationInDevice(), mcErrorLaunchFailure,
                 "FreeInDevice.*' block \\(0,0,0\\) thread \\(0,0,0\\)");
}

__global__ void AllocateAndFreeInDevice(int* status) {
  void* p = nullptr;
  status[0] = mcMalloc(&p, 64);
  status[1] = mcFree(p);
}

TEST(CrossFree, DeviceFreeOfADeviceAllocationSucceeds) {
  MX_SPEC("api.devrt.api.free-across-host-device-undefined",
          "api.memory.free.device-runtime-host-allocation");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  int* status = nullptr;
  ASSERT_EQ(mcMalloc(&status, 2 * sizeof(int)), mcSuccess);
  AllocateAndFreeInDevice<<<1, 1>>>(status);
  MX_EXPECT_NO_TRAP(mcDeviceSynchronize());
  int host[2] = {-1, -1};
  mcMemcpy(host, status, sizeof(host), mcMemcpyDeviceToHost);
  EXPECT_EQ(host[0], mcSuccess);
  EXPECT_EQ(host[1], mcSuccess);
  mcFree(status);
}

}  // namespace
