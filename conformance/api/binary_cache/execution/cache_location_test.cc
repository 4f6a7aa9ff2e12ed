// Copyright mxcts authors.
//
// Where the cache lives: the default directory under the home directory,
// MACA_CACHE_PATH (absolute and relative), and a path the runtime cannot
// use, with which programs still compile and run.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "conformance/api/binary_cache/cache_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

MX_BINARY_CACHE_CHILD_ROLE()

namespace mxcts::conformance::binary_cache {
namespace {

TEST(CacheLocation, DefaultDirectoryUnderHome) {
  MX_SPEC("api.cache.location.default-directory",
          "api.cache.disable.zero-or-unset-enables");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory home("Home");
  const std::string cache = home.path() + "/.metax/shadercache";
  CompileReport report = CompileInChild(
      {{"HOME", home.path()}}, {}, {"MACA_CACHE_PATH", "MACA_CACHE_DISABLE"});
  EXPECT_EQ(report.result, kSuccess);
  EXPECT_EQ(report.exit_code, 0);
  EXPECT_EQ(EntryFiles(cache).size(), 1u) << "no entry in " << cache;
}

// The control: with the cache disabled the same run makes no directory,
// so the entry above was the cache's doing.
TEST(CacheLocation, DefaultDirectoryNotMadeWhenDisabled) {
  MX_SPEC("api.cache.location.default-directory",
          "api.cache.disable.value-one-disables");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory home("HomeDisabled");
  CompileReport report =
      CompileInChild({{"HOME", home.path()}, {"MACA_CACHE_DISABLE", "1"}}, {},
                     {"MACA_CACHE_PATH"});
  EXPECT_EQ(report.result, kSuccess);
  EXPECT_EQ(report.exit_code, 0);
  EXPECT_FALSE(PathExists(home.path() + "/.metax/shadercache"));
}

TEST(CacheLocation, CachePathVariableNamesTheDirectory) {
  MX_SPEC("api.cache.location.cache-path-variable", "api.env.cache.variables");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory home("PathHome");
  CacheDirectory dir("Path");
  CompileReport report =
      CompileInChild({{"HOME", home.path()}, {"MACA_CACHE_PATH", dir.path()}},
                     {}, {"MACA_CACHE_DISABLE"});
  EXPECT_EQ(report.result, kSuccess);
  EXPECT_EQ(report.exit_code, 0);
  EXPECT_EQ(EntryFiles(dir.path()).size(), 1u);
  EXPECT_FALSE(PathExists(home.path() + "/.metax"));
}

// A directory that does not exist yet is made, with its parents.
TEST(CacheLocation, MissingDirectoryIsCreated) {
  MX_SPEC("api.cache.location.cache-path-variable");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Missing");
  const std::string cache = dir.path() + "/a/b/cache";
  CompileReport report = CompileInChild({{"MACA_CACHE_PATH", cache}});
  EXPECT_EQ(report.result, kSuccess);
  EXPECT_EQ(EntryFiles(cache).size(), 1u);
}

TEST(CacheLocation, RelativePathIsTakenAgainstTheWorkingDirectory) {
  MX_SPEC("api.cache.location.relative-path");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Relative");
  char previous[4096];
  ASSERT_NE(getcwd(previous, sizeof previous), nullptr);
  ASSERT_EQ(chdir(dir.path().c_str()), 0);
  CompileReport report = CompileInChild({{"MACA_CACHE_PATH", "relative"}});
  ASSERT_EQ(chdir(previous), 0);
  EXPECT_EQ(report.result, kSuccess);
  EXPECT_EQ(EntryFiles(dir.path() + "/relative").size(), 1u);
}

// [api.cache.location.unusable-path-disables]: a regular file, a path
// through a regular file, and (for users other than root) a read-only
// directory.
TEST(CacheLocation, RegularFileAsCachePath) {
  MX_SPEC("api.cache.location.unusable-path-disables");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("File");
  const std::string file = dir.path() + "/file";
  WriteFile(file, "not a directory");
  CompileReport report = CompileInChild({{"MACA_CACHE_PATH", file}});
  EXPECT_EQ(report.result, kSuccess);
  EXPECT_EQ(report.exit_code, 0) << "the kernel did not run correctly";
  EXPECT_EQ(ReadFile(file), "not a directory");
  // And again: nothing was cached, and nothing fails.
  report = CompileInChild({{"MACA_CACHE_PATH", file}});
  EXPECT_EQ(report.result, kSuccess);
  EXPECT_EQ(report.exit_code, 0);
}

TEST(CacheLocation, PathThroughARegularFile) {
  MX_SPEC("api.cache.location.unusable-path-disables");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("ThroughFile");
  WriteFile(dir.path() + "/file", "x");
  CompileReport report =
      CompileInChild({{"MACA_CACHE_PATH", dir.path() + "/file/cache"}});
  EXPECT_EQ(report.result, kSuccess);
  EXPECT_EQ(report.exit_code, 0);
  EXPECT_EQ(AllNames(dir.path()), std::vector<std::string>{"file"});
}

TEST(CacheLocation, ReadOnlyDirectory) {
  MX_SPEC("api.cache.location.unusable-path-disables");
  MX_REQUIRE_CAPABILITY("binary_cache");
  if (geteuid() == 0) {
    GTEST_SKIP() << "running as root, which may write into a read-only "
                    "directory: the directory would not be unusable";
  }
  CacheDirectory dir("ReadOnly");
  const std::string cache = dir.path() + "/cache";
  ASSERT_EQ(mkdir(cache.c_str(), 0555), 0);
  CompileReport report = CompileInChild({{"MACA_CACHE_PATH", cache}});
  EXPECT_EQ(report.result, kSuccess);
  EXPECT_EQ(report.exit_code, 0);
  EXPECT_TRUE(AllNames(cache).empty());
}

}  // namespace
}  // namespace mxcts::conformance::binary_cache
