// Copyright mxcts authors.
//
// Tests of MACA_MPS_MODE: the two values, the invalid ones beside them, and
// that the process's mode is the value at initialization. Run with
// MACA_MPS_MODE=1 (BUILD).

#include "reference/runtime/process/mps_mode.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "reference/runtime/devices/device_table.h"

namespace mxcts::runtime {
namespace {

TEST(ParseMpsMode, AcceptsZeroAndOne) {
  // [api.mps.mode.values]
  EXPECT_EQ(ParseMpsMode("0"), MpsMode::kExclusive);
  EXPECT_EQ(ParseMpsMode("1"), MpsMode::kShared);
}

TEST(ParseMpsMode, UnsetIsExclusive) {
  EXPECT_EQ(ParseMpsMode(nullptr), MpsMode::kExclusive);
}

class InvalidMpsMode : public testing::TestWithParam<const char*> {};

TEST_P(InvalidMpsMode, IsExclusive) {
  // [api.mps.mode.invalid-value-implementation-defined]
  EXPECT_EQ(ParseMpsMode(GetParam()), MpsMode::kExclusive);
}

INSTANTIATE_TEST_SUITE_P(Values, InvalidMpsMode,
                         testing::Values("", "2", "-1", "01", "10", " 1", "1 ",
                                         "one", "0x1", "shared"));

TEST(MpsModeName, NamesBoth) {
  EXPECT_STREQ(MpsModeName(MpsMode::kExclusive), "exclusive");
  EXPECT_STREQ(MpsModeName(MpsMode::kShared), "shared");
}

TEST(ProcessMpsMode, IsReadAtInitialization) {
  // [api.env.general.read-at-initialization]
  ASSERT_STREQ(getenv("MACA_MPS_MODE"), "1");
  // Making the device table initializes the runtime; the variable changes
  // after that, before the mode is first asked for.
  DeviceTable::Get();
  setenv("MACA_MPS_MODE", "0", 1);
  EXPECT_EQ(ProcessMpsMode(), MpsMode::kShared);
  // Control: the parse of the new value would have given exclusive mode.
  EXPECT_EQ(ParseMpsMode(getenv("MACA_MPS_MODE")), MpsMode::kExclusive);
}

}  // namespace
}  // namespace mxcts::runtime
