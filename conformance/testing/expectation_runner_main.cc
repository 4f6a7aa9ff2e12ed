// Copyright mxcts authors.
//
// expectation_runner: runs a GoogleTest binary and applies the backend's
// known failures to its result. mxmaca_test (tools/build_defs/mxmaca.bzl)
// makes it the program of every MXMACA test target.
//
// Usage: expectation_runner --target=//pkg:name [--backend=NAME]
//            [--expectations=FILE [--expectations_name=SHOWN]]
//            [--case_timeout=SECONDS] -- BINARY [ARGS...]
//
// BINARY runs with ARGS and --gtest_output=xml:PATH, where PATH is
// $XML_OUTPUT_FILE when Bazel runs the test (so the XML Bazel keeps is
// GoogleTest's own, known failures still failed in it) and a temporary file
// otherwise. The entries of FILE for --target then decide the verdict
// (expectation_verdict.h), printed after the test's own output. SHOWN is how
// messages name FILE (default: FILE).
//
// BINARY runs with case isolation (case_isolation.h): a case that crashes,
// exits the process or makes no progress for SECONDS is reported as that
// case's failure, and the binary's other cases still run and report, in one
// merged XML result. SECONDS defaults to $MXCTS_CASE_TIMEOUT, else half of
// Bazel's $TEST_TIMEOUT, else 300; 0 means no limit.
//
// Exit status: 0 the target passes, 1 it fails, 2 bad usage or an unreadable
// expectations file. Tested by expectation_verdict_test.cc (the verdict),
// expectation_runner_cli_test.sh (the process handling) and
// case_isolation_cli_test.sh (the isolation).

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "conformance/testing/case_isolation.h"
#include "conformance/testing/expectation_verdict.h"
#include "conformance/testing/expectations.h"
#include "tools/spec/file_io.h"
#include "tools/spec/test_results.h"

