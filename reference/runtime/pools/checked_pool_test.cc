// Copyright mxcts authors.
//
// Checked mode (MXCTS_MEMCHECK=1) and stream-ordered allocation, in the
// deferred timeline mode (see BUILD): the pages of an allocation are
// accessible only from the point its stream reaches the allocation to the
// point it reaches the free, so device work outside that lifetime faults
// instead of reading stale or reused memory; and while a grid runs, pool
// memory is reachable as its pool's access says.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>

#include "mc_runtime_api.h"
#include "reference/runtime/memory/memory_manager.h"

namespace {

using mxcts::runtime::MemoryManager;

// Whether one byte at `address` can be read, found without touching it.
bool Readable(const void* address) {
  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) return false;
  const bool readable = write(pipe_ends[1], address, 1) == 1;
  close(pipe_ends[0]);
  close(pipe_ends[1]);
  return readable;
}

// Whether one byte at `address` can be written, found the same way.
bool Writable(void* address) {
  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) return false;
  const char byte = 0;
  bool writable =
      write(pipe_ends[1], &byte, 1) == 1 && read(pipe_ends[0], address, 1) == 1;
  close(pipe_ends[0]);
  close(pipe_ends[1]);
  return writable;
}

class CheckedPool : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    ASSERT_EQ(mcStreamCreate(&stream_), mcSuccess);
    ASSERT_TRUE(MemoryManager::Get().checked_mode())
        << "this test runs with MXCTS_MEMCHECK=1";
  }
  void TearDown() override {
    mcDeviceSynchronize();
    mcStreamDestroy(stream_);
  }
  mcStream_t stream_ = nullptr;
};

TEST_F(CheckedPool, PagesAreAccessibleOnlyDuringTheStreamOrderedLifetime) {
  void* p = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, 4096, stream_), mcSuccess);
  // Deferred: the stream has not reached the allocation yet.
  EXPECT_FALSE(Readable(p));
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_TRUE(Readable(p));
  EXPECT_TRUE(Writable(p));
  ASSERT_EQ(mcFreeAsync(p, stream_), mcSuccess);
  // The free is not reached yet: work before it may still use the memory.
  EXPECT_TRUE(Readable(p));
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_FALSE(Readable(p));
}

TEST_F(CheckedPool, ReuseInTheSameStreamBecomesAccessibleAgainInOrder) {
  void* p = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, 4096, stream_), mcSuccess);
  ASSERT_EQ(mcFreeAsync(p, stream_), mcSuccess);
  void* q = nullptr;
  ASSERT_EQ(mcMallocAsync(&q, 4096, stream_), mcSuccess);
  EXPECT_EQ(q, p);  // the reference reuses it in the same stream
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_TRUE(Readable(q));  // allocation, free, allocation: live again
  ASSERT_EQ(mcFreeAsync(q, stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_FALSE(Readable(q));
}

TEST_F(CheckedPool, McFreeMakesThePagesInaccessibleAtOnce) {
  void* p = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, 4096, stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  ASSERT_TRUE(Readable(p));
  ASSERT_EQ(mcFree(p), mcSuccess);
  EXPECT_FALSE(Readable(p));
}

TEST_F(CheckedPool, GridsSeePoolMemoryAsThePoolAllows) {
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  if (count < 2) GTEST_SKIP() << "needs two devices";
  mcMemPool_t pool = nullptr;
  mcMemPoolProps props{};
  props.allocType = mcMemAllocationTypePinned;
  props.location.type = mcMemLocationTypeDevice;
  props.location.id = 0;
  ASSERT_EQ(mcMemPoolCreate(&pool, &props), mcSuccess);
  void* p = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&p, 4096, pool, stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  MemoryManager& memory = MemoryManager::Get();
  // What a grid of device 1 sees (peer_protection.h applies this).
  memory.SetPoolMemoryAccessible(1, false);
  EXPECT_FALSE(Readable(p));
  memory.SetPoolMemoryAccessible(1, true);
  EXPECT_TRUE(Writable(p));
  // Peer access does not open it [api.pool.access.independent-of-peer-access].
  mcSetDevice(1);
  ASSERT_EQ(mcDeviceEnablePeerAccess(0, 0), mcSuccess);
  memory.SetPoolMemoryAccessible(1, false);
  EXPECT_FALSE(Readable(p));
  memory.SetPoolMemoryAccessible(1, true);
  ASSERT_EQ(mcDeviceDisablePeerAccess(0), mcSuccess);
  mcSetDevice(0);
  // Read access: readable, not writable, while device 1's grid runs.
  mcMemAccessDesc read{{mcMemLocationTypeDevice, 1}, mcMemAccessFlagsProtRead};
  ASSERT_EQ(mcMemPoolSetAccess(pool, &read, 1), mcSuccess);
  memory.SetPoolMemoryAccessible(1, false);
  EXPECT_TRUE(Readable(p));
  EXPECT_FALSE(Writable(p));
  memory.SetPoolMemoryAccessible(1, true);
  // Read and write: untouched.
  mcMemAccessDesc all{{mcMemLocationTypeDevice, 1},
                      mcMemAccessFlagsProtReadWrite};
  ASSERT_EQ(mcMemPoolSetAccess(pool, &all, 1), mcSuccess);
  memory.SetPoolMemoryAccessible(1, false);
  EXPECT_TRUE(Writable(p));
  memory.SetPoolMemoryAccessible(1, true);
  // A grid of the pool's own device never loses it.
  memory.SetPoolMemoryAccessible(0, false);
  EXPECT_TRUE(Writable(p));
  memory.SetPoolMemoryAccessible(0, true);
  ASSERT_EQ(mcFreeAsync(p, stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  ASSERT_EQ(mcMemPoolDestroy(pool), mcSuccess);
}

}  // namespace
