// Copyright mxcts authors.
//
// compile_fail_check: the program of every mxmaca_compile_fail_test. It
// reads the two compile records the build wrote (compile_fail.h), judges
// them, applies the backend's known failures as expectation_runner does, and
// writes a one-case GoogleTest-shaped XML result, MustNotCompile.<name>, with
// the test's clause IDs as its "spec" property, so the coverage report sees
// must-not-compile tests like any other.
//
// Usage: compile_fail_check --target=//pkg:name [--backend=NAME]
//            --source=SHOWN --record=FILE
//            --control_source=SHOWN --control_record=FILE
//            --error_pattern=RE2 [--spec="id id..."]
//            [--expectations=FILE [--expectations_name=SHOWN]]
//            [--unsupported_where=FEATURE --capabilities=MANIFEST]
//
// With --unsupported_where, a backend whose capability manifest claims
// FEATURE is not one the test is about (a test of what a backend without
// the feature must reject): the test is reported as skipped, "unsupported:
// ...", without judging the records.
//
// The XML goes to $XML_OUTPUT_FILE when it is set. Exit status: 0 pass,
// 1 fail, 2 bad usage or an unreadable record or expectations file.
// Tested by compile_fail_test.cc (the verdict and the XML) and the negative
// targets of //tools/build_defs/testing:rule_failure_test.

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "conformance/testing/capability_manifest.h"
#include "conformance/testing/compile_fail.h"
#include "conformance/testing/expectation_verdict.h"
#include "conformance/testing/expectations.h"
#include "tools/spec/file_io.h"
#include "tools/spec/test_results.h"

namespace mxcts::conformance {
namespace {

constexpr char kSuite[] = "MustNotCompile";

constexpr const char* kFlags[] = {
    "target",
    "backend",
    "source",
    "record",
    "control_source",
    "control_record",
    "error_pattern",
    "spec",
    "expectations",
    "expectations_name",
    "unsupported_where",
    "required_capability",
    "error_line",
    "capabilities",
};

// Parses --name=value arguments; false (after a message) on anything else.
bool ParseFlags(int argc, char** argv,
                std::map<std::string, std::string>* flags) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t equals = arg.find('=');
    bool known = false;
    if (arg.rfind("--", 0) == 0 && equals != std::string::npos) {
      const std::string name = arg.substr(2, equals - 2);
      for (const char* flag : kFlags) known = known || name == flag;
      if (known) (*flags)[name] = arg.substr(equals + 1);
    }
    if (!known) {
      std::fprintf(stderr, "compile_fail_check: unknown argument %s\n",
                   arg.c_str());
      return false;
    }
  }
  for (const char* required : {"target", "source", "record", "control_source",
                               "control_record", "error_pattern"}) {
    if (flags->count(required) == 0) {
      std::fprintf(stderr, "compile_fail_check: --%s is required\n", required);
      return false;
    }
  }
  return true;
}

absl::StatusOr<CompileRecord> ReadRecord(const std::string& path) {
  absl::StatusOr<std::string> text = spec::ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseCompileRecord(*text, path);
}

// Reports the test as unsupported with `message`: on stderr and, if the
// test runner asks for one, as a skipped case in the XML result. Returns
// the exit status.
int ReportUnsupported(std::map<std::string, std::string>& flags,
                      const std::string& message) {
  const std::string& target = flags["target"];
  const std::string name = target.substr(target.rfind(':') + 1);
  std::fprintf(stderr, "%s.%s: %s\n", kSuite, name.c_str(), message.c_str());
  const char* xml_path = std::getenv("XML_OUTPUT_FILE");
  if (xml_path != nullptr && *xml_path != '\0') {
    absl::Status written = spec::WriteFileAtomically(
        xml_path, SkippedCaseResultXml(kSuite, name, flags["spec"], message));
    if (!written.ok()) return 1;
  }
  return 0;
}

