// Copyright mxcts authors.
//
// Conformance: mcMallocManaged on a device without managed memory
// (docs/spec/api-memory.md, "Managed memory") returns mcErrorNotSupported
// and stores nothing; on a device with managed memory the same call is the
// control. The test runs with MXCTS_DEVICE_CONFIG=1:managedMemory=0
// (BUILD), which turns the reference's device 1 into such a device. It
// finds the two kinds of device by mcDeviceAttributeManagedMemory, so a
// backend that ignores the variable is skipped unless it has both.

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// The first device whose mcDeviceAttributeManagedMemory is `value`, or -1.
int DeviceWithManagedMemory(int value) {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return -1;
  for (int device = 0; device < count; ++device) {
    int managed = -1;
    if (mcDeviceGetAttribute(&managed, mcDeviceAttributeManagedMemory,
                             device) == mcSuccess &&
        managed == value) {
      return device;
    }
  }
  return -1;
}

TEST(ManagedUnsupported, AllocationIsNotSupported) {
  MX_SPEC("api.memory.managed.not-supported");
  const int without = DeviceWithManagedMemory(0);
  const int with = DeviceWithManagedMemory(1);
  if (without < 0 || with < 0) {
    GTEST_SKIP() << "unsupported: the backend does not have a device with "
                    "and one without managed memory";
  }
  ASSERT_EQ(mcSetDevice(without), mcSuccess);
  void* const untouched = reinterpret_cast<void*>(0x1234);
  void* p = untouched;
  EXPECT_EQ(mcMallocManaged(&p, 64), mcErrorNotSupported);
  EXPECT_EQ(p, untouched);
  EXPECT_EQ(mcGetLastError(), mcErrorNotSupported);
  // Control: device memory of the same device, and managed memory of the
  // other.
  ASSERT_EQ(mcMalloc(&p, 64), mcSuccess);
  EXPECT_EQ(mcFree(p), mcSuccess);
  ASSERT_EQ(mcSetDevice(with), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&p, 64), mcSuccess);
  EXPECT_EQ(mcFree(p), mcSuccess);
  mcSetDevice(0);
}

}  // namespace
}  // namespace mxcts::conformance