namespace mxcts::conformance {
namespace {

struct Options {
  std::string target;
  std::string backend;
  std::string expectations;
  std::string expectations_name;
  int case_timeout = -1;             // seconds; -1: not given
  std::vector<std::string> command;  // the binary and its arguments
};

constexpr char kUsage[] =
    "usage: expectation_runner --target=//pkg:name [--backend=NAME] "
    "[--expectations=FILE [--expectations_name=SHOWN]] "
    "[--case_timeout=SECONDS] "
    "-- BINARY [ARGS...]";

bool ParseOptions(int argc, char** argv, Options* options) {
  int i = 1;
  for (; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    const size_t equals = arg.find('=');
    const std::string key = arg.substr(0, equals);
    const std::string value =
        equals == std::string::npos ? "" : arg.substr(equals + 1);
    if (key == "--target") {
      options->target = value;
    } else if (key == "--backend") {
      options->backend = value;
    } else if (key == "--expectations") {
      options->expectations = value;
    } else if (key == "--expectations_name") {
      options->expectations_name = value;
    } else if (key == "--case_timeout") {
      if (!absl::SimpleAtoi(value, &options->case_timeout) ||
          options->case_timeout < 0) {
        std::fprintf(stderr,
                     "expectation_runner: --case_timeout wants whole "
                     "seconds, not '%s'\n%s\n",
                     value.c_str(), kUsage);
        return false;
      }
    } else {
      std::fprintf(stderr, "expectation_runner: unknown flag %s\n%s\n",
                   arg.c_str(), kUsage);
      return false;
    }
  }
  for (; i < argc; ++i) options->command.push_back(argv[i]);
  if (options->target.empty() || options->command.empty()) {
    std::fprintf(stderr, "%s\n", kUsage);
    return false;
  }
  if (options->expectations_name.empty()) {
    options->expectations_name = options->expectations;
  }
  return true;
}

// The XML result file Bazel collects, or "" outside a Bazel test.
std::string BazelResultPath() {
  const char* path = std::getenv("XML_OUTPUT_FILE");
  return path == nullptr ? "" : path;
}

// Where GoogleTest writes its XML result.
std::string ResultPath() {
  if (!BazelResultPath().empty()) return BazelResultPath();
  const char* tmp = std::getenv("TEST_TMPDIR");
  return absl::StrCat(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp",
                      "/expectation_runner.", getpid(), ".xml");
}

// True if only some of the binary's tests were asked to run.
bool IsPartialRun(const std::vector<std::string>& command) {
  for (const char* variable : {"TESTBRIDGE_TEST_ONLY", "GTEST_FILTER"}) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0') return true;
  }
  const char* shards = std::getenv("TEST_TOTAL_SHARDS");
  int shard_count = 0;
  if (shards != nullptr && absl::SimpleAtoi(shards, &shard_count) &&
      shard_count > 1) {
    return true;
  }
  for (const std::string& arg : command) {
    if (absl::StartsWith(arg, "--gtest_filter")) return true;
  }
  return false;
}

// The per-case limit: --case_timeout, else $MXCTS_CASE_TIMEOUT, else half
// of Bazel's $TEST_TIMEOUT (so the other cases still have time to run), else
// kDefaultCaseTimeout.
constexpr int kDefaultCaseTimeout = 300;

int CaseTimeout(const Options& options) {
  if (options.case_timeout >= 0) return options.case_timeout;
  int seconds = 0;
  const char* variable = std::getenv("MXCTS_CASE_TIMEOUT");
  if (variable != nullptr && absl::SimpleAtoi(variable, &seconds) &&
      seconds >= 0) {
    return seconds;
  }
  const char* bazel = std::getenv("TEST_TIMEOUT");
  if (bazel != nullptr && absl::SimpleAtoi(bazel, &seconds) && seconds > 0) {
    return std::max(1, seconds / 2);
  }
  return kDefaultCaseTimeout;
}

std::string ScratchDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

int Main(int argc, char** argv) {
  Options options;
  if (!ParseOptions(argc, argv, &options)) return 2;

  std::vector<Expectation> mine;
  if (!options.expectations.empty()) {
    absl::StatusOr<std::vector<Expectation>> all =
        ReadExpectations(options.expectations);
    if (!all.ok()) {
      std::fprintf(stderr, "expectation_runner: %s\n",
                   std::string(all.status().message()).c_str());
      return 2;
    }
    mine = ExpectationsForTarget(*all, options.target);
  }

  const std::string result_path = ResultPath();
  IsolationOptions isolation;
  isolation.command = options.command;
  isolation.result_path = result_path;  // removed first: never an old result
  isolation.scratch_dir = ScratchDir();
  isolation.case_timeout_seconds = CaseTimeout(options);
  const IsolatedRun isolated = RunWithCaseIsolation(isolation);
  if (!isolated.started) {
    std::fprintf(stderr, "expectation_runner: %s\n", isolated.error.c_str());
    return 1;
  }
  if (!isolated.error.empty()) {
    std::fprintf(stderr, "expectation_runner: case isolation: %s\n",
                 isolated.error.c_str());
  }
  TestRun run;
  run.partial = IsPartialRun(options.command);
  run.exit_code = isolated.exit_code;
  run.timeout_seconds = isolation.case_timeout_seconds;
  run.aborted = isolated.aborted;

  absl::StatusOr<std::vector<spec::TestCaseResult>> cases =
      spec::ReadTestResultsFile(result_path);
  if (cases.ok()) {
    run.cases = *std::move(cases);
  } else {
    run.missing_result_reason = std::string(cases.status().message());
  }
  if (BazelResultPath().empty()) {
    std::remove(result_path.c_str());
  }

  const Verdict verdict = JudgeTestRun(run, mine, options.expectations_name);
  if (!BazelResultPath().empty() && !mine.empty() && cases.ok()) {
    absl::StatusOr<std::string> xml = spec::ReadFile(result_path);
    if (xml.ok()) {
      absl::Status marked = spec::WriteFileAtomically(
          result_path, MarkKnownFailures(*std::move(xml), mine));
      if (!marked.ok()) {
        std::fprintf(stderr, "expectation_runner: %s\n",
                     std::string(marked.message()).c_str());
      }
    }
  }
  std::fflush(stdout);
  std::fprintf(stderr, "\nexpectation_runner: %s on backend %s\n",
               options.target.c_str(),
               options.backend.empty() ? "(unnamed)" : options.backend.c_str());
  for (const std::string& line : verdict.lines) {
    std::fprintf(stderr, "expectation_runner: %s\n", line.c_str());
  }
  return verdict.passed ? 0 : 1;
}

}  // namespace
}  // namespace mxcts::conformance

int main(int argc, char** argv) { return mxcts::conformance::Main(argc, argv); }
