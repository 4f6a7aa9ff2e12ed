// Copyright mxcts authors.
//
// Tests of mcLaunchKernel with kernel records written by hand: every launch
// error (the kernel does not run), argument copying, and the order of
// threads. Grids run on a test runner that calls the entry once per thread,
// so these tests check the runtime, not the engine.

#include <gtest/gtest.h>

#include <atomic>

#include "mc_runtime.h"
#include "reference/runtime/testing/runtime_testing.h"

namespace {

using mxcts::runtime_testing::GridsRun;

// Kernel `add(int* counter, int amount)`: each thread adds `amount`.
void AddEntry(void** args) {
  int* counter = *static_cast<int**>(args[0]);
  int amount = *static_cast<int*>(args[1]);
  __atomic_fetch_add(counter, amount, __ATOMIC_RELAXED);
}
const unsigned kAddSizes[] = {sizeof(int*), sizeof(int)};
const unsigned kAddAlignments[] = {alignof(int*), alignof(int)};
const __mc_internal::KernelRecord kAdd = {
    "constexpr const char* __mc_internal::KernelKey() [with Sig = void "
    "(*)(int*, int); Sig F = add]",
    &AddEntry,
    2,
    kAddSizes,
    kAddAlignments,
    0,
    0,
    0,
    nullptr};
void AddStub(int*, int) {}

class Launch : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    mxcts::runtime_testing::RegisterKernelRecord(
        reinterpret_cast<const void*>(&AddStub), &kAdd);
  }
  void SetUp() override {
    mcSetDevice(0);
    mcGetLastError();
  }
  void TearDown() override { mcGetLastError(); }

  // Launches `add(&counter, amount)`.
  mcError_t LaunchAdd(dim3 grid, dim3 block, size_t shared = 0,
                      mcStream_t stream = nullptr) {
    int* pointer = &counter_;
    void* args[] = {&pointer, &amount_};
    return mcLaunchKernel(&AddStub, grid, block, args, shared, stream);
  }

  mxcts::runtime_testing::ScopedGridRunner runner_{
      &mxcts::runtime_testing::RunEveryThreadInOrder};
  int counter_ = 0;
  int amount_ = 1;
};

TEST_F(Launch, RunsEveryThreadOfTheGrid) {
  EXPECT_EQ(LaunchAdd(dim3(2, 3), dim3(4, 2, 2)), mcSuccess);
  EXPECT_EQ(counter_, 2 * 3 * 4 * 2 * 2);
  EXPECT_EQ(mcGetLastError(),
            mcSuccess);  // [lang.launch.error.successful-launch-leaves-success]
}

TEST_F(Launch, TakesTheKernelDirectlyOrAsAnAddress) {
  int* pointer = &counter_;
  void* args[] = {&pointer, &amount_};
  EXPECT_EQ(mcLaunchKernel(&AddStub, 1, 1, args), mcSuccess);
  EXPECT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(&AddStub), dim3(1),
                           dim3(1), args, 0, nullptr),
            mcSuccess);
  EXPECT_EQ(counter_, 2);
}

TEST_F(Launch, AcceptsEachLimitExactly) {
  // [lang.launch.limit.max-values-accepted]
  EXPECT_EQ(LaunchAdd(dim3(1), dim3(1024)), mcSuccess);
  EXPECT_EQ(LaunchAdd(dim3(1), dim3(1, 1024)), mcSuccess);
  EXPECT_EQ(LaunchAdd(dim3(1), dim3(1), 65536), mcSuccess);
  EXPECT_EQ(counter_, 1024 + 1024 + 1);
}

struct RejectedCase {
  const char* name;
  dim3 grid;
  dim3 block;
  size_t shared;
};

class RejectedConfiguration : public Launch,
                              public testing::WithParamInterface<RejectedCase> {
};

TEST_P(RejectedConfiguration, IsInvalidConfigurationAndRunsNothing) {
  // [lang.launch.failed-launch-runs-nothing]
  // [api.error.last.launch-error-recorded]
  int grids_before = GridsRun();
  EXPECT_EQ(LaunchAdd(GetParam().grid, GetParam().block, GetParam().shared),
            mcErrorInvalidConfiguration);
  EXPECT_EQ(GridsRun(), grids_before);
  EXPECT_EQ(counter_, 0);
  EXPECT_EQ(mcPeekAtLastError(), mcErrorInvalidConfiguration);
}

