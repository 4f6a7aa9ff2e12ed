// Copyright mxcts authors.
//
// Tests of the device heap: alignment, distinct blocks, exhaustion, reuse
// after free, misuse of free, and device malloc from kernels across grids.

#include "reference/device/services/device_heap.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mcr/detail/device_abi.h"
#include "reference/device/engine.h"
#include "reference/device/engine_test_util.h"

namespace mxcts::device {
namespace {

using device_internal::DeviceHeap;
using ::testing::HasSubstr;

TEST(DeviceHeap, BlocksAreAlignedDistinctAndUsable) {
  // [lang.malloc.alloc.aligned-to-16] [lang.malloc.alloc.distinct-blocks]
  DeviceHeap heap(4096);
  std::vector<char*> blocks;
  for (size_t size : {1, 15, 16, 17, 100}) {
    char* block = static_cast<char*>(heap.Allocate(size));
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % 16, 0u);
    std::memset(block, 0x5A, size);
    for (char* other : blocks) EXPECT_NE(block, other);
    blocks.push_back(block);
  }
  EXPECT_EQ(heap.live_blocks(), 5u);
  EXPECT_EQ(heap.live_bytes(), 16u + 16 + 16 + 32 + 112);
  EXPECT_TRUE(heap.Contains(blocks[0]));
}

TEST(DeviceHeap, ZeroBytesGiveAUniqueBlock) {
  // [lang.malloc.alloc.zero-size]
  DeviceHeap heap(4096);
  void* a = heap.Allocate(0);
  void* b = heap.Allocate(0);
  ASSERT_NE(a, nullptr);
  EXPECT_NE(a, b);
  EXPECT_TRUE(heap.Free(a).ok());
}

TEST(DeviceHeap, FreeOfNullIsANoOpThatCountsAsUse) {
  // [lang.malloc.free.null-is-no-op]
  // [lang.malloc.heap.resize-after-use-is-invalid-value]
  DeviceHeap heap(4096);
  EXPECT_FALSE(heap.used());
  EXPECT_TRUE(heap.Free(nullptr).ok());
  EXPECT_TRUE(heap.used());
  EXPECT_EQ(heap.live_blocks(), 0u);
}

TEST(DeviceHeap, ExhaustionReturnsNull) {
  // [lang.malloc.alloc.null-when-exhausted] [lang.malloc.heap.sized-by-limit]
  DeviceHeap heap(256);
  EXPECT_EQ(heap.Allocate(257), nullptr);
  void* all = heap.Allocate(256);
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(heap.Allocate(1), nullptr);
  EXPECT_EQ(heap.live_bytes(), 256u);
}

TEST(DeviceHeap, FreedBlocksAreReusedAndMerged) {
  // [lang.malloc.free.returns-memory-to-heap] Control of the test above.
  DeviceHeap heap(256);
  void* a = heap.Allocate(64);
  void* b = heap.Allocate(64);
  void* c = heap.Allocate(128);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(heap.Allocate(16), nullptr);
  EXPECT_TRUE(heap.Free(b).ok());
  EXPECT_TRUE(heap.Free(a).ok());
  // a and b merged: 128 contiguous bytes again.
  EXPECT_EQ(heap.Allocate(128), a);
  EXPECT_TRUE(heap.Free(nullptr).ok());  // [lang.malloc.free.null-is-no-op]
}

TEST(DeviceHeap, FreeOfANonBlockIsAnErrorAndChangesNothing) {
  // [lang.malloc.free.double-free-undefined]
  DeviceHeap heap(256);
  char* a = static_cast<char*>(heap.Allocate(32));
  ASSERT_TRUE(heap.Free(a).ok());
  EXPECT_EQ(heap.Free(a).code(), absl::StatusCode::kInvalidArgument);
  char* b = static_cast<char*>(heap.Allocate(32));
  EXPECT_EQ(heap.Free(b + 16).code(), absl::StatusCode::kInvalidArgument);
  int local;
  EXPECT_EQ(heap.Free(&local).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(heap.live_blocks(), 1u);
}

TEST(DeviceHeap, CapacityChangesOnlyWithoutLiveBlocks) {
  DeviceHeap heap(256);
  void* a = heap.Allocate(16);
  EXPECT_FALSE(heap.SetCapacity(1024));
  EXPECT_EQ(heap.capacity(), 256u);
  ASSERT_TRUE(heap.Free(a).ok());
  EXPECT_TRUE(heap.SetCapacity(1024));
  EXPECT_NE(heap.Allocate(1000), nullptr);
}

TEST(DeviceHeap, ClearFreesEverything) {
  // [lang.malloc.lifetime.released-by-device-reset]
  DeviceHeap heap(256);
  ASSERT_NE(heap.Allocate(256), nullptr);
  heap.Clear();
  EXPECT_EQ(heap.live_blocks(), 0u);
  EXPECT_NE(heap.Allocate(256), nullptr);
}

// Kernels.

// Every thread allocates a block and stores its address.
void AllocatePerThread(void** args) {
  void** blocks = Arg<void**>(args, 0);
  blocks[threadIdx.x] = ImageRuntimeTable()->malloc(24);
  if (blocks[threadIdx.x] != nullptr) {
    std::memset(blocks[threadIdx.x], static_cast<int>(threadIdx.x), 24);
  }
}

// Every thread frees the block of its neighbour.
void FreeNeighbours(void** args) {
  void** blocks = Arg<void**>(args, 0);
  ImageRuntimeTable()->free(blocks[(threadIdx.x + 1) % blockDim.x]);
}

TEST(DeviceMalloc, BlocksOutliveTheirGridAndAnyThreadFreesThem) {
  // [lang.malloc.lifetime.persists-across-launches]
  // [lang.malloc.free.by-any-thread]
  std::vector<void*> blocks(32);
  void** data = blocks.data();
  ASSERT_EQ(RunCapturingStderr("AllocatePerThread", &AllocatePerThread, {&data},
                               dim3(1), dim3(32))
                .error,
            mcSuccess);
  for (unsigned t = 0; t < 32; ++t) {
    ASSERT_NE(blocks[t], nullptr);
    EXPECT_TRUE(IsDeviceHeapAddress(blocks[t]));
    EXPECT_EQ(static_cast<unsigned char*>(blocks[t])[23], t);
  }
  EXPECT_TRUE(DeviceHeapWasUsed());
  EXPECT_FALSE(SetDeviceHeapBytes(1 << 20));  // Blocks are live.
  RunResult freed = RunCapturingStderr("FreeNeighbours", &FreeNeighbours,
                                       {&data}, dim3(1), dim3(32));
  EXPECT_EQ(freed.error, mcSuccess) << freed.stderr_text;
  EXPECT_TRUE(SetDeviceHeapBytes(kDefaultDeviceHeapBytes));
}

TEST(DeviceMalloc, DoubleFreeTraps) {
  // Control of the test above: the same blocks freed twice.
  std::vector<void*> blocks(4);
  void** data = blocks.data();
  ASSERT_EQ(RunCapturingStderr("AllocatePerThread", &AllocatePerThread, {&data},
                               dim3(1), dim3(4))
                .error,
            mcSuccess);
  ASSERT_EQ(RunCapturingStderr("FreeNeighbours", &FreeNeighbours, {&data},
                               dim3(1), dim3(4))
                .error,
            mcSuccess);
  RunResult twice = RunCapturingStderr("FreeNeighbours", &FreeNeighbours,
                                       {&data}, dim3(1), dim3(4));
  EXPECT_EQ(twice.error, mcErrorLaunchFailure);
  EXPECT_THAT(twice.stderr_text,
              HasSubstr("mxmaca trap: kernel 'FreeNeighbours' block (0,0,0) "
                        "thread (0,0,0): free("));
  EXPECT_THAT(twice.stderr_text,
              HasSubstr("not a block of the device heap, or freed already"));
}

TEST(DeviceMalloc, ResetForgetsUseAndBlocks) {
  std::vector<void*> blocks(2);
  void** data = blocks.data();
  ASSERT_EQ(RunCapturingStderr("AllocatePerThread", &AllocatePerThread, {&data},
                               dim3(1), dim3(2))
                .error,
            mcSuccess);
  ResetDeviceState();
  EXPECT_FALSE(DeviceHeapWasUsed());
  EXPECT_FALSE(IsDeviceHeapAddress(blocks[0]));
  EXPECT_TRUE(SetDeviceHeapBytes(kDefaultDeviceHeapBytes));
}

}  // namespace
}  // namespace mxcts::device
