// Copyright mxcts authors.
//
// What the cache holds: one entry per successful compilation, named as the
// reference names them, none for a failed compilation; a corrupt entry is
// ignored and replaced.

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "conformance/api/binary_cache/cache_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

MX_BINARY_CACHE_CHILD_ROLE()

namespace mxcts::conformance::binary_cache {
namespace {

TEST(CacheContents, SuccessfulCompilationWritesOneEntry) {
  MX_SPEC("api.cache.contents.runtime-compiled-code");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("One");
  CompileReport report = CompileInChild({{"MACA_CACHE_PATH", dir.path()}});
  EXPECT_EQ(report.result, kSuccess);
  EXPECT_EQ(report.exit_code, 0);
  EXPECT_EQ(EntryFiles(dir.path()).size(), 1u);
}

// On the reference, loading the code and launching it, even with blocks of
// more than 512 threads, compiles nothing: the one entry is the
// compilation's. (The child loads and launches after compiling.)
TEST(CacheContents, LoadingAndLargeBlocksWriteNoEntry) {
  MX_SPEC("api.cache.contents.runtime-compiled-code");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("LargeBlocks");
  CompileRequest request;
  request.big_blocks = 1;
  CompileReport report =
      CompileInChild({{"MACA_CACHE_PATH", dir.path()}}, request);
  EXPECT_EQ(report.result, kSuccess);
  EXPECT_EQ(report.exit_code, 0);
  EXPECT_EQ(EntryFiles(dir.path()).size(), 1u);
}

// The control: a compilation without loading or launching leaves the same
// one entry.
TEST(CacheContents, CompilationAloneWritesOneEntry) {
  MX_SPEC("api.cache.contents.runtime-compiled-code");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("CompileOnly");
  CompileRequest request;
  request.launch = 0;
  EXPECT_EQ(CompileInChild({{"MACA_CACHE_PATH", dir.path()}}, request).result,
            kSuccess);
  EXPECT_EQ(EntryFiles(dir.path()).size(), 1u);
}

TEST(CacheContents, FailedCompilationWritesNoEntry) {
  MX_SPEC("api.cache.contents.runtime-compiled-code");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Broken");
  CompileRequest broken;
  broken.broken = 1;
  CompileReport report =
      CompileInChild({{"MACA_CACHE_PATH", dir.path()}}, broken);
  EXPECT_EQ(report.result, std::to_string(MCRTC_ERROR_COMPILATION));
  EXPECT_NE(report.log, "");
  EXPECT_TRUE(EntryFiles(dir.path()).empty());
  // Nor does the failure come from the cache the second time: the log is
  // the compiler's again.
  CompileReport again =
      CompileInChild({{"MACA_CACHE_PATH", dir.path()}}, broken);
  EXPECT_EQ(again.result, report.result);
  EXPECT_EQ(again.log, report.log);
}

// [api.cache.contents.entry-naming]: <program>-<64 hex digits>.mcbin, the
// reference's naming, as the clause states it.
struct NamingCase {
  const char* label;
  int name;              // index into ProgramNames()
  const char* expected;  // the program part of the file name
};

void PrintTo(const NamingCase& c, std::ostream* out) { *out << c.label; }

class CacheNaming : public ::testing::TestWithParam<NamingCase> {};

TEST_P(CacheNaming, EntryIsNamedAfterTheProgramAndKey) {
  MX_SPEC("api.cache.contents.entry-naming");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Naming");
  CompileRequest request;
  request.name = GetParam().name;
  CompileReport report =
      CompileInChild({{"MACA_CACHE_PATH", dir.path()}}, request);
  ASSERT_EQ(report.result, kSuccess);
  const auto files = EntryFiles(dir.path());
  ASSERT_EQ(files.size(), 1u);
  const std::regex form(std::string(GetParam().expected) +
                        "-[0-9a-f]{64}\\.mcbin");
  EXPECT_TRUE(std::regex_match(files.begin()->first, form))
      << files.begin()->first;
}

INSTANTIATE_TEST_SUITE_P(
    Names, CacheNaming,
    ::testing::Values(NamingCase{"Plain", 0, "scale\\.cu"},
                      NamingCase{"Empty", 1, "default_program"},
                      NamingCase{"PathAndSpace", 2, "other_name\\.cu"}),
    [](const ::testing::TestParamInfo<NamingCase>& info) {
      return std::string(info.param.label);
    });

// [api.cache.corrupt.entry-ignored-and-rebuilt]
enum class Damage { kEmpty, kTruncated, kGarbage, kLastByteFlipped };

void PrintTo(Damage damage, std::ostream* out) {
  const char* names[] = {"Empty", "Truncated", "Garbage", "LastByteFlipped"};
  *out << names[static_cast<int>(damage)];
}

class CorruptEntry : public ::testing::TestWithParam<Damage> {};

TEST_P(CorruptEntry, IsIgnoredAndReplaced) {
  MX_SPEC("api.cache.corrupt.entry-ignored-and-rebuilt");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Corrupt");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()}};
  CompileReport miss = CompileInChild(environment);
  ASSERT_EQ(miss.result, kSuccess);
  const auto files = EntryFiles(dir.path());
  ASSERT_EQ(files.size(), 1u);
  const std::string path = dir.path() + "/" + files.begin()->first;
  std::string bytes = ReadFile(path);
  switch (GetParam()) {
    case Damage::kEmpty:
      bytes.clear();
      break;
    case Damage::kTruncated:
      bytes.resize(bytes.size() / 2);
      break;
    case Damage::kGarbage:
      bytes.assign(bytes.size(), 'x');
      break;
    case Damage::kLastByteFlipped:
      bytes.back() = static_cast<char>(bytes.back() ^ 0x40);
      break;
  }
  WriteFile(path, bytes);
  CompileReport rebuilt = CompileInChild(environment);
  EXPECT_EQ(rebuilt.result, kSuccess);
  EXPECT_EQ(rebuilt.exit_code, 0) << "the program's results changed";
  // The entry was replaced by a good one, which the next run uses as it is.
  const auto replaced = EntryFiles(dir.path());
  ASSERT_EQ(replaced.size(), 1u);
  EXPECT_NE(ReadFile(path), bytes);
  CompileReport hit = CompileInChild(environment);
  EXPECT_EQ(hit.result, kSuccess);
  EXPECT_TRUE(SameCode(hit.code, rebuilt.code));
  EXPECT_EQ(EntryFiles(dir.path()), replaced);
}

INSTANTIATE_TEST_SUITE_P(Kinds, CorruptEntry,
                         ::testing::Values(Damage::kEmpty, Damage::kTruncated,
                                           Damage::kGarbage,
                                           Damage::kLastByteFlipped),
                         [](const ::testing::TestParamInfo<Damage>& info) {
                           std::ostringstream name;
                           PrintTo(info.param, &name);
                           return name.str();
                         });

// The control: an undamaged entry is used as it is (the same file stays).
TEST(CorruptEntryControl, GoodEntryIsKept) {
  MX_SPEC("api.cache.corrupt.entry-ignored-and-rebuilt");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Good");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()}};
  ASSERT_EQ(CompileInChild(environment).result, kSuccess);
  const auto files = EntryFiles(dir.path());
  const std::string path = dir.path() + "/" + files.begin()->first;
  const std::string bytes = ReadFile(path);
  WriteFile(path, bytes);  // rewritten with the same bytes, same inode
  ASSERT_EQ(CompileInChild(environment).result, kSuccess);
  EXPECT_EQ(EntryFiles(dir.path()), files);
  EXPECT_EQ(ReadFile(path), bytes);
}

}  // namespace
}  // namespace mxcts::conformance::binary_cache
