// Copyright mxcts authors.
//
// Processes sharing a cache directory: two that compile the same program
// at the same moment both succeed with the same code and leave one good
// entry; no partial file is ever visible under an entry's name.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "conformance/api/binary_cache/cache_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

MX_BINARY_CACHE_CHILD_ROLE()

namespace mxcts::conformance::binary_cache {
namespace {

// Starts `count` children that compile the same program once each has
// been told "go", tells them all at once, and collects their reports.
std::vector<CompileReport> CompileAtOnce(const Environment& environment,
                                         int count) {
  CompileRequest request;
  request.wait_for_go = 1;
  std::vector<std::unique_ptr<ChildProcess>> children;
  for (int i = 0; i < count; ++i) {
    children.push_back(StartCompile(environment, request));
  }
  for (auto& child : children) child->Send("go");
  std::vector<CompileReport> reports;
  for (auto& child : children) reports.push_back(FinishCompile(*child));
  return reports;
}

TEST(CacheConcurrency, TwoProcessesCompilingTheSameProgramBothSucceed) {
  MX_SPEC("api.cache.concurrent.same-program-both-succeed",
          "api.cache.concurrent.processes-share-safely");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Two");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()}};
  std::vector<CompileReport> reports = CompileAtOnce(environment, 2);
  for (const CompileReport& report : reports) {
    EXPECT_EQ(report.result, kSuccess);
    EXPECT_EQ(report.exit_code, 0);
  }
  EXPECT_EQ(reports[0].code, reports[1].code);
  // One entry, and no temporary file left behind.
  EXPECT_EQ(EntryFiles(dir.path()).size(), 1u);
  EXPECT_EQ(AllNames(dir.path()).size(), 1u);
  // The entry they left is whole: a later run uses it as it is.
  const auto files = EntryFiles(dir.path());
  CompileReport later = CompileInChild(environment);
  EXPECT_EQ(later.result, kSuccess);
  EXPECT_EQ(later.code, reports[0].code);
  EXPECT_EQ(EntryFiles(dir.path()), files);
}

// More processes, some finding the entry as others write it: every one
// succeeds with the same code.
TEST(CacheConcurrency, ManyProcessesShareOneDirectory) {
  MX_SPEC("api.cache.concurrent.processes-share-safely");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Many");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()}};
  std::vector<CompileReport> reports = CompileAtOnce(environment, 4);
  for (const CompileReport& report : reports) {
    EXPECT_EQ(report.result, kSuccess);
    EXPECT_EQ(report.exit_code, 0);
    EXPECT_EQ(report.code, reports[0].code);
  }
  EXPECT_EQ(AllNames(dir.path()).size(), 1u);
}

// The control: each process alone gives the code the concurrent ones gave.
TEST(CacheConcurrency, AloneGivesTheSameCode) {
  MX_SPEC("api.cache.concurrent.same-program-both-succeed");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Alone");
  CacheDirectory other("AloneOther");
  CompileReport alone = CompileInChild({{"MACA_CACHE_PATH", dir.path()}});
  std::vector<CompileReport> reports =
      CompileAtOnce({{"MACA_CACHE_PATH", other.path()}}, 2);
  EXPECT_EQ(alone.result, kSuccess);
  EXPECT_EQ(reports[0].code, alone.code);
}

}  // namespace
}  // namespace mxcts::conformance::binary_cache
