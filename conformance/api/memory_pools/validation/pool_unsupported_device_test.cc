// Copyright mxcts authors.
//
// Conformance: a device without memory pools (docs/spec/api-memory-pools.md,
// api.pool.malloc-async.unsupported-device): stream-ordered allocation in
// its streams, and every call that would give or make a pool of it, return
// mcErrorNotSupported and store nothing; the same calls on a device with
// pools are the controls. The test runs with
// MXCTS_DEVICE_CONFIG=1:memoryPoolsSupported=0 (BUILD), which turns the
// reference's device 1 into such a device. It finds its two devices by
// their mcDeviceAttributeMemoryPoolsSupported, so on a backend that
// ignores the variable it is skipped unless that backend has both kinds.

#include <mc_runtime.h>

#include "conformance/api/testing/pool_testing.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

void* const kUntouched = reinterpret_cast<void*>(0x1234);
mcMemPool_t const kUntouchedPool = reinterpret_cast<mcMemPool_t>(0x5678);

// mcDeviceAttributeMemoryPoolsSupported of `device`, or -1 if it cannot be
// read.
int PoolsSupported(int device) {
  int value = -1;
  if (mcDeviceGetAttribute(&value, mcDeviceAttributeMemoryPoolsSupported,
                           device) != mcSuccess) {
    return -1;
  }
  return value;
}

// A stream on a device without pools (stream_without_, device without_)
// and one on a device with them (stream_with_, device with_).
class UnsupportedDevice : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("memory_pools");
    for (int device : AllDevices()) {
      const int supported = PoolsSupported(device);
      if (supported == 0 && without_ < 0) without_ = device;
      if (supported == 1 && with_ < 0) with_ = device;
    }
    if (without_ < 0 || with_ < 0) {
      GTEST_SKIP() << "unsupported: no device without memory pools beside "
                      "one with them";
    }
    ASSERT_TRUE(MakeStream(without_, &stream_without_));
    ASSERT_TRUE(MakeStream(with_, &stream_with_));
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (stream_without_ != nullptr) mcStreamDestroy(stream_without_);
    if (stream_with_ != nullptr) mcStreamDestroy(stream_with_);
  }

  static bool MakeStream(int device, mcStream_t* stream) {
    ScopedDevice on(device);
    return on.ok() && mcStreamCreate(stream) == mcSuccess;
  }

  int without_ = -1;
  int with_ = -1;
  mcStream_t stream_without_ = nullptr;
  mcStream_t stream_with_ = nullptr;
};

TEST_F(UnsupportedDevice, AttributeTellsTheDevicesApart) {
  MX_SPEC("api.pool.malloc-async.pools-supported-attribute");
  EXPECT_EQ(PoolsSupported(without_), 0);
  EXPECT_EQ(PoolsSupported(with_), 1);
}

TEST_F(UnsupportedDevice, MallocAsyncIsNotSupported) {
  MX_SPEC("api.pool.malloc-async.unsupported-device");
  void* p = kUntouched;
  EXPECT_EQ(mcMallocAsync(&p, 256, stream_without_), mcErrorNotSupported);
  EXPECT_EQ(mcGetLastError(), mcErrorNotSupported);
  EXPECT_EQ(p, kUntouched);
  // Control: in a stream of the device with pools.
  ASSERT_EQ(mcMallocAsync(&p, 256, stream_with_), mcSuccess);
  EXPECT_NE(p, kUntouched);
  EXPECT_EQ(mcFreeAsync(p, stream_with_), mcSuccess);
}

