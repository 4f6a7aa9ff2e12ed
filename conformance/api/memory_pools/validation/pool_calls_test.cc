// Copyright mxcts authors.
//
// Conformance: the errors of the memory pool calls (docs/spec/
// api-memory-pools.md): default and current pools, creation, destruction,
// trimming, attributes and access. Each failing call is shown to leave
// the pool as it was, beside a control call that succeeds.

#include <mc_runtime.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/testing/pool_testing.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// An explicit pool on the parameter's device, and the device's default
// pool.
class PoolErrors : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("memory_pools");
    mcMemPoolProps props = PoolProps(GetParam());
    ASSERT_EQ(mcMemPoolCreate(&pool_, &props), mcSuccess);
    ASSERT_EQ(mcDeviceGetDefaultMemPool(&default_pool_, GetParam()), mcSuccess);
    mcMemPoolProps dead_props = PoolProps(GetParam());
    ASSERT_EQ(mcMemPoolCreate(&dead_pool_, &dead_props), mcSuccess);
    ASSERT_EQ(mcMemPoolDestroy(dead_pool_), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (pool_ != nullptr) mcMemPoolDestroy(pool_);
  }
  int device() const { return GetParam(); }

  mcMemPool_t pool_ = nullptr;
  mcMemPool_t default_pool_ = nullptr;
  mcMemPool_t dead_pool_ = nullptr;
};

std::string DeviceName(const testing::TestParamInfo<int>& info) {
  return "Device" + std::to_string(info.param);
}

// Default and current pools.

TEST_P(PoolErrors, GetDefaultPoolNullOutputIsInvalidValue) {
  MX_SPEC("api.pool.device-pool.null-output-is-invalid-value");
  EXPECT_EQ(mcDeviceGetDefaultMemPool(nullptr, device()), mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceGetDefaultMempool(nullptr, device()), mcErrorInvalidValue);
}

TEST_P(PoolErrors, GetCurrentPoolNullOutputIsInvalidValue) {
  MX_SPEC("api.pool.device-pool.null-output-is-invalid-value");
  EXPECT_EQ(mcDeviceGetMemPool(nullptr, device()), mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceGetMempool(nullptr, device()), mcErrorInvalidValue);
}

