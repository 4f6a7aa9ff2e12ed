// Copyright mxcts authors.
//
// Judging must-not-compile tests. Every way the test can fail is checked and
// reported together, not only the first: a driver that accepts the broken
// source and also rejects the control is two problems, and a reader fixing
// one should see the other. Each problem quotes the driver's output, indented
// under the message, because "did not match" is useless without what the
// driver actually said.
//
// Tested by compile_fail_test.cc.

#include "conformance/testing/compile_fail.h"

#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "pugixml.hpp"
#include "re2/re2.h"

namespace mxcts::conformance {
namespace {

// The largest exit status a driver that was not killed can report through
// the shell; 128 + N means it was killed by signal N.
constexpr int kLargestExitStatus = 128;

// `output` indented by four spaces per line, or "    (nothing)".
std::string Quoted(absl::string_view output) {
  output = absl::StripTrailingAsciiWhitespace(output);
  if (output.empty()) return "    (nothing)";
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(output, '\n')) {
    lines.push_back(absl::StrCat("    ", line));
  }
  return absl::StrJoin(lines, "\n");
}

std::string ExitDescription(int exit_code) {
  if (exit_code > kLargestExitStatus) {
    return absl::StrCat("killed by signal ", exit_code - kLargestExitStatus);
  }
  return absl::StrCat("exit ", exit_code);
}

// The first line of `output` that `pattern` matches, or all of `output` if
// only a span of several lines does.
std::string MatchingLine(absl::string_view output, const RE2& pattern) {
  for (absl::string_view line : absl::StrSplit(output, '\n')) {
    if (RE2::PartialMatch(re2::StringPiece(line.data(), line.size()),
                          pattern)) {
      return std::string(line);
    }
  }
  return std::string(output);
}

}  // namespace

absl::StatusOr<CompileRecord> ParseCompileRecord(absl::string_view text,
                                                 const std::string& file) {
  const size_t newline = text.find('\n');
  absl::string_view first = text.substr(0, newline);
  CompileRecord record;
  if (!absl::ConsumePrefix(&first, "exit ") ||
      !absl::SimpleAtoi(first, &record.exit_code) || record.exit_code < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        file, ": not a compile record (its first line must be 'exit N')"));
  }
  if (newline != absl::string_view::npos) {
    record.output = std::string(text.substr(newline + 1));
  }
  return record;
}

CompileFailVerdict JudgeCompileFail(const CompileFailCase& test) {
  CompileFailVerdict verdict;
  std::vector<std::string> problems;
  RE2 pattern(test.error_pattern, RE2::Quiet);
  if (!pattern.ok()) {
    problems.push_back(absl::StrCat("the error pattern '", test.error_pattern,
                                    "' is not a valid RE2: ", pattern.error()));
  }

  const CompileRecord& rejected = test.rejected;
  std::string matched;
  if (rejected.exit_code == 0) {
    problems.push_back(absl::StrCat(
        test.source, ": the driver must reject it with a diagnostic matching '",
        test.error_pattern, "', but it compiled it. The driver printed:\n",
        Quoted(rejected.output)));
  } else if (rejected.exit_code > kLargestExitStatus) {
    problems.push_back(
        absl::StrCat(test.source, ": the driver crashed (",
                     ExitDescription(rejected.exit_code),
                     ") instead of rejecting it with a diagnostic matching '",
                     test.error_pattern, "'. The driver printed:\n",
                     Quoted(rejected.output)));
  } else if (pattern.ok()) {
    if (RE2::PartialMatch(rejected.output, pattern)) {
      matched = MatchingLine(rejected.output, pattern);
    } else {
      problems.push_back(
          absl::StrCat(test.source, ": the driver rejected it (",
                       ExitDescription(rejected.exit_code),
                       "), but no diagnostic matches '", test.error_pattern,
                       "'. The driver printed:\n", Quoted(rejected.output)));
    }
  }

  if (test.control.exit_code != 0) {
    problems.push_back(absl::StrCat(
        test.control_source,
        " (the control): the driver must compile it, but it failed (",
        ExitDescription(test.control.exit_code), "). The driver printed:\n",
        Quoted(test.control.output)));
  }

  verdict.passed = problems.empty();
  verdict.message =
      verdict.passed
          ? absl::StrCat(test.source, " is rejected: ", matched, "\n",
                         test.control_source, " (the control) compiles")
          : absl::StrJoin(problems, "\n");
  return verdict;
}

