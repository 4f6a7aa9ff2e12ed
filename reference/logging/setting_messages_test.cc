// Copyright mxcts authors.

#include "reference/logging/setting_messages.h"

#include "gtest/gtest.h"

namespace mxcts::logging {
namespace {

TEST(SettingMessages, InvalidValueNamesTheVariableTheValuesAndTheDefault) {
  EXPECT_EQ(InvalidSettingWarning("MACA_CACHE_DISABLE", "2", "0, 1", "0"),
            "MACA_CACHE_DISABLE=\"2\" is not a valid value (0, 1); using the "
            "default, 0");
  // An empty value is quoted as such.
  EXPECT_EQ(InvalidSettingWarning("MACA_CACHE_PATH", "", "a directory", "~"),
            "MACA_CACHE_PATH=\"\" is not a valid value (a directory); using "
            "the default, ~");
}

TEST(SettingMessages, SettingLineMarksOnlyTheDefault) {
  EXPECT_EQ(SettingLine("MACA_MODULE_LOADING", "LAZY", true),
            "environment: MACA_MODULE_LOADING=LAZY (default)");
  EXPECT_EQ(SettingLine("MACA_MODULE_LOADING", "EAGER", false),
            "environment: MACA_MODULE_LOADING=EAGER");
}

}  // namespace
}  // namespace mxcts::logging