TEST_P(PoolErrors, SetCurrentPoolNullIsInvalidValueAndKeepsTheCurrent) {
  MX_SPEC("api.pool.device-pool.null-output-is-invalid-value");
  EXPECT_EQ(mcDeviceSetMemPool(device(), nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceSetMempool(device(), nullptr), mcErrorInvalidValue);
  mcMemPool_t current = nullptr;
  ASSERT_EQ(mcDeviceGetMemPool(&current, device()), mcSuccess);
  EXPECT_EQ(current, default_pool_);
}

TEST_P(PoolErrors, SetCurrentPoolDestroyedIsInvalidValue) {
  MX_SPEC("api.pool.device-pool.null-output-is-invalid-value");
  EXPECT_EQ(mcDeviceSetMemPool(device(), dead_pool_), mcErrorInvalidValue);
  mcMemPool_t current = nullptr;
  ASSERT_EQ(mcDeviceGetMemPool(&current, device()), mcSuccess);
  EXPECT_EQ(current, default_pool_);
  // Control: the live pool can be made current, and the default again.
  EXPECT_EQ(mcDeviceSetMemPool(device(), pool_), mcSuccess);
  EXPECT_EQ(mcDeviceSetMemPool(device(), default_pool_), mcSuccess);
}

TEST_P(PoolErrors, SetCurrentPoolOfAnotherDeviceIsInvalidValue) {
  MX_SPEC("api.pool.current.pool-of-other-device-is-invalid-value");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  const int other = (device() + 1) % DeviceCount();
  EXPECT_EQ(mcDeviceSetMemPool(other, pool_), mcErrorInvalidValue);
  mcMemPool_t current = nullptr;
  ASSERT_EQ(mcDeviceGetMemPool(&current, other), mcSuccess);
  mcMemPool_t other_default = nullptr;
  ASSERT_EQ(mcDeviceGetDefaultMemPool(&other_default, other), mcSuccess);
  EXPECT_EQ(current, other_default);
  // Control: on its own device the pool is accepted.
  EXPECT_EQ(mcDeviceSetMemPool(device(), pool_), mcSuccess);
  EXPECT_EQ(mcDeviceSetMemPool(device(), default_pool_), mcSuccess);
}

// Creation.

TEST_P(PoolErrors, CreateNullArgumentsAreInvalidValue) {
  MX_SPEC("api.pool.create.null-argument-is-invalid-value");
  mcMemPoolProps props = PoolProps(device());
  EXPECT_EQ(mcMemPoolCreate(nullptr, &props), mcErrorInvalidValue);
  mcMemPool_t pool = nullptr;
  EXPECT_EQ(mcMemPoolCreate(&pool, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(pool, nullptr);
}

class CreateWithBadProps : public testing::TestWithParam<std::tuple<int, int>> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("memory_pools"); }
};

// Which property is bad, and how.
enum BadProp {
  kAllocTypeInvalid,
  kAllocTypeTwo,
  kAllocTypeMax,
  kLocationInvalid,
  kLocationHost,
  kLocationHostNuma,
  kLocationHostNumaCurrent,
  kHandleWin32,
  kHandleWin32Kmt,
  kHandleFabric,
  kHandleUnknownBit,
  kBadPropCount,
};

TEST_P(CreateWithBadProps, IsInvalidValueAndCreatesNoPool) {
  MX_SPEC("api.pool.create.invalid-props-is-invalid-value");
  const int device = std::get<0>(GetParam());
  mcMemPoolProps props = PoolProps(device);
  switch (std::get<1>(GetParam())) {
    case kAllocTypeInvalid:
      props.allocType = mcMemAllocationTypeInvalid;
      break;
    case kAllocTypeTwo:
      props.allocType = static_cast<mcMemAllocationType>(2);
      break;
    case kAllocTypeMax:
      props.allocType = mcMemAllocationTypeMax;
      break;
    case kLocationInvalid:
      props.location.type = mcMemLocationTypeInvalid;
      break;
    case kLocationHost:
      props.location.type = mcMemLocationTypeHost;
      break;
    case kLocationHostNuma:
      props.location.type = mcMemLocationTypeHostNuma;
      break;
    case kLocationHostNumaCurrent:
      props.location.type = mcMemLocationTypeHostNumaCurrent;
      break;
    case kHandleWin32:
      props.handleTypes = mcMemHandleTypeWin32;
      break;
    case kHandleWin32Kmt:
      props.handleTypes = mcMemHandleTypeWin32Kmt;
      break;
    case kHandleFabric:
      props.handleTypes = mcMemHandleTypeFabric;
      break;
    case kHandleUnknownBit:
      props.handleTypes = static_cast<mcMemAllocationHandleType>(0x40);
      break;
  }
  mcMemPool_t pool = nullptr;
  EXPECT_EQ(mcMemPoolCreate(&pool, &props), mcErrorInvalidValue);
  EXPECT_EQ(pool, nullptr);
  // Control: the same properties, made good, create a pool.
  mcMemPoolProps good = PoolProps(device);
  ASSERT_EQ(mcMemPoolCreate(&pool, &good), mcSuccess);
  EXPECT_EQ(mcMemPoolDestroy(pool), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    EveryDevice, CreateWithBadProps,
    testing::Combine(testing::ValuesIn(AllDevices()),
                     testing::Range(0, static_cast<int>(kBadPropCount))));

TEST(CreateWithBadLocationId, IsInvalidValue) {
  MX_SPEC("api.pool.create.bad-location-id-is-invalid-value");
  MX_REQUIRE_CAPABILITY("memory_pools");
  for (int id : {-1, -2, DeviceCount(), DeviceCount() + 1, 1 << 20}) {
    mcMemPoolProps props = PoolProps(id);
    mcMemPool_t pool = nullptr;
    EXPECT_EQ(mcMemPoolCreate(&pool, &props), mcErrorInvalidValue) << id;
    EXPECT_EQ(pool, nullptr) << id;
  }
}

TEST_P(PoolErrors, AllocationBeyondMaxSizeIsMemoryAllocation) {
  MX_SPEC("api.pool.create.max-size");
  mcMemPoolProps props = PoolProps(device());
  props.maxSize = 3 << 16;
  mcMemPool_t bounded = nullptr;
  ASSERT_EQ(mcMemPoolCreate(&bounded, &props), mcSuccess);
  void* first = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&first, 2 << 16, bounded, nullptr),
            mcSuccess);
  const unsigned long long reserved =
      U64Attribute(bounded, mcMemPoolAttrReservedMemCurrent);
  void* second = &second;
  EXPECT_EQ(mcMallocFromPoolAsync(&second, 2 << 16, bounded, nullptr),
            mcErrorMemoryAllocation);
  EXPECT_EQ(U64Attribute(bounded, mcMemPoolAttrReservedMemCurrent), reserved);
  // Control: what still fits is allocated, and an unbounded pool takes it.
  void* third = nullptr;
  EXPECT_EQ(mcMallocFromPoolAsync(&third, 1 << 16, bounded, nullptr),
            mcSuccess);
  void* unbounded = nullptr;
  EXPECT_EQ(mcMallocFromPoolAsync(&unbounded, 2 << 16, pool_, nullptr),
            mcSuccess);
  EXPECT_EQ(mcFreeAsync(first, nullptr), mcSuccess);
  EXPECT_EQ(mcFreeAsync(third, nullptr), mcSuccess);
  EXPECT_EQ(mcFreeAsync(unbounded, nullptr), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(mcMemPoolDestroy(bounded), mcSuccess);
}

// Destruction and trimming.

TEST_P(PoolErrors, DestroyDefaultPoolIsInvalidValue) {
  MX_SPEC("api.pool.destroy.default-pool-is-invalid-value");
  EXPECT_EQ(mcMemPoolDestroy(default_pool_), mcErrorInvalidValue);
  // Unchanged: the default pool still serves allocations.
  void* p = nullptr;
  EXPECT_EQ(mcMallocFromPoolAsync(&p, 256, default_pool_, nullptr), mcSuccess);
  EXPECT_EQ(mcFreeAsync(p, nullptr), mcSuccess);
}

TEST_P(PoolErrors, DestroyNullOrDestroyedPoolIsInvalidValue) {
  MX_SPEC("api.pool.destroy.invalid-pool-is-invalid-value");
  EXPECT_EQ(mcMemPoolDestroy(nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolDestroy(dead_pool_), mcErrorInvalidValue);
}

TEST_P(PoolErrors, TrimNullOrDestroyedPoolIsInvalidValue) {
  MX_SPEC("api.pool.trim.invalid-pool-is-invalid-value");
  EXPECT_EQ(mcMemPoolTrimTo(nullptr, 0), mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolTrimTo(dead_pool_, 0), mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolTrimTo(pool_, 0), mcSuccess);  // control
}

// Attributes.

TEST_P(PoolErrors, SetAttributeOfNullOrDestroyedPoolIsInvalidValue) {
  MX_SPEC("api.pool.attribute.bad-arguments-are-invalid-value");
  unsigned long long threshold = 4096;
  EXPECT_EQ(
      mcMemPoolSetAttribute(nullptr, mcMemPoolAttrReleaseThreshold, &threshold),
      mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolSetAttribute(dead_pool_, mcMemPoolAttrReleaseThreshold,
                                  &threshold),
            mcErrorInvalidValue);
  EXPECT_EQ(
      mcMemPoolGetAttribute(nullptr, mcMemPoolAttrReleaseThreshold, &threshold),
      mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolGetAttribute(dead_pool_, mcMemPoolAttrReleaseThreshold,
                                  &threshold),
            mcErrorInvalidValue);
}

TEST_P(PoolErrors, NullValueIsInvalidValue) {
  MX_SPEC("api.pool.attribute.bad-arguments-are-invalid-value");
  for (mcMemPoolAttr attr :
       {mcMemPoolReuseFollowEventDependencies, mcMemPoolAttrReleaseThreshold,
        mcMemPoolAttrUsedMemCurrent}) {
    EXPECT_EQ(mcMemPoolSetAttribute(pool_, attr, nullptr), mcErrorInvalidValue);
    EXPECT_EQ(mcMemPoolGetAttribute(pool_, attr, nullptr), mcErrorInvalidValue);
  }
}

class UnknownAttribute : public testing::TestWithParam<int> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("memory_pools"); }
};