std::string LocationPattern(absl::string_view source, int line) {
  const size_t slash = source.rfind('/');
  const std::string file = RE2::QuoteMeta(std::string(
      slash == absl::string_view::npos ? source : source.substr(slash + 1)));
  // The file name starts the output, a line, or follows a path separator
  // or a space, so "x.cu" does not match inside "index.cu".
  const std::string start = "(?:^|[\\s/])";
  if (line <= 0) return absl::StrCat(start, file, "\\b");
  return absl::StrCat("(?m)(?:", start, file, "(?::", line, "\\b|\\(", line,
                      "\\))|line ", line, " of (?:\\S*/)?", file, "\\b)");
}

std::string SingleCaseResultXml(absl::string_view suite, absl::string_view name,
                                absl::string_view spec, bool failed,
                                absl::string_view message) {
  // The shape and attributes of GoogleTest's own XML for one test, so every
  // reader of test results (and a person) sees an ordinary result.
  const std::string suite_name(suite);
  const int failures = failed ? 1 : 0;
  pugi::xml_document document;
  pugi::xml_node declaration = document.append_child(pugi::node_declaration);
  declaration.append_attribute("version") = "1.0";
  declaration.append_attribute("encoding") = "UTF-8";

  pugi::xml_node suites = document.append_child("testsuites");
  suites.append_attribute("tests") = 1;
  suites.append_attribute("failures") = failures;
  suites.append_attribute("disabled") = 0;
  suites.append_attribute("errors") = 0;
  suites.append_attribute("name") = "AllTests";

  pugi::xml_node testsuite = suites.append_child("testsuite");
  testsuite.append_attribute("name") = suite_name.c_str();
  testsuite.append_attribute("tests") = 1;
  testsuite.append_attribute("failures") = failures;
  testsuite.append_attribute("disabled") = 0;
  testsuite.append_attribute("skipped") = 0;
  testsuite.append_attribute("errors") = 0;

  pugi::xml_node testcase = testsuite.append_child("testcase");
  testcase.append_attribute("name") = std::string(name).c_str();
  testcase.append_attribute("status") = "run";
  testcase.append_attribute("result") = "completed";
  testcase.append_attribute("classname") = suite_name.c_str();
  if (!spec.empty()) {
    pugi::xml_node property =
        testcase.append_child("properties").append_child("property");
    property.append_attribute("name") = "spec";
    property.append_attribute("value") = std::string(spec).c_str();
  }
  if (failed) {
    const std::string text(message);
    pugi::xml_node failure = testcase.append_child("failure");
    failure.append_attribute("message") = text.c_str();
    failure.append_attribute("type") = "";
    failure.text().set(text.c_str());
  }
  std::ostringstream out;
  document.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

std::string SkippedCaseResultXml(absl::string_view suite,
                                 absl::string_view name, absl::string_view spec,
                                 absl::string_view message) {
  pugi::xml_document document;
  const std::string passed =
      SingleCaseResultXml(suite, name, spec, /*failed=*/false, "");
  document.load_string(passed.c_str());
  pugi::xml_node testsuite = document.child("testsuites").child("testsuite");
  testsuite.attribute("skipped").set_value(1);
  pugi::xml_node testcase = testsuite.child("testcase");
  testcase.attribute("result").set_value("skipped");
  testcase.append_child("skipped").append_attribute("message") =
      std::string(message).c_str();
  std::ostringstream out;
  document.save(out, "  ");
  return out.str();
}

}  // namespace mxcts::conformance
