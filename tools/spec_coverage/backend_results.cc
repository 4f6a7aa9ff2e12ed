// Reading one backend's results in either layout (backend_results.h).
//
// Both layouts are first read into (target, cases) pairs, so that exclusion
// and the expectations file are applied the same way to each.
//
// Tested by backend_results_test.cc.

#include "tools/spec_coverage/backend_results.h"

#include <filesystem>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "re2/re2.h"
#include "tools/certify/certificate.h"
#include "tools/spec/test_results.h"

namespace mxcts::spec {
namespace {

namespace fs = std::filesystem;

// The cases of one target, with the target as "package/target".
struct TargetResults {
  std::string target;
  std::vector<TestCaseResult> cases;
};

// "//conformance/api/x:y_test" -> "conformance/api/x/y_test".
std::string TargetPathOfLabel(absl::string_view label) {
  absl::ConsumePrefix(&label, "@");
  absl::ConsumePrefix(&label, "//");
  std::vector<absl::string_view> parts =
      absl::StrSplit(label, absl::MaxSplits(':', 1));
  if (parts.size() != 2) return std::string(label);
  if (parts[0].empty()) return std::string(parts[1]);
  return absl::StrCat(parts[0], "/", parts[1]);
}

absl::Status ReadCertificationRun(const std::string& dir,
                                  const std::string& name,
                                  std::vector<TargetResults>* targets,
                                  std::vector<std::string>* notes) {
  absl::StatusOr<std::vector<certify::TargetVerdict>> verdicts =
      certify::ReadRunSummary(dir);
  if (!verdicts.ok()) return verdicts.status();
  for (const certify::TargetVerdict& verdict : *verdicts) {
    const std::string binary = certify::BinaryNameOf(verdict.label);
    const std::string xml = absl::StrCat(dir, "/", binary, ".xml");
    std::error_code error;
    if (verdict.verdict == "TIMEOUT" || !fs::exists(xml, error)) {
      notes->push_back(absl::StrCat(
          name, ": ", verdict.label, " has no results (",
          verdict.verdict == "TIMEOUT" ? "it timed out" : "it crashed",
          "; see ", dir, "/", binary, ".log)"));
      continue;
    }
    absl::StatusOr<std::vector<TestCaseResult>> cases =
        ReadTestResultsFile(xml);
    if (!cases.ok()) return cases.status();
    targets->push_back({TargetPathOfLabel(verdict.label), *std::move(cases)});
  }
  return absl::OkStatus();
}

absl::Status ReadTestLogs(const std::vector<std::string>& dirs,
                          std::vector<TargetResults>* targets) {
  absl::StatusOr<std::vector<TestCaseResult>> cases = ReadTestResultsDirs(dirs);
  if (!cases.ok()) return cases.status();
  // ReadTestResultsDirs returns each directory's cases file by file, in the
  // order of `dirs`; a file's path starts with its directory.
  size_t dir = 0;
  for (TestCaseResult& result : *cases) {
    while (dir + 1 < dirs.size() &&
           TestLogTarget(dirs[dir], result.file).empty()) {
      ++dir;
    }
    std::string target = TestLogTarget(dirs[dir], result.file);
    if (targets->empty() || targets->back().target != target) {
      targets->push_back({std::move(target), {}});
    }
    targets->back().cases.push_back(std::move(result));
  }
  return absl::OkStatus();
}

bool Excluded(const TargetResults& target, const TestCaseResult& result,
              const std::vector<std::string>& excluded) {
  for (const std::string& part : excluded) {
    if (part.empty()) continue;
    if (absl::StrContains(result.file, part) ||
        absl::StrContains(target.target, part)) {
      return true;
    }
  }
  return false;
}

// The expectation listing `result` of `target`, or nullptr.
const conformance::Expectation* Listed(
    const std::vector<conformance::Expectation>& expectations,
    const std::string& target, const TestCaseResult& result) {
  for (const conformance::Expectation& expectation : expectations) {
    if (expectation.test == result.name &&
        TargetMatchesLabel(target, expectation.target)) {
      return &expectation;
    }
  }
  return nullptr;
}

}  // namespace

bool IsCertificationRun(const std::string& dir) {
  std::error_code error;
  return fs::is_regular_file(fs::path(dir) / "summary.txt", error);
}

std::string TestLogTarget(absl::string_view dir, absl::string_view file) {
  static const LazyRE2 kShard = {R"(shard_\d+_of_\d+)"};
  if (!absl::ConsumePrefix(&file, dir)) return "";
  // "DIR/x", or "DIR" given with its trailing '/': not a sibling "DIR2/x".
  if (!absl::ConsumePrefix(&file, "/") && !absl::EndsWith(dir, "/")) return "";
  if (!absl::ConsumeSuffix(&file, "/test.xml")) return "";
  std::vector<absl::string_view> parts =
      absl::StrSplit(file, '/', absl::SkipEmpty());
  if (!parts.empty() &&
      RE2::FullMatch(re2::StringPiece(parts.back().data(), parts.back().size()),
                     *kShard)) {
    parts.pop_back();
  }
  return absl::StrJoin(parts, "/");
}

bool TargetMatchesLabel(absl::string_view target, absl::string_view label) {
  if (target.empty()) return false;
  const std::string path = TargetPathOfLabel(label);
  return path == target || (absl::EndsWith(path, target) &&
                            path[path.size() - target.size() - 1] == '/');
}

absl::StatusOr<BackendResults> ReadBackendResults(
    const std::string& name, const std::vector<std::string>& dirs,
    const BackendReadOptions& options, std::vector<std::string>* notes) {
  if (dirs.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("backend ", name, ": no result directories given"));
  }
  std::vector<TargetResults> targets;
  std::vector<std::string> test_logs;
  for (const std::string& dir : dirs) {
    if (IsCertificationRun(dir)) {
      absl::Status read = ReadCertificationRun(dir, name, &targets, notes);
      if (!read.ok()) return read;
    } else {
      test_logs.push_back(dir);
    }
  }
  if (!test_logs.empty()) {
    absl::Status read = ReadTestLogs(test_logs, &targets);
    if (!read.ok()) return read;
  }

  BackendResults backend{name, {}};
  for (TargetResults& target : targets) {
    for (TestCaseResult& result : target.cases) {
      if (Excluded(target, result, options.excluded)) continue;
      if (result.expectation.empty()) {
        if (const conformance::Expectation* listed =
                Listed(options.expectations, target.target, result)) {
          result.expectation = absl::StrCat(kKnownFailureMark, listed->reason);
        }
      }
      if (result.outcome == Outcome::kPassed &&
          absl::StartsWith(result.expectation, kKnownFailureMark)) {
        notes->push_back(absl::StrCat(name, ": ", result.name, " (",
                                      target.target,
                                      ") passed, yet its expectations list it "
                                      "as a known failure"));
      }
      backend.results.push_back(std::move(result));
    }
  }
  return backend;
}

}  // namespace mxcts::spec