TEST_P(UnknownAttribute, IsInvalidValueForSetAndGet) {
  MX_SPEC("api.pool.attribute.bad-arguments-are-invalid-value");
  mcMemPool_t pool = nullptr;
  ASSERT_EQ(mcDeviceGetDefaultMemPool(&pool, 0), mcSuccess);
  unsigned long long value = 0;
  const auto attr = static_cast<mcMemPoolAttr>(GetParam());
  EXPECT_EQ(mcMemPoolSetAttribute(pool, attr, &value), mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolGetAttribute(pool, attr, &value), mcErrorInvalidValue);
  // Control: a known attribute is read.
  EXPECT_EQ(mcMemPoolGetAttribute(pool, mcMemPoolAttrUsedMemCurrent, &value),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(NotPoolAttributes, UnknownAttribute,
                         testing::Values(0, 9, 10, 100, -1, 0x7fffffff));

TEST_P(PoolErrors, ReadOnlyCountersCannotBeSet) {
  MX_SPEC("api.pool.attribute.read-only-is-invalid-value");
  void* p = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&p, 4096, pool_, nullptr), mcSuccess);
  for (mcMemPoolAttr attr :
       {mcMemPoolAttrReservedMemCurrent, mcMemPoolAttrUsedMemCurrent}) {
    const unsigned long long before = U64Attribute(pool_, attr);
    for (unsigned long long value : {0ull, 1ull, before}) {
      EXPECT_EQ(mcMemPoolSetAttribute(pool_, attr, &value),
                mcErrorInvalidValue);
    }
    EXPECT_EQ(U64Attribute(pool_, attr), before);
  }
  EXPECT_EQ(mcFreeAsync(p, nullptr), mcSuccess);
}

