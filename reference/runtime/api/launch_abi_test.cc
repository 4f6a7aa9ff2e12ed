// Copyright mxcts authors.
//
// Tests of the launch ABI (mcr/detail/launch_abi.h) end to end without the
// compiler: kernel stubs are written here exactly as mxcc's translator
// writes them, their device side is the hand-made test image, and grids run
// on a test runner. Covers the configuration stack, the missing
// configuration error, launch errors recorded as the last error, and the
// path stub -> key -> image -> record -> entry.

#include <gtest/gtest.h>

#include "mc_runtime.h"
#include "reference/runtime/testing/runtime_testing.h"

// --- As the translator emits for `__global__ void count(int* counter)`
// and `__global__ void mixed(char c, double d, int* out)` (host pass). ---
__mc_internal::ImageBlob __mc_image_launch_test =
    mxcts::runtime_testing::InertTestImage();

void count(int* counter) {
  ::__mc_internal::LaunchFromStub<decltype(static_cast<void (*)(int*)>(&count)),
                                  static_cast<void (*)(int*)>(&count),
                                  &__mc_image_launch_test>(counter);
}

void mixed(char c, double d, int* out) {
  ::__mc_internal::LaunchFromStub<
      decltype(static_cast<void (*)(char, double, int*)>(&mixed)),
      static_cast<void (*)(char, double, int*)>(&mixed),
      &__mc_image_launch_test>(c, d, out);
}
// --- End of the translated part. ---

namespace {

class LaunchAbi : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GT(__mc_image_launch_test.size, 0u) << "test image not found";
    mcSetDevice(0);
    mcGetLastError();
  }
  void TearDown() override { mcGetLastError(); }

  mxcts::runtime_testing::ScopedGridRunner runner_{
      &mxcts::runtime_testing::RunEveryThreadInOrder};
};

TEST_F(LaunchAbi, ChevronLaunchRunsTheImagesKernel) {
  // `count<<<2, 32>>>(&counter)`
  int counter = 0;
  (::__mc_internal::PushLaunchConfiguration(2, 32), count(&counter));
  EXPECT_EQ(counter, 64);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
}

TEST_F(LaunchAbi, ArgumentsAreConvertedByTheStubsSignature) {
  // `mixed<<<1, 1>>>(65, 2.9f, &out)`: 65 converts to char, 2.9f to double.
  int out = 0;
  (::__mc_internal::PushLaunchConfiguration(1, 1), mixed(65, 2.9f, &out));
  EXPECT_EQ(out, 65 + 2);
}

TEST_F(LaunchAbi, ConfigurationIsEvaluatedBeforeTheArguments) {
  // [lang.launch.config-evaluated-before-args]: `count<<<++i, 1>>>(p(i))`
  int i = 1;
  int counter = 0;
  int grid_seen_by_argument = 0;
  auto argument = [&]() {
    grid_seen_by_argument = i;
    return &counter;
  };
  (::__mc_internal::PushLaunchConfiguration(++i, 1), count(argument()));
  EXPECT_EQ(grid_seen_by_argument, 2);
  EXPECT_EQ(counter, 2);
}

TEST_F(LaunchAbi, LaunchInsideAnArgumentUsesItsOwnConfiguration) {
  // `count<<<3, 1>>>((count<<<5, 1>>>(&inner), &outer))`
  int inner = 0, outer = 0;
  (::__mc_internal::PushLaunchConfiguration(3, 1),
   count(((::__mc_internal::PushLaunchConfiguration(5, 1), count(&inner)),
          &outer)));
  EXPECT_EQ(inner, 5);
  EXPECT_EQ(outer, 3);
}

TEST_F(LaunchAbi, StubWithoutConfigurationIsMissingConfiguration) {
  int counter = 0;
  void (*through_pointer)(int*) = &count;
  through_pointer(&counter);
  EXPECT_EQ(counter, 0);
  EXPECT_EQ(mcGetLastError(), mcErrorMissingConfiguration);
  // Control: with a configuration the same call runs.
  (::__mc_internal::PushLaunchConfiguration(1, 1), through_pointer(&counter));
  EXPECT_EQ(counter, 1);
}

TEST_F(LaunchAbi, LaunchErrorIsRecordedAsTheLastError) {
  // [api.error.last.launch-error-recorded]: `count<<<1, 2048>>>(&counter)`
  int counter = 0;
  (::__mc_internal::PushLaunchConfiguration(1, 2048), count(&counter));
  EXPECT_EQ(counter, 0);
  EXPECT_EQ(mcPeekAtLastError(), mcErrorInvalidConfiguration);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidConfiguration);
  // [api.error.last.launch-success-does-not-clear]
  mcSetDevice(7);
  (::__mc_internal::PushLaunchConfiguration(1, 1), count(&counter));
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDevice);
}

TEST_F(LaunchAbi, StubIsAKernelForMcLaunchKernel) {
  // [lang.launch.operand.equivalent-to-mclaunchkernel]
  int counter = 0;
  int* pointer = &counter;
  void* args[] = {&pointer};
  EXPECT_EQ(mcLaunchKernel(&count, dim3(4), dim3(8), args), mcSuccess);
  EXPECT_EQ(counter, 32);
}

TEST_F(LaunchAbi, EachDeviceRunsItsOwnCopyOfTheImage) {
  int counter = 0;
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  (::__mc_internal::PushLaunchConfiguration(1, 3), count(&counter));
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  (::__mc_internal::PushLaunchConfiguration(1, 4), count(&counter));
  EXPECT_EQ(counter, 7);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
}

}  // namespace
