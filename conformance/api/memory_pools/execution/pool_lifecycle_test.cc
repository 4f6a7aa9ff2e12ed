// Copyright mxcts authors.
//
// Conformance: default, current and explicit pools, their destruction, and
// their attributes: usage counters, high watermarks, the release threshold
// and trimming (docs/spec/api-memory-pools.md). Holds in every timeline
// mode.

#include <mc_runtime.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/testing/pool_testing.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

__global__ void Store(int* p, int n, int value) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) p[i] = value + i;
}

__global__ void Check(const int* p, int n, int value, int* mismatches) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    if (p[i] != value + i) atomicAdd(mismatches, 1);
  }
}

// The parameter's device is current; a stream on it; an explicit pool on
// it, destroyed at the end unless the test did.
class PoolOnDevice : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("memory_pools");
    device_.emplace(GetParam());
    ASSERT_TRUE(device_->ok());
    ASSERT_EQ(mcStreamCreate(&stream_), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&mismatches_, sizeof(int)), mcSuccess);
    *mismatches_ = 0;
    mcMemPoolProps props{};
    props.allocType = mcMemAllocationTypePinned;
    props.location.type = mcMemLocationTypeDevice;
    props.location.id = GetParam();
    ASSERT_EQ(mcMemPoolCreate(&pool_, &props), mcSuccess);
    ASSERT_EQ(mcDeviceGetDefaultMemPool(&default_pool_, GetParam()), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    mcDeviceSetMemPool(GetParam(), default_pool_);
    if (pool_ != nullptr) mcMemPoolDestroy(pool_);
    if (mismatches_ != nullptr) mcFree(mismatches_);
    if (stream_ != nullptr) mcStreamDestroy(stream_);
    device_.reset();
  }
  int device() const { return GetParam(); }

  // Writes a pattern into `p` and checks it on the device, in the stream;
  // returns the mismatches after synchronizing.
  int RoundTrip(int* p, int n, int value) {
    Store<<<1, 64, 0, stream_>>>(p, n, value);
    Check<<<1, 64, 0, stream_>>>(p, n, value, mismatches_);
    EXPECT_EQ(mcStreamSynchronize(stream_), mcSuccess);
    return *mismatches_;
  }

  std::optional<ScopedDevice> device_;
  mcStream_t stream_ = nullptr;
  int* mismatches_ = nullptr;
  mcMemPool_t pool_ = nullptr;
  mcMemPool_t default_pool_ = nullptr;
};

std::string DeviceName(const testing::TestParamInfo<int>& info) {
  return "Device" + std::to_string(info.param);
}

TEST_P(PoolOnDevice, DefaultPoolIsOneHandle) {
  MX_SPEC("api.pool.default.get-default-pool");
  mcMemPool_t again = nullptr;
  ASSERT_EQ(mcDeviceGetDefaultMemPool(&again, device()), mcSuccess);
  EXPECT_EQ(again, default_pool_);
  ASSERT_EQ(mcDeviceGetDefaultMempool(&again, device()), mcSuccess);
  EXPECT_EQ(again, default_pool_);
  EXPECT_NE(default_pool_, pool_);  // control: a created pool differs
  if (DeviceCount() > 1) {
    mcMemPool_t other = nullptr;
    ASSERT_EQ(mcDeviceGetDefaultMemPool(&other, (device() + 1) % DeviceCount()),
              mcSuccess);
    EXPECT_NE(other, default_pool_);
  }
}

TEST_P(PoolOnDevice, DefaultPoolIsTheInitialCurrentPool) {
  MX_SPEC("api.pool.default.is-initial-current-pool");
  mcMemPool_t current = nullptr;
  ASSERT_EQ(mcDeviceGetMemPool(&current, device()), mcSuccess);
  EXPECT_EQ(current, default_pool_);
  ASSERT_EQ(mcDeviceGetMempool(&current, device()), mcSuccess);
  EXPECT_EQ(current, default_pool_);
  const unsigned long long before =
      U64Attribute(default_pool_, mcMemPoolAttrUsedMemCurrent);
  void* p = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, 10000, stream_), mcSuccess);
  EXPECT_GE(U64Attribute(default_pool_, mcMemPoolAttrUsedMemCurrent),
            before + 10000);
  EXPECT_EQ(U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent), 0u);  // control
  ASSERT_EQ(mcFreeAsync(p, stream_), mcSuccess);
}