int Main(int argc, char** argv) {
  std::map<std::string, std::string> flags;
  if (!ParseFlags(argc, argv, &flags)) return 2;
  absl::StatusOr<CompileRecord> rejected = ReadRecord(flags["record"]);
  absl::StatusOr<CompileRecord> control = ReadRecord(flags["control_record"]);
  for (const absl::Status& status : {rejected.status(), control.status()}) {
    if (!status.ok()) {
      std::fprintf(stderr, "compile_fail_check: %s\n",
                   std::string(status.message()).c_str());
      return 2;
    }
  }
  // The manifest decides whether the test applies and which wording the
  // diagnostic is held to.
  bool reference_wording = true;
  if (!flags["capabilities"].empty()) {
    absl::StatusOr<CapabilityManifest> manifest =
        CapabilityManifest::Read(flags["capabilities"]);
    if (!manifest.ok()) {
      std::fprintf(stderr, "compile_fail_check: %s\n",
                   std::string(manifest.status().message()).c_str());
      return 2;
    }
    std::string unsupported;
    if (!flags["unsupported_where"].empty() &&
        manifest->Claims(flags["unsupported_where"])) {
      unsupported = absl::StrCat("unsupported: the backend claims ",
                                 flags["unsupported_where"],
                                 "; this test checks a backend without it");
    } else if (!flags["required_capability"].empty() &&
               !manifest->Claims(flags["required_capability"])) {
      unsupported = absl::StrCat("unsupported: the backend does not claim ",
                                 flags["required_capability"]);
    }
    if (!unsupported.empty()) return ReportUnsupported(flags, unsupported);
    reference_wording = manifest->Claims("reference_choices");
  }
  int error_line = 0;
  if (!flags["error_line"].empty() &&
      (!absl::SimpleAtoi(flags["error_line"], &error_line) || error_line < 0)) {
    std::fprintf(stderr, "compile_fail_check: --error_line=%s is not a line\n",
                 flags["error_line"].c_str());
    return 2;
  }
  std::vector<Expectation> mine;
  if (!flags["expectations"].empty()) {
    absl::StatusOr<std::vector<Expectation>> all =
        ReadExpectations(flags["expectations"]);
    if (!all.ok()) {
      std::fprintf(stderr, "compile_fail_check: %s\n",
                   std::string(all.status().message()).c_str());
      return 2;
    }
    mine = ExpectationsForTarget(*all, flags["target"]);
  }

  // Another backend's words are its own: its diagnostic must point at the
  // broken line.
  const std::string pattern =
      reference_wording ? flags["error_pattern"]
                        : LocationPattern(flags["source"], error_line);
  const CompileFailVerdict verdict = JudgeCompileFail(
      {flags["source"], *rejected, flags["control_source"], *control, pattern});
  const std::string& target = flags["target"];
  const std::string name = target.substr(target.rfind(':') + 1);

  spec::TestCaseResult result;
  result.name = absl::StrCat(kSuite, ".", name);
  result.outcome =
      verdict.passed ? spec::Outcome::kPassed : spec::Outcome::kFailed;
  TestRun run;
  run.exit_code = verdict.passed ? 0 : 1;
  run.cases = std::vector<spec::TestCaseResult>{result};
  const std::string shown = flags["expectations_name"].empty()
                                ? flags["expectations"]
                                : flags["expectations_name"];
  const Verdict with_expectations = JudgeTestRun(run, mine, shown);

  std::fprintf(stderr, "%s: %s\n%s\n", result.name.c_str(),
               verdict.passed ? "passed" : "FAILED", verdict.message.c_str());
  std::fprintf(
      stderr, "\ncompile_fail_check: %s on backend %s\n", target.c_str(),
      flags["backend"].empty() ? "(unnamed)" : flags["backend"].c_str());
  for (const std::string& line : with_expectations.lines) {
    std::fprintf(stderr, "compile_fail_check: %s\n", line.c_str());
  }

  const char* xml_path = std::getenv("XML_OUTPUT_FILE");
  if (xml_path != nullptr && *xml_path != '\0') {
    absl::Status written = spec::WriteFileAtomically(
        xml_path,
        MarkKnownFailures(SingleCaseResultXml(kSuite, name, flags["spec"],
                                              !verdict.passed, verdict.message),
                          mine));
    if (!written.ok()) {
      std::fprintf(stderr, "compile_fail_check: %s\n",
                   std::string(written.message()).c_str());
      return 1;
    }
  }
  return with_expectations.passed ? 0 : 1;
}

}  // namespace
}  // namespace mxcts::conformance

int main(int argc, char** argv) { return mxcts::conformance::Main(argc, argv); }