TEST_F(UnsupportedDevice, MallocFromPoolAsyncIsNotSupported) {
  MX_SPEC("api.pool.malloc-async.unsupported-device");
  mcMemPool_t pool = nullptr;
  mcMemPoolProps props = PoolProps(with_);
  ASSERT_EQ(mcMemPoolCreate(&pool, &props), mcSuccess);
  void* p = kUntouched;
  EXPECT_EQ(mcMallocFromPoolAsync(&p, 256, pool, stream_without_),
            mcErrorNotSupported);
  EXPECT_EQ(mcGetLastError(), mcErrorNotSupported);
  EXPECT_EQ(p, kUntouched);
  // Control: the same pool in a stream of its own device.
  ASSERT_EQ(mcMallocFromPoolAsync(&p, 256, pool, stream_with_), mcSuccess);
  EXPECT_NE(p, kUntouched);
  EXPECT_EQ(mcFreeAsync(p, stream_with_), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(stream_with_), mcSuccess);
  EXPECT_EQ(mcMemPoolDestroy(pool), mcSuccess);
}

TEST_F(UnsupportedDevice, FreeAsyncIsNotSupported) {
  MX_SPEC("api.pool.malloc-async.unsupported-device");
  void* p = nullptr;
  ASSERT_EQ(mcMallocAsync(&p, 256, stream_with_), mcSuccess);
  EXPECT_EQ(mcFreeAsync(p, stream_without_), mcErrorNotSupported);
  EXPECT_EQ(mcGetLastError(), mcErrorNotSupported);
  // Control: the allocation is still live, and frees in a stream of the
  // device with pools.
  EXPECT_EQ(mcMemsetAsync(p, 0, 256, stream_with_), mcSuccess);
  EXPECT_EQ(mcFreeAsync(p, stream_with_), mcSuccess);
}

TEST_F(UnsupportedDevice, DeviceHasNoDefaultOrCurrentPool) {
  MX_SPEC("api.pool.malloc-async.unsupported-device");
  mcMemPool_t pool = kUntouchedPool;
  EXPECT_EQ(mcDeviceGetDefaultMemPool(&pool, without_), mcErrorNotSupported);
  EXPECT_EQ(mcDeviceGetDefaultMempool(&pool, without_), mcErrorNotSupported);
  EXPECT_EQ(mcDeviceGetMemPool(&pool, without_), mcErrorNotSupported);
  EXPECT_EQ(mcDeviceGetMempool(&pool, without_), mcErrorNotSupported);
  EXPECT_EQ(mcGetLastError(), mcErrorNotSupported);
  EXPECT_EQ(pool, kUntouchedPool);
  // Control: the device with pools has both, the same one.
  mcMemPool_t default_pool = nullptr;
  ASSERT_EQ(mcDeviceGetDefaultMemPool(&default_pool, with_), mcSuccess);
  ASSERT_EQ(mcDeviceGetMemPool(&pool, with_), mcSuccess);
  EXPECT_EQ(pool, default_pool);
}

TEST_F(UnsupportedDevice, SetMemPoolIsNotSupported) {
  MX_SPEC("api.pool.malloc-async.unsupported-device");
  mcMemPool_t pool = nullptr;
  ASSERT_EQ(mcDeviceGetDefaultMemPool(&pool, with_), mcSuccess);
  EXPECT_EQ(mcDeviceSetMemPool(without_, pool), mcErrorNotSupported);
  EXPECT_EQ(mcDeviceSetMempool(without_, pool), mcErrorNotSupported);
  EXPECT_EQ(mcGetLastError(), mcErrorNotSupported);
  // Control: the pool becomes current on its own device.
  EXPECT_EQ(mcDeviceSetMemPool(with_, pool), mcSuccess);
}

TEST_F(UnsupportedDevice, PoolCreateIsNotSupported) {
  MX_SPEC("api.pool.malloc-async.unsupported-device");
  mcMemPool_t pool = kUntouchedPool;
  mcMemPoolProps props = PoolProps(without_);
  EXPECT_EQ(mcMemPoolCreate(&pool, &props), mcErrorNotSupported);
  EXPECT_EQ(mcGetLastError(), mcErrorNotSupported);
  EXPECT_EQ(pool, kUntouchedPool);
  // Control: the same properties located on the device with pools.
  props = PoolProps(with_);
  ASSERT_EQ(mcMemPoolCreate(&pool, &props), mcSuccess);
  EXPECT_EQ(mcMemPoolDestroy(pool), mcSuccess);
}

}  // namespace
}  // namespace mxcts::conformance
