// Copyright mxcts authors.
//
// The reference's own choices for memory pools, which the spec leaves to
// the implementation (memory_pool.h): which freed memory is reused, when
// reserved memory is released, the page granularity. Through the public
// API, in the default (eager) timeline mode.

#include <gtest/gtest.h>

#include "mc_runtime_api.h"
#include "reference/runtime/memory/address_arena.h"

namespace {

using mxcts::runtime::AddressArena;

unsigned long long Attribute(mcMemPool_t pool, mcMemPoolAttr attr) {
  unsigned long long value = 0;
  EXPECT_EQ(mcMemPoolGetAttribute(pool, attr, &value), mcSuccess);
  return value;
}

class PoolChoices : public ::testing::Test {
 protected:
  void SetUp() override {
    mcMemPoolProps props{};
    props.allocType = mcMemAllocationTypePinned;
    props.location.type = mcMemLocationTypeDevice;
    props.location.id = 0;
    ASSERT_EQ(mcMemPoolCreate(&pool_, &props), mcSuccess);
    ASSERT_EQ(mcStreamCreate(&a_), mcSuccess);
    ASSERT_EQ(mcStreamCreate(&b_), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    mcStreamDestroy(a_);
    mcStreamDestroy(b_);
    mcMemPoolDestroy(pool_);
  }
  void SetReuse(mcMemPoolAttr attr, int value) {
    ASSERT_EQ(mcMemPoolSetAttribute(pool_, attr, &value), mcSuccess);
  }

  mcMemPool_t pool_ = nullptr;
  mcStream_t a_ = nullptr;
  mcStream_t b_ = nullptr;
};

TEST_F(PoolChoices, AllocationsTakeWholePages) {
  void* p = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&p, 100, pool_, a_), mcSuccess);
  EXPECT_EQ(Attribute(pool_, mcMemPoolAttrUsedMemCurrent),
            AddressArena::PageSize());
  EXPECT_EQ(Attribute(pool_, mcMemPoolAttrReservedMemCurrent),
            AddressArena::PageSize());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % AddressArena::PageSize(), 0u);
  ASSERT_EQ(mcFreeAsync(p, a_), mcSuccess);
  EXPECT_EQ(Attribute(pool_, mcMemPoolAttrUsedMemCurrent), 0u);
}

TEST_F(PoolChoices, SameStreamReusesTheLastFreedBlock) {
  void* first = nullptr;
  void* second = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&first, 4096, pool_, a_), mcSuccess);
  ASSERT_EQ(mcMallocFromPoolAsync(&second, 4096, pool_, a_), mcSuccess);
  ASSERT_EQ(mcFreeAsync(first, a_), mcSuccess);
  ASSERT_EQ(mcFreeAsync(second, a_), mcSuccess);
  void* again = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&again, 4000, pool_, a_), mcSuccess);
  EXPECT_EQ(again, second);
  ASSERT_EQ(mcFreeAsync(again, a_), mcSuccess);
}

TEST_F(PoolChoices, LargerRequestsTakeANewBlock) {
  void* small = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&small, 4096, pool_, a_), mcSuccess);
  ASSERT_EQ(mcFreeAsync(small, a_), mcSuccess);
  void* large = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&large, 3 * 4096, pool_, a_), mcSuccess);
  EXPECT_NE(large, small);
  ASSERT_EQ(mcFreeAsync(large, a_), mcSuccess);
}

TEST_F(PoolChoices, ReachedFreeIsReusedByAnotherStreamOpportunistically) {
  unsigned long long keep_all = ~0ull;  // the synchronization keeps it
  ASSERT_EQ(
      mcMemPoolSetAttribute(pool_, mcMemPoolAttrReleaseThreshold, &keep_all),
      mcSuccess);
  void* p = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&p, 4096, pool_, a_), mcSuccess);
  ASSERT_EQ(mcFreeAsync(p, a_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(a_), mcSuccess);
  SetReuse(mcMemPoolReuseAllowInternalDependencies, 0);
  void* q = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&q, 4096, pool_, b_), mcSuccess);
  EXPECT_EQ(q, p);
  ASSERT_EQ(mcFreeAsync(q, b_), mcSuccess);
}

TEST_F(PoolChoices, EventDependencyAloneAllowsReuse) {
  SetReuse(mcMemPoolReuseAllowOpportunistic, 0);
  SetReuse(mcMemPoolReuseAllowInternalDependencies, 0);
  mcEvent_t freed = nullptr;
  ASSERT_EQ(mcEventCreate(&freed), mcSuccess);
  void* p = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&p, 4096, pool_, a_), mcSuccess);
  ASSERT_EQ(mcFreeAsync(p, a_), mcSuccess);
  void* without_wait = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&without_wait, 4096, pool_, b_), mcSuccess);
  EXPECT_NE(without_wait, p);  // control: no ordering, no reuse
  ASSERT_EQ(mcEventRecord(freed, a_), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(b_, freed, 0), mcSuccess);
  void* after_wait = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&after_wait, 4096, pool_, b_), mcSuccess);
  EXPECT_EQ(after_wait, p);
  ASSERT_EQ(mcFreeAsync(without_wait, b_), mcSuccess);
  ASSERT_EQ(mcFreeAsync(after_wait, b_), mcSuccess);
  mcEventDestroy(freed);
}

TEST_F(PoolChoices, SynchronizationReleasesAboveTheThreshold) {
  unsigned long long threshold = 2 * 4096;
  ASSERT_EQ(
      mcMemPoolSetAttribute(pool_, mcMemPoolAttrReleaseThreshold, &threshold),
      mcSuccess);
  void* p[4] = {};
  for (void*& each : p) {
    ASSERT_EQ(mcMallocFromPoolAsync(&each, 4096, pool_, a_), mcSuccess);
  }
  for (void* each : p) ASSERT_EQ(mcFreeAsync(each, a_), mcSuccess);
  EXPECT_EQ(Attribute(pool_, mcMemPoolAttrReservedMemCurrent), 4u * 4096);
  ASSERT_EQ(mcStreamSynchronize(a_), mcSuccess);
  EXPECT_EQ(Attribute(pool_, mcMemPoolAttrReservedMemCurrent), 2u * 4096);
  EXPECT_EQ(Attribute(pool_, mcMemPoolAttrReservedMemHigh), 4u * 4096);
}

TEST_F(PoolChoices, TrimKeepsTheAskedBytes) {
  void* p[3] = {};
  for (void*& each : p) {
    ASSERT_EQ(mcMallocFromPoolAsync(&each, 4096, pool_, a_), mcSuccess);
  }
  unsigned long long keep_all = ~0ull;
  ASSERT_EQ(
      mcMemPoolSetAttribute(pool_, mcMemPoolAttrReleaseThreshold, &keep_all),
      mcSuccess);
  for (void* each : p) ASSERT_EQ(mcFreeAsync(each, a_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(a_), mcSuccess);
  EXPECT_EQ(Attribute(pool_, mcMemPoolAttrReservedMemCurrent), 3u * 4096);
  ASSERT_EQ(mcMemPoolTrimTo(pool_, 4096), mcSuccess);
  EXPECT_EQ(Attribute(pool_, mcMemPoolAttrReservedMemCurrent), 4096u);
  ASSERT_EQ(mcMemPoolTrimTo(pool_, 0), mcSuccess);
  EXPECT_EQ(Attribute(pool_, mcMemPoolAttrReservedMemCurrent), 0u);
}

}  // namespace
