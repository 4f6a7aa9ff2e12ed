// Copyright mxcts authors.
//
// Conformance: mcDeviceGetStreamPriorityRange (docs/spec/api-device.md,
// "Stream priorities"; api-stream.md, priorities).
//
//   - It stores the least (numerically largest, 0) and the greatest
//     priority, greatest <= least, in either output alone or both, and a
//     null output is left out; both null is still mcSuccess.
//   - The number of levels is the implementation's: a device with
//     priorities has least - greatest + 1 of them, each a priority a
//     stream keeps (created at it, it reports it); a device without
//     (mcDeviceAttributeStreamPrioritiesSupported 0) reports 0 for both.
//
// A device without priorities is device_priority_unsupported_test.cc. The
// control of each rule is a stored value the test could see wrong: outputs
// preset to a value no range has.

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kUnset = 12345;  // in no priority range

int DeviceCount() {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return 0;
  return count;
}

bool PrioritiesSupported(int device) {
  int value = -1;
  EXPECT_EQ(mcDeviceGetAttribute(
                &value, mcDeviceAttributeStreamPrioritiesSupported, device),
            mcSuccess);
  return value != 0;
}

class EveryDevice : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    if (GetParam() >= DeviceCount()) {
      GTEST_SKIP() << "unsupported: the backend has no device " << GetParam();
    }
    ASSERT_EQ(mcSetDevice(GetParam()), mcSuccess);
  }
  void TearDown() override { mcSetDevice(0); }
};

TEST_P(EveryDevice, RangeIsOrderedWithLeastZero) {
  MX_SPEC("api.device.priority.range");
  int least = kUnset, greatest = kUnset;
  ASSERT_EQ(mcDeviceGetStreamPriorityRange(&least, &greatest), mcSuccess);
  EXPECT_EQ(least, 0);
  EXPECT_NE(greatest, kUnset);
  EXPECT_LE(greatest, least);
  // Either output alone gets the same value.
  int only_least = kUnset, only_greatest = kUnset;
  EXPECT_EQ(mcDeviceGetStreamPriorityRange(&only_least, nullptr), mcSuccess);
  EXPECT_EQ(mcDeviceGetStreamPriorityRange(nullptr, &only_greatest), mcSuccess);
  EXPECT_EQ(only_least, least);
  EXPECT_EQ(only_greatest, greatest);
  EXPECT_EQ(mcDeviceGetStreamPriorityRange(nullptr, nullptr), mcSuccess);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
}

TEST_P(EveryDevice, EveryLevelIsAPriorityAStreamKeeps) {
  MX_SPEC("api.device.priority.range-implementation-defined",
          "api.stream.priority-range.unsupported-device-reports-zero");
  int least = kUnset, greatest = kUnset;
  ASSERT_EQ(mcDeviceGetStreamPriorityRange(&least, &greatest), mcSuccess);
  if (!PrioritiesSupported(GetParam())) {
    EXPECT_EQ(least, 0);
    EXPECT_EQ(greatest, 0);
  }
  ASSERT_LE(greatest, least);
  ASSERT_GE(greatest, -1000) << "an implausible number of levels";
  for (int level = greatest; level <= least; ++level) {
    mcStream_t stream = nullptr;
    ASSERT_EQ(mcStreamCreateWithPriority(&stream, mcStreamNonBlocking, level),
              mcSuccess);
    int kept = kUnset;
    EXPECT_EQ(mcStreamGetPriority(stream, &kept), mcSuccess);
    EXPECT_EQ(kept, level);
    EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
  }
  // Control: a priority past the greatest is not a level of its own.
  mcStream_t beyond = nullptr;
  ASSERT_EQ(
      mcStreamCreateWithPriority(&beyond, mcStreamNonBlocking, greatest - 1),
      mcSuccess);
  int kept = kUnset;
  EXPECT_EQ(mcStreamGetPriority(beyond, &kept), mcSuccess);
  EXPECT_EQ(kept, greatest);
  EXPECT_EQ(mcStreamDestroy(beyond), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Devices, EveryDevice, testing::Values(0, 1),
                         [](const testing::TestParamInfo<int>& info) {
                           return "Device" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace mxcts::conformance
