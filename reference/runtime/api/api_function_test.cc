// Copyright mxcts authors.
//
// Tests of the kernel entry points (api_function.cc) with a kernel record
// written by hand: attributes, the settings that change them, occupancy,
// the C++ forms that take the kernel itself, and the errors, each beside a
// call that succeeds.

#include <gtest/gtest.h>

#include "mc_runtime.h"
#include "reference/runtime/testing/runtime_testing.h"

namespace {

void NothingEntry(void**) {}
const unsigned kSizes[] = {sizeof(int*)};
const unsigned kAlignments[] = {alignof(int*)};
const __mc_internal::KernelRecord kNothing = {
    "constexpr const char* __mc_internal::KernelKey() [with Sig = void "
    "(*)(int*); Sig F = nothing]",
    &NothingEntry,
    1,
    kSizes,
    kAlignments,
    0,
    0,
    0,
    nullptr};
void NothingStub(int*) {}
void HostFunction(int*) {}

const void* Kernel() { return reinterpret_cast<const void*>(&NothingStub); }
const void* NotAKernel() {
  return reinterpret_cast<const void*>(&HostFunction);
}

class Function : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    mxcts::runtime_testing::RegisterKernelRecord(Kernel(), &kNothing);
  }
  void SetUp() override {
    mcSetDevice(0);
    mcGetLastError();
  }
  void TearDown() override {
    mcSetDevice(0);
    mcGetLastError();
  }
};

TEST_F(Function, AttributesAreTheReferenceValues) {
  mcFuncAttributes a;
  ASSERT_EQ(mcFuncGetAttributes(&a, Kernel()), mcSuccess);
  EXPECT_EQ(a.maxThreadsPerBlock, 1024);
  EXPECT_EQ(a.numRegs, 0);
  EXPECT_EQ(a.sharedSizeBytes, 0u);
  EXPECT_EQ(a.localSizeBytes, 0u);
  EXPECT_EQ(a.maxDynamicSharedSizeBytes, 65536);
  EXPECT_EQ(a.preferredShmemCarveout, -1);
  // The C++ form takes the function itself.
  mcFuncAttributes b;
  ASSERT_EQ(mcFuncGetAttributes(&b, NothingStub), mcSuccess);
  EXPECT_EQ(b.maxThreadsPerBlock, a.maxThreadsPerBlock);
}

TEST_F(Function, NonKernelIsInvalidDeviceFunction) {
  // [api.device.func.non-kernel-is-invalid-device-function]
  mcFuncAttributes a;
  int n = 0;
  size_t bytes = 0;
  int grid = 0, block = 0;
  for (const void* f : {NotAKernel(), static_cast<const void*>(nullptr),
                        static_cast<const void*>(&n)}) {
    EXPECT_EQ(mcFuncGetAttributes(&a, f), mcErrorInvalidDeviceFunction);
    EXPECT_EQ(
        mcFuncSetAttribute(f, mcFuncAttributePreferredSharedMemoryCarveout, 50),
        mcErrorInvalidDeviceFunction);
    EXPECT_EQ(mcFuncSetCacheConfig(f, mcFuncCachePreferL1),
              mcErrorInvalidDeviceFunction);
    EXPECT_EQ(mcFuncSetSharedMemConfig(f, mcSharedMemBankSizeFourByte),
              mcErrorInvalidDeviceFunction);
    EXPECT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 64, 0),
              mcErrorInvalidDeviceFunction);
    EXPECT_EQ(mcOccupancyMaxPotentialBlockSize(&grid, &block, f, 0, 0),
              mcErrorInvalidDeviceFunction);
    EXPECT_EQ(mcOccupancyAvailableDynamicSMemPerBlock(&bytes, f, 1, 64),
              mcErrorInvalidDeviceFunction);
  }
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDeviceFunction);
  EXPECT_EQ(mcFuncGetAttributes(&a, Kernel()), mcSuccess);  // control
}

TEST_F(Function, SetAttributeChangesTheReportedValues) {
  ASSERT_EQ(mcFuncSetAttribute(Kernel(),
                               mcFuncAttributeMaxDynamicSharedMemorySize, 4096),
            mcSuccess);
  ASSERT_EQ(mcFuncSetAttribute(NothingStub,
                               mcFuncAttributePreferredSharedMemoryCarveout,
                               mcSharedmemCarveoutMaxShared),
            mcSuccess);
  mcFuncAttributes a;
  ASSERT_EQ(mcFuncGetAttributes(&a, Kernel()), mcSuccess);
  EXPECT_EQ(a.maxDynamicSharedSizeBytes, 4096);
  EXPECT_EQ(a.preferredShmemCarveout, 100);
  // Device 1 keeps the defaults.
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcFuncGetAttributes(&a, Kernel()), mcSuccess);
  EXPECT_EQ(a.maxDynamicSharedSizeBytes, 65536);
  EXPECT_EQ(a.preferredShmemCarveout, -1);
  // Reset of device 0 restores them there.
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  ASSERT_EQ(mcFuncGetAttributes(&a, Kernel()), mcSuccess);
  EXPECT_EQ(a.maxDynamicSharedSizeBytes, 65536);
  EXPECT_EQ(a.preferredShmemCarveout, -1);
}

