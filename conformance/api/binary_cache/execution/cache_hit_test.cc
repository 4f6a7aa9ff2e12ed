// Copyright mxcts authors.
//
// Hits and misses seen from outside: a second run of the same compilation
// finds the first run's entry and writes none, gives the same code and log,
// and needs no compiler; any change of the input misses.

#include <gtest/gtest.h>

#include <string>

#include "conformance/api/binary_cache/cache_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

MX_BINARY_CACHE_CHILD_ROLE()

namespace mxcts::conformance::binary_cache {
namespace {

TEST(CacheHit, SecondRunUsesTheEntry) {
  MX_SPEC("api.cache.hit.second-run-uses-entry");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Second");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()}};
  CompileReport first = CompileInChild(environment);
  ASSERT_EQ(first.result, kSuccess);
  const auto after_first = EntryFiles(dir.path());
  ASSERT_EQ(after_first.size(), 1u);
  CompileReport second = CompileInChild(environment);
  EXPECT_EQ(second.result, kSuccess);
  EXPECT_EQ(second.exit_code, 0);
  // The same file, not a new one written over it.
  EXPECT_EQ(EntryFiles(dir.path()), after_first);
}

// The control: a run with another program writes a new entry, so the
// comparison above can fail.
TEST(CacheHit, OtherProgramWritesANewEntry) {
  MX_SPEC("api.cache.hit.second-run-uses-entry",
          "api.cache.contents.keyed-by-input");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Other");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()}};
  ASSERT_EQ(CompileInChild(environment).result, kSuccess);
  CompileRequest other;
  other.variant = 1;
  EXPECT_EQ(CompileInChild(environment, other).result, kSuccess);
  EXPECT_EQ(EntryFiles(dir.path()).size(), 2u);
}

TEST(CacheHit, HitGivesTheSameCodeAndLog) {
  MX_SPEC("api.cache.hit.same-results-as-miss");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Same");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()}};
  CompileReport miss = CompileInChild(environment);
  CompileReport hit = CompileInChild(environment);
  ASSERT_EQ(miss.result, kSuccess);
  EXPECT_EQ(hit.result, kSuccess);
  EXPECT_EQ(hit.exit_code, 0) << "the cached code computed a wrong result";
  EXPECT_FALSE(hit.code.empty());
  EXPECT_TRUE(SameCode(hit.code, miss.code)) << "the hit gave other code";
  EXPECT_EQ(hit.log, miss.log);
}

// The results of the hit equal those of a run without the cache: the same
// result code and log, and code that computes the same values (checked in
// the children).
TEST(CacheHit, HitGivesWhatADisabledCacheGives) {
  MX_SPEC("api.cache.hit.same-results-as-miss");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("SameAsDisabled");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()}};
  ASSERT_EQ(CompileInChild(environment).result, kSuccess);
  CompileReport hit = CompileInChild(environment);
  CompileReport uncached = CompileInChild(
      {{"MACA_CACHE_PATH", dir.path()}, {"MACA_CACHE_DISABLE", "1"}});
  EXPECT_EQ(hit.result, uncached.result);
  EXPECT_EQ(hit.log, uncached.log);
  EXPECT_EQ(hit.exit_code, 0);
  EXPECT_EQ(uncached.exit_code, 0);
}

// [api.cache.hit.no-compilation]: with TMPDIR naming no directory the
// compiler cannot run; the control shows that a miss then fails.
TEST(CacheHit, MissNeedsTheCompiler) {
  MX_SPEC("api.cache.hit.no-compilation");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("NoCompilerMiss");
  CompileRequest compile_only;
  compile_only.launch = 0;
  CompileReport report = CompileInChild(
      {{"MACA_CACHE_PATH", dir.path()}, {"TMPDIR", dir.path() + "/missing"}},
      compile_only);
  if (report.result == kSuccess) {
    GTEST_SKIP() << "unsupported: this backend compiles without TMPDIR, so "
                    "the compiler cannot be kept from running this way";
  }
  EXPECT_TRUE(EntryFiles(dir.path()).empty());
}

TEST(CacheHit, HitNeedsNoCompiler) {
  MX_SPEC("api.cache.hit.no-compilation");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("NoCompilerHit");
  CompileRequest compile_only;
  compile_only.launch = 0;
  CompileReport miss =
      CompileInChild({{"MACA_CACHE_PATH", dir.path()}}, compile_only);
  ASSERT_EQ(miss.result, kSuccess);
  CompileReport hit = CompileInChild(
      {{"MACA_CACHE_PATH", dir.path()}, {"TMPDIR", dir.path() + "/missing"}},
      compile_only);
  EXPECT_EQ(hit.result, kSuccess);
  EXPECT_TRUE(SameCode(hit.code, miss.code)) << "the hit gave other code";
}

// [api.cache.contents.keyed-by-input]: the source, the program's name, an
// option and a header's text each select another entry.
struct InputChange {
  const char* name;
  CompileRequest request;
};

void PrintTo(const InputChange& change, std::ostream* out) {
  *out << change.name;
}

class CacheKey : public ::testing::TestWithParam<InputChange> {};

TEST_P(CacheKey, ChangedInputMisses) {
  MX_SPEC("api.cache.contents.keyed-by-input");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Key");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()}};
  CompileRequest base;
  base.header = 1;
  ASSERT_EQ(CompileInChild(environment, base).result, kSuccess);
  const auto before = EntryFiles(dir.path());
  ASSERT_EQ(before.size(), 1u);
  CompileReport changed = CompileInChild(environment, GetParam().request);
  EXPECT_EQ(changed.result, kSuccess);
  EXPECT_EQ(changed.exit_code, 0) << "a stale entry gave the wrong result";
  const auto after = EntryFiles(dir.path());
  EXPECT_EQ(after.size(), 2u);
  // The first entry is untouched.
  for (const auto& [name, state] : before) {
    ASSERT_EQ(after.count(name), 1u);
    EXPECT_EQ(after.at(name), state);
  }
}

CompileRequest Changed(int variant, int name, int option, int header) {
  CompileRequest r;
  r.variant = variant;
  r.name = name;
  r.option = option;
  r.header = header;
  return r;
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, CacheKey,
    ::testing::Values(InputChange{"Source", Changed(1, 0, 0, 1)},
                      InputChange{"ProgramName", Changed(0, 3, 0, 1)},
                      InputChange{"Option", Changed(0, 0, 1, 1)},
                      InputChange{"HeaderText", Changed(0, 0, 0, 2)},
                      InputChange{"NoHeader", Changed(0, 0, 0, 0)}),
    [](const ::testing::TestParamInfo<InputChange>& info) {
      return std::string(info.param.name);
    });

// The control of ChangedInputMisses: the same inputs again hit.
TEST(CacheKeyControl, SameInputsHit) {
  MX_SPEC("api.cache.contents.keyed-by-input");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("KeySame");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()}};
  CompileRequest base;
  base.header = 1;
  ASSERT_EQ(CompileInChild(environment, base).result, kSuccess);
  const auto before = EntryFiles(dir.path());
  EXPECT_EQ(CompileInChild(environment, base).result, kSuccess);
  EXPECT_EQ(EntryFiles(dir.path()), before);
}

}  // namespace
}  // namespace mxcts::conformance::binary_cache
