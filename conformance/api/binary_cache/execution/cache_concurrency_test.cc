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
    EXPECT_EQ(report.exit_code, 0) << "the kernel computed a wrong result";
  }
  // One entry, and no temporary file left behind.
  EXPECT_EQ(EntryFiles(dir.path()).size(), 1u);
  EXPECT_EQ(AllNames(dir.path()).size(), 1u);
  // The entry they left is whole, one of the two results: a later run
  // uses it as it is.
  const auto files = EntryFiles(dir.path());
  CompileReport later = CompileInChild(environment);
  EXPECT_EQ(later.result, kSuccess);
  EXPECT_EQ(later.exit_code, 0);
  EXPECT_TRUE(SameCode(later.code, reports[0].code) ||
              SameCode(later.code, reports[1].code))
      << "the entry holds neither process's code";
  EXPECT_EQ(EntryFiles(dir.path()), files);
}

// More processes, some finding the entry as others write it: every one
// succeeds, and one whole entry remains.
TEST(CacheConcurrency, ManyProcessesShareOneDirectory) {
  MX_SPEC("api.cache.concurrent.processes-share-safely");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("Many");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()}};
  std::vector<CompileReport> reports = CompileAtOnce(environment, 4);
  for (const CompileReport& report : reports) {
    EXPECT_EQ(report.result, kSuccess);
    EXPECT_EQ(report.exit_code, 0);
  }
  EXPECT_EQ(AllNames(dir.path()).size(), 1u);
  const auto files = EntryFiles(dir.path());
  CompileReport later = CompileInChild(environment);
  EXPECT_EQ(later.exit_code, 0);
  EXPECT_EQ(EntryFiles(dir.path()), files);
}

// One process stores each program it compiles: a second program after
// the first gets an entry of its own, which a later process finds.
TEST(CacheConcurrency, OneProcessStoresEachOfItsPrograms) {
  MX_SPEC("api.cache.concurrent.processes-share-safely",
          "api.cache.contents.keyed-by-input");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory dir("TwoPrograms");
  const Environment environment = {{"MACA_CACHE_PATH", dir.path()}};
  CompileRequest request;
  request.variant = 1;
  request.then_variant = 2;
  const CompileReport first = CompileInChild(environment, request);
  EXPECT_EQ(first.result, kSuccess);
  EXPECT_EQ(first.exit_code, 0);
  EXPECT_EQ(EntryFiles(dir.path()).size(), 2u);
  // Control: the second program alone is the entry already there.
  const auto files = EntryFiles(dir.path());
  CompileRequest later_request;
  later_request.variant = 2;
  const CompileReport later = CompileInChild(environment, later_request);
  EXPECT_EQ(later.exit_code, 0);
  EXPECT_EQ(EntryFiles(dir.path()), files);
}

// The control: processes at once with different directories each leave an
// entry, so counting one entry above says they shared one.
TEST(CacheConcurrency, SeparateDirectoriesEachGetAnEntry) {
  MX_SPEC("api.cache.concurrent.same-program-both-succeed");
  MX_REQUIRE_CAPABILITY("binary_cache");
  CacheDirectory first("SeparateFirst");
  CacheDirectory second("SeparateSecond");
  CompileRequest request;
  request.wait_for_go = 1;
  std::unique_ptr<ChildProcess> a =
      StartCompile({{"MACA_CACHE_PATH", first.path()}}, request);
  std::unique_ptr<ChildProcess> b =
      StartCompile({{"MACA_CACHE_PATH", second.path()}}, request);
  a->Send("go");
  b->Send("go");
  EXPECT_EQ(FinishCompile(*a).result, kSuccess);
  EXPECT_EQ(FinishCompile(*b).result, kSuccess);
  EXPECT_EQ(EntryFiles(first.path()).size() + EntryFiles(second.path()).size(),
            2u);
}

}  // namespace
}  // namespace mxcts::conformance::binary_cache
