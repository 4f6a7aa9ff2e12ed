// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/pool_testing.h
// -----------------------------------------------------------------------------
//
// What the memory pool tests (conformance/api/memory_pools) share: the
// devices they are parameterized over, the properties of a pool on a
// device, and reading a pool attribute.
//
//   INSTANTIATE_TEST_SUITE_P(EveryDevice, PoolTest,
//                            testing::ValuesIn(AllDevices()));
//   mcMemPoolProps props = PoolProps(GetParam());
//   ASSERT_EQ(mcMemPoolCreate(&pool, &props), mcSuccess);
//   EXPECT_EQ(U64Attribute(pool, mcMemPoolAttrUsedMemCurrent), 0u);
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_TESTING_POOL_TESTING_H_
#define MXCTS_CONFORMANCE_API_TESTING_POOL_TESTING_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <vector>

namespace mxcts::conformance {

// The number of devices, or 1 if it cannot be read (the tests then fail
// on their own calls).
inline int DeviceCount() {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return 1;
  return count;
}

// Every device ordinal, for parameterized tests.
inline std::vector<int> AllDevices() {
  std::vector<int> devices;
  for (int device = 0; device < DeviceCount(); ++device) {
    devices.push_back(device);
  }
  return devices;
}

// The properties of a pinned pool on `device`, exportable as
// `handle_types`.
inline mcMemPoolProps PoolProps(
    int device, mcMemAllocationHandleType handle_types = mcMemHandleTypeNone) {
  mcMemPoolProps props{};
  props.allocType = mcMemAllocationTypePinned;
  props.handleTypes = handle_types;
  props.location.type = mcMemLocationTypeDevice;
  props.location.id = device;
  return props;
}

// A 64-bit attribute of `pool` (a failing read is a test failure).
inline unsigned long long U64Attribute(mcMemPool_t pool, mcMemPoolAttr attr) {
  unsigned long long value = 0;
  EXPECT_EQ(mcMemPoolGetAttribute(pool, attr, &value), mcSuccess);
  return value;
}

// An int attribute of `pool` (the reuse policies); -1 if the read fails.
inline int IntAttribute(mcMemPool_t pool, mcMemPoolAttr attr) {
  int value = -1;
  EXPECT_EQ(mcMemPoolGetAttribute(pool, attr, &value), mcSuccess);
  return value;
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_POOL_TESTING_H_
