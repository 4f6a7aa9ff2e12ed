// Copyright mxcts authors.
//
// Conformance: a device without stream priorities
// (docs/spec/api-stream.md, priorities; api-device.md, "Stream
// priorities"): mcDeviceGetStreamPriorityRange stores 0 in both outputs,
// and a stream created with any priority there has priority 0; on a device
// with priorities the range is wider (the control). The target's
// MXCTS_DEVICE_CONFIG (BUILD) turns priorities off on the reference's
// device 1; the test finds the two kinds of device by
// mcDeviceAttributeStreamPrioritiesSupported, so a backend that ignores
// the variable is skipped unless it has both.

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kUnset = 12345;  // in no priority range

// The first device whose mcDeviceAttributeStreamPrioritiesSupported is
// `value`, or -1.
int DeviceWithPriorities(int value) {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return -1;
  for (int device = 0; device < count; ++device) {
    int supported = -1;
    if (mcDeviceGetAttribute(&supported,
                             mcDeviceAttributeStreamPrioritiesSupported,
                             device) == mcSuccess &&
        supported == value) {
      return device;
    }
  }
  return -1;
}

TEST(PriorityRange, DeviceWithoutPrioritiesReportsZero) {
  MX_SPEC("api.stream.priority-range.unsupported-device-reports-zero",
          "api.device.priority.range-implementation-defined");
  const int without = DeviceWithPriorities(0);
  const int with = DeviceWithPriorities(1);
  if (without < 0 || with < 0) {
    GTEST_SKIP() << "unsupported: the backend does not have a device with "
                    "and one without stream priorities";
  }
  ASSERT_EQ(mcSetDevice(without), mcSuccess);
  int least = kUnset, greatest = kUnset;
  EXPECT_EQ(mcDeviceGetStreamPriorityRange(&least, &greatest), mcSuccess);
  EXPECT_EQ(least, 0);
  EXPECT_EQ(greatest, 0);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreateWithPriority(&stream, mcStreamNonBlocking, -3),
            mcSuccess);
  int priority = kUnset;
  EXPECT_EQ(mcStreamGetPriority(stream, &priority), mcSuccess);
  EXPECT_EQ(priority, 0);
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
  // Control: the device with priorities has more than one.
  ASSERT_EQ(mcSetDevice(with), mcSuccess);
  EXPECT_EQ(mcDeviceGetStreamPriorityRange(&least, &greatest), mcSuccess);
  EXPECT_LT(greatest, least);
  mcSetDevice(0);
}

}  // namespace
}  // namespace mxcts::conformance
