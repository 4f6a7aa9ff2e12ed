// Copyright mxcts authors.
//
// The reference's own choices for shared pools (pool_sharing.h): the
// exported descriptor names the pool's memory file, an exportable pool
// never releases memory, and a pool may be imported in its own process,
// which maps the same memory at another address.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include "mc_runtime_api.h"

namespace {

unsigned long long Reserved(mcMemPool_t pool) {
  unsigned long long value = 0;
  EXPECT_EQ(
      mcMemPoolGetAttribute(pool, mcMemPoolAttrReservedMemCurrent, &value),
      mcSuccess);
  return value;
}

class ExportablePool : public testing::Test {
 protected:
  void SetUp() override {
    mcMemPoolProps props{};
    props.allocType = mcMemAllocationTypePinned;
    props.handleTypes = mcMemHandleTypePosixFileDescriptor;
    props.location.type = mcMemLocationTypeDevice;
    props.location.id = 0;
    ASSERT_EQ(mcMemPoolCreate(&pool_, &props), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (pool_ != nullptr) mcMemPoolDestroy(pool_);
  }
  mcMemPool_t pool_ = nullptr;
};

TEST_F(ExportablePool, NeverReleasesMemory) {
  void* p = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&p, 8192, pool_, nullptr), mcSuccess);
  ASSERT_EQ(mcFreeAsync(p, nullptr), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);  // threshold 0
  EXPECT_EQ(Reserved(pool_), 8192u);
  ASSERT_EQ(mcMemPoolTrimTo(pool_, 0), mcSuccess);
  EXPECT_EQ(Reserved(pool_), 8192u);
}

// Destroyed, with its allocations freed, it gives its memory back to the
// device [api.pool.destroy.deferred-release]; while live it does not (the
// control, as NeverReleasesMemory).
TEST_F(ExportablePool, DestroyedReleasesMemory) {
  size_t before = 0, total = 0, held = 0, after = 0;
  ASSERT_EQ(mcMemGetInfo(&before, &total), mcSuccess);
  void* p = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&p, 8192, pool_, nullptr), mcSuccess);
  ASSERT_EQ(mcFreeAsync(p, nullptr), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_EQ(mcMemGetInfo(&held, &total), mcSuccess);
  EXPECT_EQ(held, before - 8192);
  ASSERT_EQ(mcMemPoolDestroy(pool_), mcSuccess);
  pool_ = nullptr;
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_EQ(mcMemGetInfo(&after, &total), mcSuccess);
  EXPECT_EQ(after, before);
}

TEST_F(ExportablePool, ImportInTheSameProcessMapsTheSameMemoryElsewhere) {
  int* p = nullptr;
  ASSERT_EQ(
      mcMallocFromPoolAsync(reinterpret_cast<void**>(&p), 4096, pool_, nullptr),
      mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  p[0] = 41;
  int fd = -1;
  ASSERT_EQ(mcMemPoolExportToShareableHandle(
                &fd, pool_, mcMemHandleTypePosixFileDescriptor, 0),
            mcSuccess);
  mcMemPool_t imported = nullptr;
  ASSERT_EQ(mcMemPoolImportFromShareableHandle(
                &imported, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                mcMemHandleTypePosixFileDescriptor, 0),
            mcSuccess);
  close(fd);  // the imported pool keeps its own descriptor
  mcMemPoolPtrExportData data{};
  ASSERT_EQ(mcMemPoolExportPointer(&data, p), mcSuccess);
  int* q = nullptr;
  ASSERT_EQ(
      mcMemPoolImportPointer(reinterpret_cast<void**>(&q), imported, &data),
      mcSuccess);
  EXPECT_NE(q, p);
  EXPECT_EQ(q[0], 41);
  q[1] = 42;
  EXPECT_EQ(p[1], 42);
  // Freeing the imported view unmaps it; the original stays.
  ASSERT_EQ(mcFree(q), mcSuccess);
  EXPECT_EQ(p[0], 41);
  ASSERT_EQ(mcFreeAsync(p, nullptr), mcSuccess);
}

}  // namespace
