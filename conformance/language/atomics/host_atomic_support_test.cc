// Copyright mxcts authors.
//
// Conformance: whether host atomics on managed or mapped memory are atomic
// with respect to device atomics is implementation-defined and reported by
// mcDeviceAttributeHostNativeAtomicSupported
// (docs/spec/lang-atomics.md, lang.atomic.scope.host-atomic-support).
// Every device reports it as 0 or 1, the same through the attribute and
// through mcDeviceProp_t::hostNativeAtomicSupported; asking for it on a
// device that does not exist is the control that fails.

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace {

TEST(HostAtomicSupport, EveryDeviceReportsItConsistently) {
  MX_SPEC("lang.atomic.scope.host-atomic-support");
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  ASSERT_GT(count, 0);
  for (int device = 0; device < count; ++device) {
    int value = -1;
    ASSERT_EQ(mcDeviceGetAttribute(
                  &value, mcDeviceAttributeHostNativeAtomicSupported, device),
              mcSuccess);
    EXPECT_TRUE(value == 0 || value == 1)
        << "device " << device << ": " << value;
    mcDeviceProp_t properties{};
    ASSERT_EQ(mcGetDeviceProperties(&properties, device), mcSuccess);
    EXPECT_EQ(properties.hostNativeAtomicSupported, value)
        << "device " << device;
  }
}

TEST(HostAtomicSupportControl, NoSuchDeviceIsInvalidDevice) {
  MX_SPEC("lang.atomic.scope.host-atomic-support");
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  int value = -1;
  EXPECT_EQ(mcDeviceGetAttribute(
                &value, mcDeviceAttributeHostNativeAtomicSupported, count),
            mcErrorInvalidDevice);
}

}  // namespace