TEST_P(PoolOnDevice, SetCurrentPoolServesMallocAsync) {
  MX_SPEC("api.pool.current.set-then-get", "api.pool.create.explicit-pool");
  ASSERT_EQ(mcDeviceSetMemPool(device(), pool_), mcSuccess);
  mcMemPool_t current = nullptr;
  ASSERT_EQ(mcDeviceGetMemPool(&current, device()), mcSuccess);
  EXPECT_EQ(current, pool_);
  int* p = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, 4096 * sizeof(int), stream_), mcSuccess);
  EXPECT_GE(U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent),
            4096 * sizeof(int));
  EXPECT_EQ(RoundTrip(p, 4096, 11), 0);
  ASSERT_EQ(mcFreeAsync(p, stream_), mcSuccess);
  // The other spelling sets it back.
  ASSERT_EQ(mcDeviceSetMempool(device(), default_pool_), mcSuccess);
  ASSERT_EQ(mcDeviceGetMemPool(&current, device()), mcSuccess);
  EXPECT_EQ(current, default_pool_);
}

TEST_P(PoolOnDevice, ExplicitPoolAllocationsResideOnItsDevice) {
  MX_SPEC("api.pool.create.explicit-pool",
          "api.pool.malloc-from-pool.uses-given-pool");
  int* p = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&p, 1000 * sizeof(int), pool_, stream_),
            mcSuccess);
  mcPointerAttribute_t attributes{};
  ASSERT_EQ(mcPointerGetAttributes(&attributes, p), mcSuccess);
  EXPECT_EQ(attributes.type, mcMemoryTypeDevice);
  EXPECT_EQ(attributes.device, device());
  EXPECT_EQ(RoundTrip(p, 1000, 5), 0);
  ASSERT_EQ(mcFreeAsync(p, stream_), mcSuccess);
}

TEST_P(PoolOnDevice, DestroyingTheCurrentPoolRevertsToTheDefault) {
  MX_SPEC("api.pool.destroy.current-reverts-to-default");
  ASSERT_EQ(mcDeviceSetMemPool(device(), pool_), mcSuccess);
  ASSERT_EQ(mcMemPoolDestroy(pool_), mcSuccess);
  pool_ = nullptr;
  mcMemPool_t current = nullptr;
  ASSERT_EQ(mcDeviceGetMemPool(&current, device()), mcSuccess);
  EXPECT_EQ(current, default_pool_);
  void* p = nullptr;
  EXPECT_EQ(mcMallocAsync(&p, 256, stream_), mcSuccess);
  EXPECT_EQ(mcFreeAsync(p, stream_), mcSuccess);
}

TEST_P(PoolOnDevice, DestroyWithLiveAllocationsKeepsThemValid) {
  MX_SPEC("api.pool.destroy.deferred-release");
  int* p = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&p, 2048 * sizeof(int), pool_, stream_),
            mcSuccess);
  Store<<<1, 64, 0, stream_>>>(p, 2048, 40);
  // Returns at once, with the allocation live and its store maybe pending.
  ASSERT_EQ(mcMemPoolDestroy(pool_), mcSuccess);
  pool_ = nullptr;
  Check<<<1, 64, 0, stream_>>>(p, 2048, 40, mismatches_);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(*mismatches_, 0);
  EXPECT_EQ(RoundTrip(p, 2048, 41), 0);
  EXPECT_EQ(mcFreeAsync(p, stream_), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(stream_), mcSuccess);
}

