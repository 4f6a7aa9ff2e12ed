// Copyright mxcts authors.
//
// expectation_runner: runs a GoogleTest binary and applies the backend's
// known failures to its result. mxmaca_test (tools/build_defs/mxmaca.bzl)
// makes it the program of every MXMACA test target.
//
// Usage: expectation_runner --target=//pkg:name [--backend=NAME]
//            [--expectations=FILE [--expectations_name=SHOWN]]
//            -- BINARY [ARGS...]
//
// BINARY runs with ARGS and --gtest_output=xml:PATH, where PATH is
// $XML_OUTPUT_FILE when Bazel runs the test (so the XML Bazel keeps is
// GoogleTest's own, known failures still failed in it) and a temporary file
// otherwise. The entries of FILE for --target then decide the verdict
// (expectation_verdict.h), printed after the test's own output. SHOWN is how
// messages name FILE (default: FILE).
//
// Exit status: 0 the target passes, 1 it fails, 2 bad usage or an unreadable
// expectations file. Tested by expectation_verdict_test.cc (the verdict) and
// expectation_runner_cli_test.sh (the process handling).

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "conformance/testing/expectation_verdict.h"
#include "conformance/testing/expectations.h"
#include "tools/spec/file_io.h"
#include "tools/spec/test_results.h"

extern char** environ;

namespace mxcts::conformance {
namespace {

struct Options {
  std::string target;
  std::string backend;
  std::string expectations;
  std::string expectations_name;
  std::vector<std::string> command;  // the binary and its arguments
};

constexpr char kUsage[] =
    "usage: expectation_runner --target=//pkg:name [--backend=NAME] "
    "[--expectations=FILE [--expectations_name=SHOWN]] -- BINARY [ARGS...]";

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

// Runs `command` and fills in how it ended; false if it could not start.
bool Run(const std::vector<std::string>& command, TestRun* run) {
  std::vector<char*> argv;
  for (const std::string& arg : command) {
    argv.push_back(const_cast<char*>(arg.c_str()));
  }
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned =
      posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
  if (spawned != 0) {
    std::fprintf(stderr, "expectation_runner: cannot run %s: %s\n", argv[0],
                 std::strerror(spawned));
    return false;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      std::fprintf(stderr, "expectation_runner: waitpid: %s\n",
                   std::strerror(errno));
      return false;
    }
  }
  if (WIFSIGNALED(status)) {
    run->signal = WTERMSIG(status);
  } else {
    run->exit_code = WEXITSTATUS(status);
  }
  return true;
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
  std::remove(result_path.c_str());  // never read a result of an earlier run
  std::vector<std::string> command = options.command;
  command.push_back("--gtest_output=xml:" + result_path);
  TestRun run;
  run.partial = IsPartialRun(options.command);
  if (!Run(command, &run)) return 1;

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
