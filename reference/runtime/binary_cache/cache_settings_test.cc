// Copyright mxcts authors.
//
// Parsing MACA_CACHE_DISABLE, MACA_CACHE_PATH and MACA_CACHE_MAXSIZE: every
// valid form, the limits and the invalid values, each of which warns and
// keeps the default.

#include "reference/runtime/binary_cache/cache_settings.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mxcts::runtime {
namespace {

BinaryCacheEnvironment Home() {
  BinaryCacheEnvironment environment;
  environment.home = "/home/user";
  environment.working_directory = "/work/dir";
  return environment;
}

TEST(CacheSettings, DefaultsWhenUnset) {
  const BinaryCacheSettings settings = ParseBinaryCacheSettings(Home());
  EXPECT_TRUE(settings.enabled);
  EXPECT_EQ(settings.directory, "/home/user/.metax/shadercache");
  EXPECT_EQ(settings.max_entry_bytes, 268435456u);
  EXPECT_EQ(settings.max_total_bytes, 4u * 268435456u);
  EXPECT_TRUE(settings.directory_is_default);
  EXPECT_TRUE(settings.warnings.empty());
}

TEST(CacheSettings, DisableOneDisables) {
  BinaryCacheEnvironment environment = Home();
  environment.disable = "1";
  const BinaryCacheSettings settings = ParseBinaryCacheSettings(environment);
  EXPECT_FALSE(settings.enabled);
  EXPECT_TRUE(settings.warnings.empty());
}

TEST(CacheSettings, DisableZeroEnables) {
  BinaryCacheEnvironment environment = Home();
  environment.disable = "0";
  const BinaryCacheSettings settings = ParseBinaryCacheSettings(environment);
  EXPECT_TRUE(settings.enabled);
  EXPECT_TRUE(settings.warnings.empty());
}

class InvalidDisable : public ::testing::TestWithParam<const char*> {};

TEST_P(InvalidDisable, WarnsAndStaysEnabled) {
  BinaryCacheEnvironment environment = Home();
  environment.disable = GetParam();
  const BinaryCacheSettings settings = ParseBinaryCacheSettings(environment);
  EXPECT_TRUE(settings.enabled);
  ASSERT_EQ(settings.warnings.size(), 1u);
  EXPECT_NE(settings.warnings[0].find("MACA_CACHE_DISABLE"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Values, InvalidDisable,
                         ::testing::Values("", "2", "yes", "true", " 1", "01"));

TEST(CacheSettings, PathVariableNamesTheDirectory) {
  BinaryCacheEnvironment environment = Home();
  environment.path = "/var/cache/mine";
  EXPECT_EQ(ParseBinaryCacheSettings(environment).directory, "/var/cache/mine");
  EXPECT_FALSE(ParseBinaryCacheSettings(environment).directory_is_default);
}

TEST(CacheSettings, RelativePathIsTakenAgainstTheWorkingDirectory) {
  BinaryCacheEnvironment environment = Home();
  environment.path = "cache";
  EXPECT_EQ(ParseBinaryCacheSettings(environment).directory, "/work/dir/cache");
}

TEST(CacheSettings, EmptyPathWarnsAndUsesTheDefault) {
  BinaryCacheEnvironment environment = Home();
  environment.path = "";
  const BinaryCacheSettings settings = ParseBinaryCacheSettings(environment);
  EXPECT_EQ(settings.directory, "/home/user/.metax/shadercache");
  EXPECT_EQ(settings.warnings.size(), 1u);
}

TEST(CacheSettings, PathWithoutHomeIsEnough) {
  BinaryCacheEnvironment environment;
  environment.home = "";
  environment.path = "/tmp/c";
  const BinaryCacheSettings settings = ParseBinaryCacheSettings(environment);
  EXPECT_TRUE(settings.enabled);
  EXPECT_EQ(settings.directory, "/tmp/c");
}

struct SizeCase {
  const char* text;
  uint64_t bytes;
};

class MaxSize : public ::testing::TestWithParam<SizeCase> {};

TEST_P(MaxSize, Parses) {
  BinaryCacheEnvironment environment = Home();
  environment.max_size = GetParam().text;
  const BinaryCacheSettings settings = ParseBinaryCacheSettings(environment);
  EXPECT_EQ(settings.max_entry_bytes, GetParam().bytes);
  EXPECT_EQ(settings.max_total_bytes, 4 * GetParam().bytes);
  EXPECT_TRUE(settings.warnings.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Values, MaxSize,
    ::testing::Values(SizeCase{"0", 0}, SizeCase{"1", 1},
                      SizeCase{"1048576", 1048576},
                      SizeCase{"268435456", 268435456},
                      SizeCase{"4294967295", 4294967295},
                      SizeCase{"4294967296", 4294967296},
                      // [api.cache.size.clamped-to-4-gib]
                      SizeCase{"4294967297", 4294967296},
                      SizeCase{"99999999999999999999999999", 4294967296}));

class InvalidMaxSize : public ::testing::TestWithParam<const char*> {};

TEST_P(InvalidMaxSize, WarnsAndUsesTheDefault) {
  BinaryCacheEnvironment environment = Home();
  environment.max_size = GetParam();
  const BinaryCacheSettings settings = ParseBinaryCacheSettings(environment);
  EXPECT_EQ(settings.max_entry_bytes, kDefaultCacheMaxEntryBytes);
  ASSERT_EQ(settings.warnings.size(), 1u);
  EXPECT_NE(settings.warnings[0].find("MACA_CACHE_MAXSIZE"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Values, InvalidMaxSize,
                         ::testing::Values("", "-1", "1e6", " 42", "42 ",
                                           "0x100", "12MB", "abc"));

// --- The debug lines: one per variable, the setting in force. ---

TEST(CacheSettingLines, DefaultsAreMarked) {
  const BinaryCacheSettings settings = ParseBinaryCacheSettings(Home());
  EXPECT_EQ(settings.setting_lines,
            (std::vector<std::string>{
                "environment: MACA_CACHE_DISABLE=0 (default)",
                "environment: MACA_CACHE_MAXSIZE=268435456 (default)",
                "environment: MACA_CACHE_PATH=/home/user/.metax/shadercache "
                "(default)"}));
}

TEST(CacheSettingLines, SetValuesAreShownAsInForce) {
  BinaryCacheEnvironment environment = Home();
  environment.disable = "1";
  environment.max_size = "5000000000";  // clamped
  environment.path = "relative/cache";
  const BinaryCacheSettings settings = ParseBinaryCacheSettings(environment);
  EXPECT_EQ(settings.setting_lines,
            (std::vector<std::string>{
                "environment: MACA_CACHE_DISABLE=1",
                "environment: MACA_CACHE_MAXSIZE=4294967296",
                "environment: MACA_CACHE_PATH=/work/dir/relative/cache"}));
}

TEST(CacheSettingLines, InvalidValuesShowTheDefault) {
  BinaryCacheEnvironment environment = Home();
  environment.disable = "yes";
  environment.max_size = "1M";
  environment.path = "";
  const BinaryCacheSettings settings = ParseBinaryCacheSettings(environment);
  EXPECT_EQ(settings.setting_lines,
            (std::vector<std::string>{
                "environment: MACA_CACHE_DISABLE=0 (default)",
                "environment: MACA_CACHE_MAXSIZE=268435456 (default)",
                "environment: MACA_CACHE_PATH=/home/user/.metax/shadercache "
                "(default)"}));
  // Each warning names the variable, the value as set and the default, in
  // the words of the runtime's other variables.
  EXPECT_EQ(settings.warnings,
            (std::vector<std::string>{
                "MACA_CACHE_DISABLE=\"yes\" is not a valid value (0, 1); using "
                "the default, 0",
                "MACA_CACHE_MAXSIZE=\"1M\" is not a valid value (a decimal "
                "number of bytes); using the default, 268435456",
                "MACA_CACHE_PATH=\"\" is not a valid value (a directory); "
                "using the default, ~/.metax/shadercache"}));
}

}  // namespace
}  // namespace mxcts::runtime