// An exportable pool's memory too (which the pool may keep while live,
// [api.pool.ipc.trim-may-be-no-op]) goes back to the device once the pool
// is destroyed and the free of its last allocation is reached. The control:
// while the allocation is live the device's free memory is down by its
// size, so the measure can see the pool's memory. (Found by the API
// fuzzer, reference/runtime/fuzz.)
TEST(ExportablePoolDestroy, ReleasedWhenNoAllocationRemains) {
  MX_SPEC("api.pool.destroy.deferred-release");
  MX_REQUIRE_CAPABILITY("memory_pools");
  MX_REQUIRE_CAPABILITY("ipc");
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  size_t before = 0, during = 0, after = 0, total = 0;
  ASSERT_EQ(mcMemGetInfo(&before, &total), mcSuccess);
  mcMemPoolProps props = PoolProps(0, mcMemHandleTypePosixFileDescriptor);
  mcMemPool_t pool = nullptr;
  ASSERT_EQ(mcMemPoolCreate(&pool, &props), mcSuccess);
  constexpr size_t kBytes = size_t{1} << 20;
  void* p = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&p, kBytes, pool, nullptr), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_EQ(mcMemGetInfo(&during, &total), mcSuccess);
  EXPECT_LE(during + kBytes, before);  // Control.
  ASSERT_EQ(mcMemPoolDestroy(pool), mcSuccess);
  ASSERT_EQ(mcFreeAsync(p, nullptr), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_EQ(mcMemGetInfo(&after, &total), mcSuccess);
  EXPECT_GE(after, before);
}

TEST_P(PoolOnDevice, ReleaseThresholdDefaultsToZero) {
  MX_SPEC("api.pool.release-threshold.default-zero");
  EXPECT_EQ(U64Attribute(pool_, mcMemPoolAttrReleaseThreshold), 0u);
  EXPECT_EQ(U64Attribute(default_pool_, mcMemPoolAttrReleaseThreshold), 0u);
}

TEST_P(PoolOnDevice, ReuseAttributesDefaultToEnabled) {
  MX_SPEC("api.pool.attribute.reuse-defaults-enabled");
  for (mcMemPool_t pool : {pool_, default_pool_}) {
    EXPECT_EQ(IntAttribute(pool, mcMemPoolReuseFollowEventDependencies), 1);
    EXPECT_EQ(IntAttribute(pool, mcMemPoolReuseAllowOpportunistic), 1);
    EXPECT_EQ(IntAttribute(pool, mcMemPoolReuseAllowInternalDependencies), 1);
  }
}

class ReuseAttribute
    : public testing::TestWithParam<std::tuple<int, mcMemPoolAttr, int>> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("memory_pools"); }
};

TEST_P(ReuseAttribute, SetThenGet) {
  MX_SPEC("api.pool.attribute.set-then-get");
  const auto [device, attr, value] = GetParam();
  mcMemPoolProps props{};
  props.allocType = mcMemAllocationTypePinned;
  props.location.type = mcMemLocationTypeDevice;
  props.location.id = device;
  mcMemPool_t pool = nullptr;
  ASSERT_EQ(mcMemPoolCreate(&pool, &props), mcSuccess);
  int set = value;
  ASSERT_EQ(mcMemPoolSetAttribute(pool, attr, &set), mcSuccess);
  EXPECT_EQ(IntAttribute(pool, attr), value);
  // Control: the other reuse attributes kept their default.
  for (mcMemPoolAttr other :
       {mcMemPoolReuseFollowEventDependencies, mcMemPoolReuseAllowOpportunistic,
        mcMemPoolReuseAllowInternalDependencies}) {
    if (other != attr) {
      EXPECT_EQ(IntAttribute(pool, other), 1);
    }
  }
  ASSERT_EQ(mcMemPoolDestroy(pool), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    EveryPolicy, ReuseAttribute,
    testing::Combine(testing::ValuesIn(AllDevices()),
                     testing::Values(mcMemPoolReuseFollowEventDependencies,
                                     mcMemPoolReuseAllowOpportunistic,
                                     mcMemPoolReuseAllowInternalDependencies),
                     testing::Values(0, 1)));

class ReleaseThreshold
    : public testing::TestWithParam<std::tuple<int, unsigned long long>> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("memory_pools"); }
};

TEST_P(ReleaseThreshold, SetThenGet) {
  MX_SPEC("api.pool.attribute.set-then-get");
  const auto [device, value] = GetParam();
  mcMemPool_t pool = nullptr;
  ASSERT_EQ(mcDeviceGetDefaultMemPool(&pool, device), mcSuccess);
  unsigned long long set = value;
  ASSERT_EQ(mcMemPoolSetAttribute(pool, mcMemPoolAttrReleaseThreshold, &set),
            mcSuccess);
  EXPECT_EQ(U64Attribute(pool, mcMemPoolAttrReleaseThreshold), value);
  unsigned long long zero = 0;
  ASSERT_EQ(mcMemPoolSetAttribute(pool, mcMemPoolAttrReleaseThreshold, &zero),
            mcSuccess);
  EXPECT_EQ(U64Attribute(pool, mcMemPoolAttrReleaseThreshold), 0u);
}