TEST_P(PoolErrors, HighWatermarkSetToNonzeroIsInvalidValue) {
  MX_SPEC("api.pool.attribute.high-watermark-nonzero-is-invalid-value");
  void* p = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&p, 8192, pool_, nullptr), mcSuccess);
  ASSERT_EQ(mcFreeAsync(p, nullptr), mcSuccess);
  for (mcMemPoolAttr attr :
       {mcMemPoolAttrReservedMemHigh, mcMemPoolAttrUsedMemHigh}) {
    const unsigned long long before = U64Attribute(pool_, attr);
    EXPECT_GT(before, 0u);
    for (unsigned long long value : {1ull, 4096ull, ~0ull}) {
      EXPECT_EQ(mcMemPoolSetAttribute(pool_, attr, &value),
                mcErrorInvalidValue);
    }
    EXPECT_EQ(U64Attribute(pool_, attr), before);
    // Control: 0 is accepted.
    unsigned long long zero = 0;
    EXPECT_EQ(mcMemPoolSetAttribute(pool_, attr, &zero), mcSuccess);
  }
}

TEST_P(PoolErrors, ReusePolicyOtherThanZeroOrOneIsInvalidValue) {
  MX_SPEC("api.pool.attribute.bad-arguments-are-invalid-value");
  for (mcMemPoolAttr attr :
       {mcMemPoolReuseFollowEventDependencies, mcMemPoolReuseAllowOpportunistic,
        mcMemPoolReuseAllowInternalDependencies}) {
    for (int value : {2, -1, 100}) {
      EXPECT_EQ(mcMemPoolSetAttribute(pool_, attr, &value),
                mcErrorInvalidValue);
    }
    EXPECT_EQ(IntAttribute(pool_, attr), 1);
  }
}

// Access.

TEST_P(PoolErrors, SetAccessNullListWithEntriesIsInvalidValue) {
  MX_SPEC("api.pool.access.bad-arguments-are-invalid-value");
  EXPECT_EQ(mcMemPoolSetAccess(pool_, nullptr, 1), mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolSetAccess(pool_, nullptr, 0), mcSuccess);  // control
}

