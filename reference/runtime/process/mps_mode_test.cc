// Copyright mxcts authors.
//
// Tests of MACA_MPS_MODE: the process's mode is the value at
// initialization, and the modes' names. Run with MACA_MPS_MODE=1 (BUILD).
// The values, valid and invalid, are parsed with the other variables
// (environment_settings_test.cc) and checked in fresh processes by
// conformance/api/mps.

#include "reference/runtime/process/mps_mode.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "reference/runtime/devices/device_table.h"

namespace mxcts::runtime {
namespace {

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
}

}  // namespace
}  // namespace mxcts::runtime