INSTANTIATE_TEST_SUITE_P(Values, ReleaseThreshold,
                         testing::Combine(testing::ValuesIn(AllDevices()),
                                          testing::Values(1ull, 4096ull,
                                                          1ull << 32, ~0ull)));

TEST_P(PoolOnDevice, UsageCountersFollowAllocations) {
  MX_SPEC("api.pool.attribute.usage-counters");
  EXPECT_EQ(U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent), 0u);
  std::vector<void*> live;
  unsigned long long requested = 0;
  for (size_t size : {size_t{1}, size_t{100}, size_t{4096}, size_t{70000}}) {
    void* p = nullptr;
    ASSERT_EQ(mcMallocFromPoolAsync(&p, size, pool_, stream_), mcSuccess);
    live.push_back(p);
    requested += size;
    const unsigned long long used =
        U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent);
    EXPECT_GE(used, requested);
    EXPECT_LE(used, U64Attribute(pool_, mcMemPoolAttrReservedMemCurrent));
  }
  const unsigned long long used_all =
      U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent);
  for (void* p : live) ASSERT_EQ(mcFreeAsync(p, stream_), mcSuccess);
  EXPECT_LT(U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent), used_all);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent), 0u);
}

TEST_P(PoolOnDevice, HighWatermarksAndTheirReset) {
  MX_SPEC("api.pool.attribute.high-watermarks");
  unsigned long long keep = ~0ull;
  ASSERT_EQ(mcMemPoolSetAttribute(pool_, mcMemPoolAttrReleaseThreshold, &keep),
            mcSuccess);
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&a, 1 << 16, pool_, stream_), mcSuccess);
  ASSERT_EQ(mcMallocFromPoolAsync(&b, 1 << 16, pool_, stream_), mcSuccess);
  const unsigned long long peak_used =
      U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent);
  ASSERT_EQ(mcFreeAsync(b, stream_), mcSuccess);
  EXPECT_EQ(U64Attribute(pool_, mcMemPoolAttrUsedMemHigh), peak_used);
  EXPECT_GE(U64Attribute(pool_, mcMemPoolAttrReservedMemHigh), peak_used);
  EXPECT_LT(U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent), peak_used);
  // Reset: the watermark becomes the current value, and the other
  // watermark keeps its own.
  unsigned long long zero = 0;
  ASSERT_EQ(mcMemPoolSetAttribute(pool_, mcMemPoolAttrReservedMemHigh, &zero),
            mcSuccess);
  EXPECT_EQ(U64Attribute(pool_, mcMemPoolAttrReservedMemHigh),
            U64Attribute(pool_, mcMemPoolAttrReservedMemCurrent));
  EXPECT_EQ(U64Attribute(pool_, mcMemPoolAttrUsedMemHigh), peak_used);
  const unsigned long long reserved_high =
      U64Attribute(pool_, mcMemPoolAttrReservedMemHigh);
  ASSERT_EQ(mcMemPoolSetAttribute(pool_, mcMemPoolAttrUsedMemHigh, &zero),
            mcSuccess);
  EXPECT_EQ(U64Attribute(pool_, mcMemPoolAttrUsedMemHigh),
            U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent));
  EXPECT_EQ(U64Attribute(pool_, mcMemPoolAttrReservedMemHigh), reserved_high);
  ASSERT_EQ(mcFreeAsync(a, stream_), mcSuccess);
}

TEST_P(PoolOnDevice, MaximumThresholdKeepsMemoryAcrossSynchronization) {
  MX_SPEC("api.pool.release-threshold.max-keeps-memory",
          "api.pool.release-threshold.released-at-synchronization");
  unsigned long long keep = ~0ull;
  ASSERT_EQ(mcMemPoolSetAttribute(pool_, mcMemPoolAttrReleaseThreshold, &keep),
            mcSuccess);
  std::vector<void*> blocks(6);
  for (void*& p : blocks) {
    ASSERT_EQ(mcMallocFromPoolAsync(&p, 1 << 16, pool_, stream_), mcSuccess);
  }
  for (void* p : blocks) ASSERT_EQ(mcFreeAsync(p, stream_), mcSuccess);
  const unsigned long long reserved =
      U64Attribute(pool_, mcMemPoolAttrReservedMemCurrent);
  EXPECT_GE(reserved, 6u << 16);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(U64Attribute(pool_, mcMemPoolAttrReservedMemCurrent), reserved);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(U64Attribute(pool_, mcMemPoolAttrReservedMemCurrent), reserved);
}

