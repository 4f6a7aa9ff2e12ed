// test_lint: lints the conformance tests (tools/test_lint/test_lint.h says
// the rules: clause, assertion, trap-control, compile-control).
//
// Usage: test_lint [--exclude=conformance/testing] PATH...
//
// Each PATH is a file or a directory (read at any depth). Test sources
// (.cc, .cu) are linted; headers provide the helpers their includes reach;
// BUILD files are read for must-not-compile tests; other files only count
// as existing (a control must be a file of its package). Sources whose path
// contains an --exclude part (support code and its self-tests) are not
// linted. Under `bazel run`, relative paths are taken from the directory it
// was started in:
//
//   bazel run //tools/test_lint -- conformance
//
// Every violation is printed as "file:line: [rule] message", then a count
// per rule. Exit status: 0 none, 1 some, 2 bad usage or an unreadable path.
// Tested by test_lint_cli_test.sh; the rules by test_lint_test.cc.

#include <sys/stat.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_split.h"
#include "tools/spec/file_io.h"
#include "tools/test_lint/test_lint.h"

ABSL_FLAG(std::string, exclude, "conformance/testing",
          "comma-separated path parts whose sources are not linted");

namespace {

int Fail(const absl::Status& status) {
  std::fprintf(stderr, "test_lint: %s\n",
               std::string(status.message()).c_str());
  return 2;
}

bool IsDirectory(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Lints the conformance tests. Usage: test_lint [--exclude=PART,...] "
      "PATH...");
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (positional.size() < 2) {
    std::fprintf(stderr, "usage: test_lint [--exclude=PART,...] PATH...\n");
    return 2;
  }
  absl::Status entered = mxcts::spec::EnterUserDirectory();
  if (!entered.ok()) return Fail(entered);

  std::vector<std::string> paths;
  for (size_t i = 1; i < positional.size(); ++i) {
    const std::string path = positional[i];
    if (!IsDirectory(path)) {
      paths.push_back(path);
      continue;
    }
    absl::StatusOr<std::vector<std::string>> found =
        mxcts::spec::FindFiles(path, {""});
    if (!found.ok()) return Fail(found.status());
    paths.insert(paths.end(), found->begin(), found->end());
  }
  std::vector<mxcts::test_lint::SourceFile> files;
  for (const std::string& path : paths) {
    absl::StatusOr<std::string> text = mxcts::spec::ReadFile(path);
    if (!text.ok()) return Fail(text.status());
    std::string shown = path;
    while (shown.rfind("./", 0) == 0) shown = shown.substr(2);
    files.push_back({shown, *std::move(text)});
  }
  const std::vector<std::string> excluded =
      absl::StrSplit(absl::GetFlag(FLAGS_exclude), ',', absl::SkipEmpty());
  const std::vector<mxcts::test_lint::Violation> violations =
      mxcts::test_lint::Lint(files, excluded);
  std::map<std::string, int> per_rule;
  for (const mxcts::test_lint::Violation& violation : violations) {
    std::fprintf(stderr, "%s\n", violation.ToString().c_str());
    ++per_rule[violation.rule];
  }
  if (violations.empty()) {
    std::printf("test_lint: %zu files, no violations\n", files.size());
    return 0;
  }
  for (const auto& [rule, count] : per_rule) {
    std::fprintf(stderr, "test_lint: %d %s violations\n", count, rule.c_str());
  }
  return 1;
}
