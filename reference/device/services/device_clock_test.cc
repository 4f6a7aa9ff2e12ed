// Copyright mxcts authors.

#include "reference/device/services/device_clock.h"

#include "gtest/gtest.h"

namespace mxcts::device_internal {
namespace {

TEST(DeviceClock, EveryReadAdvancesByOne) {
  const long long before = PeekDeviceClock();
  const long long first = __mc_dev_clock64();
  const long long second = __mc_dev_clock64();
  EXPECT_EQ(first, before + 1);
  EXPECT_EQ(second, first + 1);
  EXPECT_EQ(PeekDeviceClock(), second);
}

TEST(DeviceClock, NanosleepAdvancesByItsArgument) {
  const long long start = __mc_dev_clock64();
  __mc_dev_nanosleep(1000);
  EXPECT_EQ(__mc_dev_clock64() - start, 1001);
  // Control: a sleep of zero adds nothing but the read.
  const long long again = __mc_dev_clock64();
  __mc_dev_nanosleep(0);
  EXPECT_EQ(__mc_dev_clock64() - again, 1);
}

}  // namespace
}  // namespace mxcts::device_internal
