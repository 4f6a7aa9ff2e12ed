// Copyright mxcts authors.
//
// Conformance: errors of the occupancy calculators
// (docs/spec/api-device.md, "Occupancy"), each beside a control call that
// succeeds, and none storing a result.

#include <mc_runtime.h>

#include <climits>
#include <string>

#include "conformance/api/testing/device_testing.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::NonKernelTest;
using ::mxcts::conformance::NotAKernelName;
using ::mxcts::conformance::NotKernels;

__global__ void Kernel(int* out) { out[threadIdx.x] = 1; }

const void* KernelPointer() { return reinterpret_cast<const void*>(&Kernel); }

std::string SignedName(const testing::TestParamInfo<int>& info) {
  if (info.param == INT_MIN) return "IntMin";
  return info.param < 0 ? "Minus" + std::to_string(-info.param)
                        : std::to_string(info.param);
}

TEST(OccupancyValidation, ActiveBlocksWithNullIsInvalidValue) {
  MX_SPEC("api.device.occupancy.max-active-blocks-null-is-invalid-value");
  EXPECT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessor(nullptr,
                                                        KernelPointer(), 64, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                nullptr, KernelPointer(), 64, 0, mcOccupancyDefault),
            mcErrorInvalidValue);
  int blocks = 0;
  EXPECT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessor(&blocks,
                                                        KernelPointer(), 64, 0),
            mcSuccess);
  mcGetLastError();
}

class NonPositiveBlockSize : public testing::TestWithParam<int> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(NonPositiveBlockSize, ActiveBlocksIsInvalidValue) {
  MX_SPEC("api.device.occupancy.max-active-blocks-null-is-invalid-value");
  int blocks = 77;
  EXPECT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessor(
                &blocks, KernelPointer(), GetParam(), 0),
            mcErrorInvalidValue);
  EXPECT_EQ(blocks, 77);
  EXPECT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, Kernel, 1, 0),
            mcSuccess);
}

TEST_P(NonPositiveBlockSize, AvailableDynamicSharedIsInvalidValue) {
  MX_SPEC("api.device.occupancy.available-dynamic-shared-invalid-value");
  size_t bytes = 77;
  EXPECT_EQ(mcOccupancyAvailableDynamicSMemPerBlock(&bytes, KernelPointer(), 1,
                                                    GetParam()),
            mcErrorInvalidValue);
  EXPECT_EQ(mcOccupancyAvailableDynamicSMemPerBlock(&bytes, KernelPointer(),
                                                    GetParam(), 64),
            mcErrorInvalidValue);
  EXPECT_EQ(bytes, 77u);
  EXPECT_EQ(mcOccupancyAvailableDynamicSMemPerBlock(&bytes, Kernel, 1, 64),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Sizes, NonPositiveBlockSize,
                         testing::Values(0, -1, -64, INT_MIN), SignedName);

class BadOccupancyFlags : public testing::TestWithParam<unsigned> {
 protected:
  void TearDown() override { mcGetLastError(); }
};

TEST_P(BadOccupancyFlags, ActiveBlocksIsInvalidValue) {
  MX_SPEC("api.device.occupancy.invalid-flags-is-invalid-value");
  int blocks = 77;
  EXPECT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                &blocks, KernelPointer(), 64, 0, GetParam()),
            mcErrorInvalidValue);
  EXPECT_EQ(blocks, 77);
  EXPECT_EQ(
      mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
          &blocks, KernelPointer(), 64, 0, mcOccupancyDisableCachingOverride),
      mcSuccess);
}

TEST_P(BadOccupancyFlags, PotentialBlockSizeIsInvalidValue) {
  MX_SPEC("api.device.occupancy.invalid-flags-is-invalid-value");
  int grid = 77, block = 77;
  EXPECT_EQ(mcOccupancyMaxPotentialBlockSizeWithFlags(
                &grid, &block, KernelPointer(), 0, 0, GetParam()),
            mcErrorInvalidValue);
  EXPECT_EQ(grid, 77);
  EXPECT_EQ(block, 77);
  EXPECT_EQ(mcOccupancyMaxPotentialBlockSizeWithFlags(
                &grid, &block, KernelPointer(), 0, 0, mcOccupancyDefault),
            mcSuccess);
}

TEST_P(BadOccupancyFlags, VariableSharedFormIsInvalidValue) {
  MX_SPEC("api.device.occupancy.invalid-flags-is-invalid-value",
          "api.device.occupancy.max-potential-variable-shared");
  int grid = 77, block = 77;
  EXPECT_EQ(
      mcOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
          &grid, &block, Kernel, [](int) { return size_t{0}; }, 0, GetParam()),
      mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_EQ(grid, 77);
  EXPECT_EQ(mcOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
                &grid, &block, Kernel, [](int) { return size_t{0}; }, 0,
                mcOccupancyDefault),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Flags, BadOccupancyFlags,
                         testing::Values(2u, 3u, 0x100u, 0x80000000u));

