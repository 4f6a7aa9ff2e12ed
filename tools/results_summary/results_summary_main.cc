// results_summary: the program behind tools/test_summary.
//
// Usage: results_summary [TESTLOGS_DIR...]   (default: bazel-testlogs)
//
// Reads every test.xml under TESTLOGS_DIR (tools/spec/test_results); several
// directories are the parts of one run split over machines
// (tools/run_conformance --shard), counted together, and must not overlap.
// Prints each failed case with its file, then one line "tests: N passed,
// N failed, N skipped[, N known failures][, N crashed or hung]" (summary.h).
// Relative paths are taken from the current directory, or from the directory
// `bazel run` was started in.
//
// Exit status: 0 none failed (known failures allowed), 1 some failed, 2 bad
// usage, no results, or a result file that cannot be read or parsed (the
// message names the file and why).
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/results_summary/summary.h"
#include "tools/spec/file_io.h"
#include "tools/spec/test_results.h"

namespace mxcts::results_summary {
namespace {

int Main(int argc, char** argv) {
  absl::Status entered = spec::EnterUserDirectory();
  if (!entered.ok()) {
    std::fprintf(stderr, "test_summary: %s\n",
                 std::string(entered.message()).c_str());
    return 2;
  }
  std::vector<std::string> dirs(argv + 1, argv + argc);
  if (dirs.empty()) dirs.push_back("bazel-testlogs");
  for (const std::string& dir : dirs) {
    if (!dir.empty() && dir[0] == '-') {
      std::fprintf(stderr, "usage: tools/test_summary [TESTLOGS_DIR...]\n");
      return 2;
    }
    std::error_code error;
    if (!std::filesystem::exists(dir, error)) {
      std::fprintf(
          stderr,
          "test_summary: %s: no such directory (run bazel test first)\n",
          dir.c_str());
      return 2;
    }
  }
  absl::StatusOr<std::vector<spec::TestCaseResult>> cases =
      spec::ReadTestResultsDirs(dirs);
  if (!cases.ok()) {
    std::fprintf(stderr, "test_summary: %s\n",
                 std::string(cases.status().message()).c_str());
    return 2;
  }
  const TestSummary summary = SummarizeTests(*cases);
  std::fputs(FormatSummary(summary).c_str(), stdout);
  return summary.failed > 0 ? 1 : 0;
}

}  // namespace
}  // namespace mxcts::results_summary

int main(int argc, char** argv) {
  return mxcts::results_summary::Main(argc, argv);
}
