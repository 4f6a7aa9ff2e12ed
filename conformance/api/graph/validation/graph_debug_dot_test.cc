// Copyright mxcts authors.
//
// Conformance: the errors of mcGraphDebugDotPrint (docs/spec/api-graph.md,
// "Debug output"): null arguments, and paths that cannot be opened for
// writing, which write nothing; beside each, the same graph written to a
// path that can be.

#include <mc_runtime.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "conformance/api/graph/graph_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::graph {
namespace {

bool Exists(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

class DotErrors : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    ASSERT_EQ(graph_.status(), mcSuccess);
    mcGraphNode_t a = nullptr, b = nullptr;
    ASSERT_EQ(mcGraphAddEmptyNode(&a, graph_.get(), nullptr, 0), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&b, graph_.get(), &a, 1), mcSuccess);
    directory_ = testing::TempDir() + "/dot_errors_" +
                 testing::UnitTest::GetInstance()->current_test_info()->name();
    mkdir(directory_.c_str(), 0755);
    good_ = directory_ + "/graph.dot";
    std::remove(good_.c_str());
  }
  void ExpectControlWrites() {
    EXPECT_EQ(mcGraphDebugDotPrint(graph_.get(), good_.c_str(), 0), mcSuccess);
    struct stat info;
    ASSERT_EQ(stat(good_.c_str(), &info), 0);
    EXPECT_GT(info.st_size, 0);
  }

  ScopedGraph graph_;
  std::string directory_;
  std::string good_;
};

TEST_F(DotErrors, NullGraphIsInvalidValue) {
  MX_SPEC("api.graph.debug-dot.null-argument-invalid-value");
  EXPECT_EQ(mcGraphDebugDotPrint(nullptr, good_.c_str(), 0),
            mcErrorInvalidValue);
  EXPECT_FALSE(Exists(good_));
  ExpectControlWrites();
}

TEST_F(DotErrors, NullPathIsInvalidValue) {
  MX_SPEC("api.graph.debug-dot.null-argument-invalid-value");
  EXPECT_EQ(mcGraphDebugDotPrint(graph_.get(), nullptr, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(
      mcGraphDebugDotPrint(graph_.get(), nullptr, mcGraphDebugDotFlagsVerbose),
      mcErrorInvalidValue);
  ExpectControlWrites();
}

TEST_F(DotErrors, MissingDirectoryIsOperatingSystemError) {
  MX_SPEC("api.graph.debug-dot.unwritable-path-error");
  const std::string missing = directory_ + "/no_such_directory/graph.dot";
  EXPECT_EQ(mcGraphDebugDotPrint(graph_.get(), missing.c_str(), 0),
            mcErrorOperatingSystem);
  EXPECT_FALSE(Exists(missing));
  EXPECT_FALSE(Exists(directory_ + "/no_such_directory"));
  mcGetLastError();
  ExpectControlWrites();
}

TEST_F(DotErrors, PathThatIsADirectoryIsOperatingSystemError) {
  MX_SPEC("api.graph.debug-dot.unwritable-path-error");
  EXPECT_EQ(mcGraphDebugDotPrint(graph_.get(), directory_.c_str(), 0),
            mcErrorOperatingSystem);
  struct stat info;
  ASSERT_EQ(stat(directory_.c_str(), &info), 0);
  EXPECT_TRUE(S_ISDIR(info.st_mode));
  mcGetLastError();
  ExpectControlWrites();
}

TEST_F(DotErrors, PathUnderARegularFileIsOperatingSystemError) {
  MX_SPEC("api.graph.debug-dot.unwritable-path-error");
  const std::string file = directory_ + "/plain_file";
  std::ofstream(file) << "not a directory\n";
  const std::string under = file + "/graph.dot";
  EXPECT_EQ(mcGraphDebugDotPrint(graph_.get(), under.c_str(), 0),
            mcErrorOperatingSystem);
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "not a directory");
  mcGetLastError();
  ExpectControlWrites();
}

TEST_F(DotErrors, EmptyPathIsAnError) {
  MX_SPEC("api.graph.debug-dot.unwritable-path-error");
  const mcError_t result = mcGraphDebugDotPrint(graph_.get(), "", 0);
  EXPECT_EQ(result, mcErrorOperatingSystem);
  mcGetLastError();
  ExpectControlWrites();
}

}  // namespace
}  // namespace mxcts::conformance::graph