class OccupancyOfNonKernel : public NonKernelTest {};

TEST_P(OccupancyOfNonKernel, ActiveBlocksIsInvalidDeviceFunction) {
  MX_SPEC("api.device.occupancy.non-kernel-is-invalid-device-function");
  int blocks = 77;
  EXPECT_EQ(
      mcOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, pointer(), 64, 0),
      mcErrorInvalidDeviceFunction);
  EXPECT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                &blocks, pointer(), 64, 0, mcOccupancyDefault),
            mcErrorInvalidDeviceFunction);
  EXPECT_EQ(blocks, 77);
  EXPECT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessor(&blocks,
                                                        KernelPointer(), 64, 0),
            mcSuccess);
}

TEST_P(OccupancyOfNonKernel, PotentialBlockSizeIsInvalidDeviceFunction) {
  MX_SPEC("api.device.occupancy.non-kernel-is-invalid-device-function");
  int grid = 77, block = 77;
  EXPECT_EQ(mcOccupancyMaxPotentialBlockSize(&grid, &block, pointer(), 0, 0),
            mcErrorInvalidDeviceFunction);
  EXPECT_EQ(mcOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, pointer(),
                                                      0, 0, mcOccupancyDefault),
            mcErrorInvalidDeviceFunction);
  EXPECT_EQ(grid, 77);
  EXPECT_EQ(block, 77);
  EXPECT_EQ(
      mcOccupancyMaxPotentialBlockSize(&grid, &block, KernelPointer(), 0, 0),
      mcSuccess);
}

TEST_P(OccupancyOfNonKernel, AvailableDynamicSharedIsInvalidDeviceFunction) {
  MX_SPEC("api.device.occupancy.non-kernel-is-invalid-device-function");
  size_t bytes = 77;
  EXPECT_EQ(mcOccupancyAvailableDynamicSMemPerBlock(&bytes, pointer(), 1, 64),
            mcErrorInvalidDeviceFunction);
  EXPECT_EQ(bytes, 77u);
  EXPECT_EQ(
      mcOccupancyAvailableDynamicSMemPerBlock(&bytes, KernelPointer(), 1, 64),
      mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Pointers, OccupancyOfNonKernel,
                         testing::ValuesIn(NotKernels()), NotAKernelName);

TEST(OccupancyValidation, PotentialBlockSizeWithNullIsInvalidValue) {
  MX_SPEC("api.device.occupancy.max-potential-null-is-invalid-value");
  int grid = 77, block = 77;
  EXPECT_EQ(
      mcOccupancyMaxPotentialBlockSize(nullptr, &block, KernelPointer(), 0, 0),
      mcErrorInvalidValue);
  EXPECT_EQ(
      mcOccupancyMaxPotentialBlockSize(&grid, nullptr, KernelPointer(), 0, 0),
      mcErrorInvalidValue);
  EXPECT_EQ(block, 77);
  EXPECT_EQ(grid, 77);
  EXPECT_EQ(
      mcOccupancyMaxPotentialBlockSize(&grid, &block, KernelPointer(), 0, 0),
      mcSuccess);
  mcGetLastError();
}

TEST(OccupancyValidation, NegativeBlockSizeLimitIsInvalidValue) {
  MX_SPEC("api.device.occupancy.max-potential-null-is-invalid-value");
  int grid = 77, block = 77;
  EXPECT_EQ(
      mcOccupancyMaxPotentialBlockSize(&grid, &block, KernelPointer(), 0, -1),
      mcErrorInvalidValue);
  EXPECT_EQ(block, 77);
  EXPECT_EQ(
      mcOccupancyMaxPotentialBlockSize(&grid, &block, KernelPointer(), 0, 1),
      mcSuccess);
  EXPECT_EQ(block, 1);
  mcGetLastError();
}

TEST(OccupancyValidation, AvailableDynamicSharedWithNullIsInvalidValue) {
  MX_SPEC("api.device.occupancy.available-dynamic-shared-invalid-value");
  EXPECT_EQ(
      mcOccupancyAvailableDynamicSMemPerBlock(nullptr, KernelPointer(), 1, 64),
      mcErrorInvalidValue);
  size_t bytes = 0;
  EXPECT_EQ(
      mcOccupancyAvailableDynamicSMemPerBlock(&bytes, KernelPointer(), 1, 64),
      mcSuccess);
  mcGetLastError();
}

}  // namespace