TEST_P(PoolErrors, SetAccessOfNullOrDestroyedPoolIsInvalidValue) {
  MX_SPEC("api.pool.access.bad-arguments-are-invalid-value");
  mcMemAccessDesc desc{};
  desc.location.type = mcMemLocationTypeDevice;
  desc.location.id = device();
  desc.flags = mcMemAccessFlagsProtReadWrite;
  EXPECT_EQ(mcMemPoolSetAccess(nullptr, &desc, 1), mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolSetAccess(dead_pool_, &desc, 1), mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolSetAccess(pool_, &desc, 1), mcSuccess);  // control
}

// A descriptor made bad in one way.
enum BadDesc {
  kDescLocationInvalid,
  kDescLocationHost,
  kDescIdNegative,
  kDescIdPastTheDevices,
  kDescFlagsTwo,
  kDescFlagsFour,
  kDescFlagsSeven,
  kDescOwnDeviceNone,
  kDescOwnDeviceRead,
  kBadDescCount,
};

class SetAccessWithBadDescriptor
    : public testing::TestWithParam<std::tuple<int, int>> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("memory_pools"); }
};

TEST_P(SetAccessWithBadDescriptor, IsInvalidValueAndChangesNothing) {
  MX_SPEC("api.pool.access.bad-arguments-are-invalid-value",
          "api.pool.access.revoke-resident-is-invalid-value");
  const int device = std::get<0>(GetParam());
  mcMemPoolProps props = PoolProps(device);
  mcMemPool_t pool = nullptr;
  ASSERT_EQ(mcMemPoolCreate(&pool, &props), mcSuccess);
  // A good first entry, which must not apply either.
  mcMemAccessDesc descs[2]{};
  descs[0].location.type = mcMemLocationTypeDevice;
  descs[0].location.id = (device + 1) % DeviceCount();
  descs[0].flags = DeviceCount() > 1 ? mcMemAccessFlagsProtRead
                                     : mcMemAccessFlagsProtReadWrite;
  descs[1].location.type = mcMemLocationTypeDevice;
  descs[1].location.id = device;
  descs[1].flags = mcMemAccessFlagsProtReadWrite;
  switch (std::get<1>(GetParam())) {
    case kDescLocationInvalid:
      descs[1].location.type = mcMemLocationTypeInvalid;
      break;
    case kDescLocationHost:
      descs[1].location.type = mcMemLocationTypeHost;
      break;
    case kDescIdNegative:
      descs[1].location.id = -1;
      break;
    case kDescIdPastTheDevices:
      descs[1].location.id = DeviceCount();
      break;
    case kDescFlagsTwo:
      descs[1].flags = static_cast<mcMemAccessFlags>(2);
      break;
    case kDescFlagsFour:
      descs[1].flags = static_cast<mcMemAccessFlags>(4);
      break;
    case kDescFlagsSeven:
      descs[1].flags = static_cast<mcMemAccessFlags>(7);
      break;
    case kDescOwnDeviceNone:
      descs[1].flags = mcMemAccessFlagsProtNone;
      break;
    case kDescOwnDeviceRead:
      descs[1].flags = mcMemAccessFlagsProtRead;
      break;
  }
  EXPECT_EQ(mcMemPoolSetAccess(pool, descs, 2), mcErrorInvalidValue);
  // Unchanged: the other device still has no access, the own device all.
  mcMemAccessFlags flags = mcMemAccessFlagsProtRead;
  mcMemLocation own{mcMemLocationTypeDevice, device};
  ASSERT_EQ(mcMemPoolGetAccess(&flags, pool, &own), mcSuccess);
  EXPECT_EQ(flags, mcMemAccessFlagsProtReadWrite);
  if (DeviceCount() > 1) {
    mcMemLocation other = descs[0].location;
    ASSERT_EQ(mcMemPoolGetAccess(&flags, pool, &other), mcSuccess);
    EXPECT_EQ(flags, mcMemAccessFlagsProtNone);
  }
  // Control: the good entry alone applies.
  EXPECT_EQ(mcMemPoolSetAccess(pool, descs, 1), mcSuccess);
  EXPECT_EQ(mcMemPoolDestroy(pool), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    EveryDevice, SetAccessWithBadDescriptor,
    testing::Combine(testing::ValuesIn(AllDevices()),
                     testing::Range(0, static_cast<int>(kBadDescCount))));

TEST_P(PoolErrors, GetAccessBadArgumentsAreInvalidValue) {
  MX_SPEC("api.pool.access.bad-arguments-are-invalid-value");
  mcMemAccessFlags flags = mcMemAccessFlagsProtNone;
  mcMemLocation own{mcMemLocationTypeDevice, device()};
  EXPECT_EQ(mcMemPoolGetAccess(nullptr, pool_, &own), mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolGetAccess(&flags, pool_, nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolGetAccess(&flags, nullptr, &own), mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolGetAccess(&flags, dead_pool_, &own), mcErrorInvalidValue);
  mcMemLocation host{mcMemLocationTypeHost, 0};
  EXPECT_EQ(mcMemPoolGetAccess(&flags, pool_, &host), mcErrorInvalidValue);
  mcMemLocation past{mcMemLocationTypeDevice, DeviceCount()};
  EXPECT_EQ(mcMemPoolGetAccess(&flags, pool_, &past), mcErrorInvalidValue);
  EXPECT_EQ(flags, mcMemAccessFlagsProtNone);
  EXPECT_EQ(mcMemPoolGetAccess(&flags, pool_, &own), mcSuccess);  // control
}

TEST_P(PoolErrors, GrantToADeviceThatCannotBeAPeerIsInvalidDevice) {
  MX_SPEC("api.pool.access.non-peer-device-is-invalid-device");
  int tested = 0;
  for (int other = 0; other < DeviceCount(); ++other) {
    if (other == device()) continue;
    int can = 1;
    ASSERT_EQ(mcDeviceCanAccessPeer(&can, other, device()), mcSuccess);
    mcMemAccessDesc desc{{mcMemLocationTypeDevice, other},
                         mcMemAccessFlagsProtReadWrite};
    mcError_t result = mcMemPoolSetAccess(pool_, &desc, 1);
    if (can == 0) {
      EXPECT_EQ(result, mcErrorInvalidDevice) << other;
      ++tested;
    } else {
      EXPECT_EQ(result, mcSuccess) << other;  // control
    }
  }
  if (tested == 0) {
    GTEST_SKIP() << "every pair of devices can be peers here; only the "
                    "control ran";
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, PoolErrors,
                         testing::ValuesIn(AllDevices()), DeviceName);

// Invalid device ordinals for the device pool calls.
class DevicePoolCallsWithBadOrdinal : public testing::TestWithParam<int> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("memory_pools"); }
  int ordinal() const {
    return GetParam() >= 0 ? DeviceCount() + GetParam() : GetParam();
  }
};

TEST_P(DevicePoolCallsWithBadOrdinal, AreInvalidDevice) {
  MX_SPEC("api.pool.device-pool.invalid-device");
  mcMemPool_t pool = nullptr;
  EXPECT_EQ(mcDeviceGetDefaultMemPool(&pool, ordinal()), mcErrorInvalidDevice);
  EXPECT_EQ(mcDeviceGetMemPool(&pool, ordinal()), mcErrorInvalidDevice);
  EXPECT_EQ(pool, nullptr);
  mcMemPool_t good = nullptr;
  ASSERT_EQ(mcDeviceGetDefaultMemPool(&good, 0), mcSuccess);  // control
  EXPECT_EQ(mcDeviceSetMemPool(ordinal(), good), mcErrorInvalidDevice);
  EXPECT_EQ(mcDeviceGetDefaultMempool(&pool, ordinal()), mcErrorInvalidDevice);
  EXPECT_EQ(mcDeviceGetMempool(&pool, ordinal()), mcErrorInvalidDevice);
  EXPECT_EQ(mcDeviceSetMempool(ordinal(), good), mcErrorInvalidDevice);
}

// Past the last device by 0, 1 and 1000; and negative ordinals.
INSTANTIATE_TEST_SUITE_P(Ordinals, DevicePoolCallsWithBadOrdinal,
                         testing::Values(0, 1, 1000, -1, -2, -1000));

}  // namespace
}  // namespace mxcts::conformance