TEST_F(Function, SetAttributeBadValuesChangeNothing) {
  // [api.device.func.set-attribute-bad-value-is-invalid-value]
  EXPECT_EQ(mcFuncSetAttribute(
                Kernel(), mcFuncAttributeMaxDynamicSharedMemorySize, 65537),
            mcErrorInvalidValue);
  EXPECT_EQ(mcFuncSetAttribute(Kernel(),
                               mcFuncAttributeMaxDynamicSharedMemorySize, -1),
            mcErrorInvalidValue);
  EXPECT_EQ(mcFuncSetAttribute(
                Kernel(), mcFuncAttributePreferredSharedMemoryCarveout, 101),
            mcErrorInvalidValue);
  EXPECT_EQ(mcFuncSetAttribute(
                Kernel(), mcFuncAttributePreferredSharedMemoryCarveout, -2),
            mcErrorInvalidValue);
  EXPECT_EQ(mcFuncSetAttribute(Kernel(), mcFuncAttributeMax, 0),
            mcErrorInvalidValue);
  mcFuncAttributes a;
  ASSERT_EQ(mcFuncGetAttributes(&a, Kernel()), mcSuccess);
  EXPECT_EQ(a.maxDynamicSharedSizeBytes, 65536);
  EXPECT_EQ(a.preferredShmemCarveout, -1);
  // Controls at the edges.
  EXPECT_EQ(mcFuncSetAttribute(
                Kernel(), mcFuncAttributeMaxDynamicSharedMemorySize, 65536),
            mcSuccess);
  EXPECT_EQ(mcFuncSetAttribute(
                Kernel(), mcFuncAttributePreferredSharedMemoryCarveout, -1),
            mcSuccess);
  EXPECT_EQ(mcFuncGetAttributes(nullptr, Kernel()), mcErrorInvalidValue);
}

TEST_F(Function, CacheAndSharedMemoryConfig) {
  EXPECT_EQ(mcFuncSetCacheConfig(Kernel(), mcFuncCachePreferShared), mcSuccess);
  EXPECT_EQ(mcFuncSetCacheConfig(NothingStub, mcFuncCachePreferEqual),
            mcSuccess);
  EXPECT_EQ(mcFuncSetCacheConfig(Kernel(), static_cast<mcFuncCache_t>(-1)),
            mcErrorInvalidValue);
  EXPECT_EQ(mcFuncSetSharedMemConfig(Kernel(), mcSharedMemBankSizeEightByte),
            mcSuccess);
  EXPECT_EQ(
      mcFuncSetSharedMemConfig(Kernel(), static_cast<mcSharedMemConfig>(7)),
      mcErrorInvalidValue);
}

TEST_F(Function, OccupancyThroughTheApi) {
  int blocks = -1;
  ASSERT_EQ(
      mcOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, Kernel(), 256, 0),
      mcSuccess);
  EXPECT_EQ(blocks, 8);
  ASSERT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, NothingStub,
                                                        64, 40000),
            mcSuccess);
  EXPECT_EQ(blocks, 1);
  ASSERT_EQ(
      mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
          &blocks, NothingStub, 2048, 0, mcOccupancyDisableCachingOverride),
      mcSuccess);
  EXPECT_EQ(blocks, 0);
  int grid = -1, block = -1;
  ASSERT_EQ(mcOccupancyMaxPotentialBlockSize(&grid, &block, NothingStub),
            mcSuccess);
  EXPECT_EQ(block, 1024);
  EXPECT_EQ(grid, 208);
  ASSERT_EQ(mcOccupancyMaxPotentialBlockSize(&grid, &block, Kernel(), 0, 100),
            mcSuccess);
  EXPECT_EQ(block, 64);
  ASSERT_EQ(mcOccupancyMaxPotentialBlockSizeVariableSMem(
                &grid, &block, NothingStub, [](int size) { return size * 64; }),
            mcSuccess);
  EXPECT_EQ(block, 1024);
  EXPECT_EQ(grid, 104);
  size_t bytes = 0;
  ASSERT_EQ(mcOccupancyAvailableDynamicSMemPerBlock(&bytes, NothingStub, 4, 64),
            mcSuccess);
  EXPECT_EQ(bytes, 16384u);
}

TEST_F(Function, OccupancyErrors) {
  int blocks = 5, grid = 5, block = 5;
  size_t bytes = 5;
  EXPECT_EQ(
      mcOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, Kernel(), 64, 0),
      mcErrorInvalidValue);
  EXPECT_EQ(
      mcOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, Kernel(), 0, 0),
      mcErrorInvalidValue);
  EXPECT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                &blocks, Kernel(), 64, 0, 2),
            mcErrorInvalidValue);
  EXPECT_EQ(mcOccupancyMaxPotentialBlockSize(nullptr, &block, Kernel(), 0, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(mcOccupancyMaxPotentialBlockSize(&grid, nullptr, Kernel(), 0, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(mcOccupancyMaxPotentialBlockSize(&grid, &block, Kernel(), 0, -1),
            mcErrorInvalidValue);
  EXPECT_EQ(mcOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
                &grid, &block, NothingStub, [](int) { return 0; }, 0, 4u),
            mcErrorInvalidValue);
  EXPECT_EQ(mcOccupancyAvailableDynamicSMemPerBlock(nullptr, Kernel(), 1, 64),
            mcErrorInvalidValue);
  EXPECT_EQ(mcOccupancyAvailableDynamicSMemPerBlock(&bytes, Kernel(), 0, 64),
            mcErrorInvalidValue);
  EXPECT_EQ(mcOccupancyAvailableDynamicSMemPerBlock(&bytes, Kernel(), 1, -64),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_EQ(blocks, 5);
  EXPECT_EQ(bytes, 5u);
  EXPECT_EQ(grid, 5);
  EXPECT_EQ(block, 5);
}

}  // namespace