INSTANTIATE_TEST_SUITE_P(
    Limits, RejectedConfiguration,
    testing::Values(
        RejectedCase{"BlockThreads1025", dim3(1), dim3(1025), 0},
        RejectedCase{"BlockThreads32x32x2", dim3(1), dim3(32, 32, 2), 0},
        RejectedCase{"BlockZ1025", dim3(1), dim3(1, 1, 1025), 0},
        RejectedCase{"GridX2147483648", dim3(2147483648u), dim3(1), 0},
        RejectedCase{"GridZero", dim3(0), dim3(1), 0},
        RejectedCase{"BlockZero", dim3(1), dim3(1, 0), 0},
        RejectedCase{"NegativeGrid", dim3(static_cast<unsigned>(-2)), dim3(1),
                     0},
        RejectedCase{"Shared65537", dim3(1), dim3(1), 65537}),
    [](const testing::TestParamInfo<RejectedCase>& info) {
      return std::string(info.param.name);
    });

TEST_F(Launch, NonKernelIsInvalidDeviceFunction) {
  int* pointer = &counter_;
  void* args[] = {&pointer, &amount_};
  int not_a_kernel = 0;
  EXPECT_EQ(mcLaunchKernel(&not_a_kernel, dim3(1), dim3(1), args, 0, nullptr),
            mcErrorInvalidDeviceFunction);
  EXPECT_EQ(mcLaunchKernel(static_cast<const void*>(nullptr), dim3(1), dim3(1),
                           args, 0, nullptr),
            mcErrorInvalidDeviceFunction);
  EXPECT_EQ(counter_, 0);
}

TEST_F(Launch, BadStreamIsInvalidResourceHandle) {
  // [lang.launch.limit.invalid-stream-handle]
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  EXPECT_EQ(LaunchAdd(dim3(1), dim3(1), 0, stream), mcSuccess);  // control
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  EXPECT_EQ(LaunchAdd(dim3(1), dim3(1), 0, stream),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(counter_, 1);
}

TEST_F(Launch, StreamOfAnotherDeviceIsInvalidResourceHandle) {
  // [lang.launch.limit.stream-of-other-device]
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  mcStream_t on1 = nullptr;
  ASSERT_EQ(mcStreamCreate(&on1), mcSuccess);
  EXPECT_EQ(LaunchAdd(dim3(1), dim3(1), 0, on1), mcSuccess);  // control
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  EXPECT_EQ(LaunchAdd(dim3(1), dim3(1), 0, on1), mcErrorInvalidResourceHandle);
  EXPECT_EQ(LaunchAdd(dim3(1), dim3(1), 0, mcStreamLegacy), mcSuccess);
  EXPECT_EQ(counter_, 2);
  mcStreamDestroy(on1);
}

TEST_F(Launch, NullArgumentsForAKernelWithParametersIsInvalidValue) {
  EXPECT_EQ(mcLaunchKernel(&AddStub, dim3(1), dim3(1), nullptr, 0, nullptr),
            mcErrorInvalidValue);
}

TEST_F(Launch, ArgumentsAreCopiedAtTheLaunch) {
  // [lang.launch.args-copied-at-launch]: the runner sees the values of the
  // call even if the caller's objects change while the grid runs.
  static int* observed_counter = nullptr;
  static int observed_amount = 0;
  struct Spy {
    static mcError_t Run(const mxcts::device::GridLaunch& launch) {
      observed_counter = *static_cast<int**>(launch.args[0]);
      observed_amount = *static_cast<int*>(launch.args[1]);
      return mcSuccess;
    }
  };
  mxcts::runtime_testing::ScopedGridRunner spy(&Spy::Run);
  amount_ = 5;
  EXPECT_EQ(LaunchAdd(dim3(1), dim3(1)), mcSuccess);
  EXPECT_EQ(observed_counter, &counter_);
  EXPECT_EQ(observed_amount, 5);
}

TEST_F(Launch, GridGetsTheKernelsNameAndShape) {
  static std::string name;
  static dim3 grid, block;
  static size_t shared = 0;
  struct Spy {
    static mcError_t Run(const mxcts::device::GridLaunch& launch) {
      name = std::string(launch.kernel_name);
      grid = launch.grid;
      block = launch.block;
      shared = launch.dynamic_shared_bytes;
      return mcSuccess;
    }
  };
  mxcts::runtime_testing::ScopedGridRunner spy(&Spy::Run);
  EXPECT_EQ(LaunchAdd(dim3(3, 2), dim3(64), 128), mcSuccess);
  EXPECT_EQ(name, "add");
  EXPECT_EQ(grid.y, 2u);
  EXPECT_EQ(block.x, 64u);
  EXPECT_EQ(shared, 128u);
}

}  // namespace
