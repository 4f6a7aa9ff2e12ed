// Copyright mxcts authors.
//
// MACA_CACHE_MAXSIZE: the largest cache file stored (one byte more is not
// stored, and the program runs the same), its default and cap, invalid
// values, and eviction when the directory holds more than the reference's
// total.

#include <gtest/gtest.h>

#include <string>

#include "conformance/api/binary_cache/cache_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

MX_BINARY_CACHE_CHILD_ROLE()

namespace mxcts::conformance::binary_cache {
namespace {

// The size of the entry the default compilation writes, measured with the
// default limit; 0 if none was written.
off_t DefaultEntrySize() {
  CacheDirectory dir("Measure");
  CompileReport report = CompileInChild({{"MACA_CACHE_PATH", dir.path()}}, {},
                                        {"MACA_CACHE_MAXSIZE"});
  const auto files = EntryFiles(dir.path());
  if (report.result != kSuccess || files.size() != 1) return 0;
  return files.begin()->second.size;
}

// Runs the default compilation with MACA_CACHE_MAXSIZE=`max_size`; returns
// how many entries it left. The kernel's results are checked either way.
size_t EntriesWithMaxSize(const std::string& max_size) {
  CacheDirectory dir("MaxSize");
  CompileReport report = CompileInChild(
      {{"MACA_CACHE_PATH", dir.path()}, {"MACA_CACHE_MAXSIZE", max_size}});
  EXPECT_EQ(report.result, kSuccess) << "MACA_CACHE_MAXSIZE=" << max_size;
  EXPECT_EQ(report.exit_code, 0) << "MACA_CACHE_MAXSIZE=" << max_size;
  return EntryFiles(dir.path()).size();
}

TEST(CacheSize, EntryOfExactlyTheLimitIsStored) {
  MX_SPEC("api.cache.size.maxsize-limits-single-entry",
          "api.env.cache.variables");
  MX_REQUIRE_CAPABILITY("binary_cache");
  const off_t size = DefaultEntrySize();
  ASSERT_GT(size, 0);
  EXPECT_EQ(EntriesWithMaxSize(std::to_string(size)), 1u);
}

TEST(CacheSize, EntryOneByteOverTheLimitIsNotStored) {
  MX_SPEC("api.cache.size.maxsize-limits-single-entry",
          "api.env.cache.variables");
  MX_REQUIRE_CAPABILITY("binary_cache");
  const off_t size = DefaultEntrySize();
  ASSERT_GT(size, 0);
  EXPECT_EQ(EntriesWithMaxSize(std::to_string(size - 1)), 0u);
}

TEST(CacheSize, ZeroStoresNothing) {
  MX_SPEC("api.cache.size.maxsize-limits-single-entry");
  MX_REQUIRE_CAPABILITY("binary_cache");
  EXPECT_EQ(EntriesWithMaxSize("0"), 0u);
}

// A program that is not cached still compiles every time.
TEST(CacheSize, UncachedProgramCompilesAgain) {
  MX_SPEC("api.cache.size.maxsize-limits-single-entry");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Again");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()},
                                   {"MACA_CACHE_MAXSIZE", "1"}};
  CompileReport first = CompileInChild(environment);
  CompileReport second = CompileInChild(environment);
  EXPECT_EQ(first.result, kSuccess);
  EXPECT_EQ(second.result, kSuccess);
  EXPECT_EQ(second.exit_code, 0);
  EXPECT_TRUE(EntryFiles(dir.path()).empty());
}

// [api.cache.size.default-256-mib]: the default admits the small entry
// that a limit of one byte less than its size refuses (above); a default
// below the entry's size would refuse it.
TEST(CacheSize, DefaultAdmitsOrdinaryEntries) {
  MX_SPEC("api.cache.size.default-256-mib");
  MX_REQUIRE_CAPABILITY("binary_cache");
  EXPECT_GT(DefaultEntrySize(), 0);
}

// [api.cache.size.clamped-to-4-gib]: values beyond 4 GiB, up to ones no
// integer type holds, are a limit (4 GiB), not an invalid value.
class LargeMaxSize : public ::testing::TestWithParam<const char*> {};

TEST_P(LargeMaxSize, IsALimit) {
  MX_SPEC("api.cache.size.clamped-to-4-gib");
  MX_REQUIRE_CAPABILITY("binary_cache");
  EXPECT_EQ(EntriesWithMaxSize(GetParam()), 1u);
}

INSTANTIATE_TEST_SUITE_P(Values, LargeMaxSize,
                         ::testing::Values("4294967296", "4294967297",
                                           "18446744073709551616",
                                           "99999999999999999999999"));

// [api.cache.size.invalid-value-uses-default]: the default limit applies,
// which admits the entry; "0" (above) shows that a valid small value
// would not.
class InvalidMaxSize : public ::testing::TestWithParam<const char*> {};

TEST_P(InvalidMaxSize, UsesTheDefault) {
  MX_SPEC("api.cache.size.invalid-value-uses-default");
  MX_REQUIRE_CAPABILITY("binary_cache");
  EXPECT_EQ(EntriesWithMaxSize(GetParam()), 1u);
}

INSTANTIATE_TEST_SUITE_P(Values, InvalidMaxSize,
                         ::testing::Values("", "-1", "0x10", "1e3", "12MB",
                                           " 5", "five"));

// [api.cache.size.eviction-when-full]: the reference keeps the entries
// within four times the limit, removing the least recently used first.
TEST(CacheEviction, LeastRecentlyUsedEntriesGo) {
  MX_SPEC("api.cache.size.eviction-when-full");
  MX_REQUIRE_CAPABILITY("binary_cache");
  const off_t size = DefaultEntrySize();
  ASSERT_GT(size, 0);
  CacheDirectory dir("Evict");
  // Entries of other variants differ in size by a few bytes at most.
  const std::string limit = std::to_string(size + size / 8);
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()},
                                   {"MACA_CACHE_MAXSIZE", limit}};
  std::vector<std::string> names;  // in the order written
  for (int variant = 1; variant <= 6; ++variant) {
    const auto before = EntryFiles(dir.path());
    CompileRequest request;
    request.variant = variant;
    request.launch = 0;
    ASSERT_EQ(CompileInChild(environment, request).result, kSuccess);
    for (const auto& [name, state] : EntryFiles(dir.path())) {
      if (before.count(name) == 0) names.push_back(name);
    }
    ASSERT_EQ(names.size(), static_cast<size_t>(variant));
  }
  const auto left = EntryFiles(dir.path());
  off_t total = 0;
  for (const auto& [name, state] : left) total += state.size;
  EXPECT_LE(total, 4 * (size + size / 8));
  EXPECT_EQ(left.size(), 4u);
  EXPECT_EQ(left.count(names[0]), 0u);  // the oldest went first
  EXPECT_EQ(left.count(names[1]), 0u);
  EXPECT_EQ(left.count(names[5]), 1u);  // the newest stays
}

// The control: below the total nothing goes.
TEST(CacheEviction, NothingGoesBelowTheTotal) {
  MX_SPEC("api.cache.size.eviction-when-full");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("NoEvict");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()}};
  for (int variant = 1; variant <= 3; ++variant) {
    CompileRequest request;
    request.variant = variant;
    request.launch = 0;
    ASSERT_EQ(CompileInChild(environment, request).result, kSuccess);
  }
  EXPECT_EQ(EntryFiles(dir.path()).size(), 3u);
}

}  // namespace
}  // namespace mxcts::conformance::binary_cache