TEST_P(PoolOnDevice, SynchronizationNeverReleasesLiveMemory) {
  MX_SPEC("api.pool.release-threshold.released-at-synchronization");
  int* live = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&live, 1 << 16, pool_, stream_), mcSuccess);
  void* freed = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&freed, 1 << 16, pool_, stream_), mcSuccess);
  ASSERT_EQ(mcFreeAsync(freed, stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);  // threshold 0
  EXPECT_GE(U64Attribute(pool_, mcMemPoolAttrReservedMemCurrent),
            U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent));
  EXPECT_GE(U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent), 1u << 16);
  EXPECT_EQ(RoundTrip(live, (1 << 16) / sizeof(int), 3), 0);
  ASSERT_EQ(mcFreeAsync(live, stream_), mcSuccess);
}

TEST_P(PoolOnDevice, TrimKeepsLiveAllocationsAndTheirContents) {
  MX_SPEC("api.pool.trim.keeps-live-allocations");
  unsigned long long keep = ~0ull;
  ASSERT_EQ(mcMemPoolSetAttribute(pool_, mcMemPoolAttrReleaseThreshold, &keep),
            mcSuccess);
  int* live = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&live, 8192 * sizeof(int), pool_, stream_),
            mcSuccess);
  Store<<<1, 64, 0, stream_>>>(live, 8192, 77);
  std::vector<void*> freed(4);
  for (void*& p : freed) {
    ASSERT_EQ(mcMallocFromPoolAsync(&p, 1 << 16, pool_, stream_), mcSuccess);
  }
  for (void* p : freed) ASSERT_EQ(mcFreeAsync(p, stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  const unsigned long long used =
      U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent);
  const unsigned long long reserved_before =
      U64Attribute(pool_, mcMemPoolAttrReservedMemCurrent);
  ASSERT_EQ(mcMemPoolTrimTo(pool_, 0), mcSuccess);
  EXPECT_EQ(U64Attribute(pool_, mcMemPoolAttrUsedMemCurrent), used);
  EXPECT_GE(U64Attribute(pool_, mcMemPoolAttrReservedMemCurrent), used);
  EXPECT_LE(U64Attribute(pool_, mcMemPoolAttrReservedMemCurrent),
            reserved_before);
  Check<<<1, 64, 0, stream_>>>(live, 8192, 77, mismatches_);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(*mismatches_, 0);
  ASSERT_EQ(mcFreeAsync(live, stream_), mcSuccess);
}

TEST_P(PoolOnDevice, TrimAfterEverythingIsFreedReducesReserved) {
  MX_SPEC("api.pool.trim.reduces-reserved");
  unsigned long long keep = ~0ull;
  ASSERT_EQ(mcMemPoolSetAttribute(pool_, mcMemPoolAttrReleaseThreshold, &keep),
            mcSuccess);
  std::vector<void*> blocks(5);
  for (void*& p : blocks) {
    ASSERT_EQ(mcMallocFromPoolAsync(&p, 1 << 20, pool_, stream_), mcSuccess);
  }
  for (void* p : blocks) ASSERT_EQ(mcFreeAsync(p, stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  const unsigned long long before =
      U64Attribute(pool_, mcMemPoolAttrReservedMemCurrent);
  EXPECT_GE(before, 5u << 20);  // control: the memory was kept
  ASSERT_EQ(mcMemPoolTrimTo(pool_, 0), mcSuccess);
  const unsigned long long after =
      U64Attribute(pool_, mcMemPoolAttrReservedMemCurrent);
  // Something was released: five blocks of 1 MiB, none live, are more
  // than any release granularity keeps.
  EXPECT_LT(after, before);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, PoolOnDevice,
                         testing::ValuesIn(AllDevices()), DeviceName);

}  // namespace
}  // namespace mxcts::conformance
