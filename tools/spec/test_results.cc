// Reading test results: test.xml files into one TestCaseResult per case.
//
// A result file is parsed whole by pugixml, then its <testcase> elements
// are collected from the root (<testsuites> or a lone <testsuite>) and any
// <testsuite> below it, in document order; elements elsewhere (<system-out>,
// <properties> of a suite) are not searched, so log text can never be taken
// for a case. Each case is classified from its own attributes and children
// alone, failures first: a test that failed and then skipped itself still
// failed, and two <failure> children are still one failed case.
//
// GoogleTest prefixes every failure and skip message with the location of the
// statement on its own line ("conformance/api/stream_test.cc:42\nunsupported:
// ..."), so the "unsupported" convention is checked on the message with that
// first line removed when it looks like "<file>:<line>". The message kept in
// the result is the message as written, location included.
//
// The files are found with file_io's FindFiles, which follows symbolic links
// (bazel-testlogs is a link into Bazel's output base) and ends at a link
// cycle; they are read in path order, so the result does not depend on the
// order the file system lists entries in.
//
// Tested by test_results_test.cc.
#include "tools/spec/test_results.h"

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "pugixml.hpp"
#include "tools/spec/file_io.h"

namespace mxcts::spec {
namespace {

namespace fs = std::filesystem;

// Returns the 1-based line of byte `offset` of `xml`.
int LineAt(absl::string_view xml, ptrdiff_t offset) {
  if (offset < 0) return 0;
  offset = std::min<ptrdiff_t>(offset, static_cast<ptrdiff_t>(xml.size()));
  return 1 +
         static_cast<int>(std::count(xml.begin(), xml.begin() + offset, '\n'));
}

// Returns the value of attribute `key` of `element`, "" if it has none.
std::string AttributeOf(const pugi::xml_node& element, const char* key) {
  return element.attribute(key).value();
}

// Returns the text directly inside `element` (character data and CDATA
// sections, not that of its children), in document order.
std::string TextOf(const pugi::xml_node& element) {
  std::string text;
  for (const pugi::xml_node& child : element.children()) {
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
      text += child.value();
    }
  }
  return text;
}

// Returns the message of a <failure>, <error> or <skipped> element: its
// message attribute, or its text if the attribute is missing or empty.
std::string RawMessage(const pugi::xml_node& element) {
  std::string message = AttributeOf(element, "message");
  if (!message.empty()) return message;
  return TextOf(element);
}

// Trims whitespace and cuts `message` to kMaxMessageLength bytes, never in the
// middle of a UTF-8 sequence.
std::string ShortMessage(absl::string_view message) {
  message = absl::StripAsciiWhitespace(message);
  if (message.size() <= kMaxMessageLength) return std::string(message);
  size_t length = kMaxMessageLength;
  while (length > 0 &&
         (static_cast<unsigned char>(message[length]) & 0xC0) == 0x80) {
    --length;
  }
  return std::string(message.substr(0, length));
}

// True if `line` looks like GoogleTest's location line, "<file>:<number>".
bool IsLocationLine(absl::string_view line) {
  size_t colon = line.rfind(':');
  if (colon == absl::string_view::npos || colon == 0 ||
      colon + 1 == line.size()) {
    return false;
  }
  for (char c : line.substr(colon + 1)) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// True if the skip `message` declares the feature unsupported.
bool IsUnsupportedSkip(absl::string_view message) {
  message = absl::StripLeadingAsciiWhitespace(message);
  size_t newline = message.find('\n');
  if (newline != absl::string_view::npos &&
      IsLocationLine(message.substr(0, newline))) {
    message = absl::StripLeadingAsciiWhitespace(message.substr(newline + 1));
  }
  return absl::StartsWithIgnoreCase(message, "unsupported");
}

// Appends the clause IDs in `value` to `clauses`, skipping repeats.
void AddClauses(absl::string_view value, std::vector<std::string>* clauses) {
  for (absl::string_view id :
       absl::StrSplit(value, absl::ByAnyChar(" ,\t\n"), absl::SkipEmpty())) {
    if (std::find(clauses->begin(), clauses->end(), id) == clauses->end()) {
      clauses->emplace_back(id);
    }
  }
}

// Collects the <testcase> elements of `suite` and of the suites nested in it.
void CollectCases(const pugi::xml_node& suite,
                  std::vector<pugi::xml_node>* cases) {
  for (const pugi::xml_node& child : suite.children()) {
    if (child.type() != pugi::node_element) continue;
    if (absl::string_view(child.name()) == "testcase") {
      cases->push_back(child);
    } else if (absl::string_view(child.name()) == "testsuite") {
      CollectCases(child, cases);
    }
  }
}

// Reads one <testcase>; `xml` is the document it came from (for the line of
// an error), `file` names it.
absl::StatusOr<TestCaseResult> ReadCase(const pugi::xml_node& testcase,
                                        absl::string_view xml,
                                        const std::string& file) {
  TestCaseResult result;
  result.file = file;
  const std::string name = AttributeOf(testcase, "name");
  if (name.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(file, ": line ", LineAt(xml, testcase.offset_debug()),
                     ": <testcase> has no name"));
  }
  const std::string classname = AttributeOf(testcase, "classname");
  result.name = classname.empty() ? name : absl::StrCat(classname, ".", name);
  result.expectation = AttributeOf(testcase, "expectation");
  result.aborted = AttributeOf(testcase, "aborted");

  AddClauses(AttributeOf(testcase, "spec"), &result.spec_clauses);
  pugi::xml_node failure;
  pugi::xml_node skipped;
  for (const pugi::xml_node& child : testcase.children()) {
    if (child.type() != pugi::node_element) continue;
    const absl::string_view child_name = child.name();
    if (child_name == "failure" || child_name == "error") {
      if (!failure) failure = child;
    } else if (child_name == "skipped") {
      if (!skipped) skipped = child;
    } else if (child_name == "properties") {
      for (const pugi::xml_node& property : child.children("property")) {
        if (AttributeOf(property, "name") == "spec" &&
            property.attribute("value")) {
          AddClauses(AttributeOf(property, "value"), &result.spec_clauses);
        }
      }
    }
  }

  if (failure) {
    result.outcome = Outcome::kFailed;
    result.message = ShortMessage(RawMessage(failure));
  } else if (AttributeOf(testcase, "status") == "notrun") {
    result.outcome = Outcome::kDisabled;
  } else if (skipped || AttributeOf(testcase, "result") == "skipped") {
    std::string message = skipped ? RawMessage(skipped) : "";
    result.outcome =
        IsUnsupportedSkip(message) ? Outcome::kUnsupported : Outcome::kSkipped;
    result.message = ShortMessage(message);
  } else {
    result.outcome = Outcome::kPassed;
  }
  return result;
}

// The files of `files` (paths ending in /test.xml) that hold a target's
// current results: of the sets below one directory (the target's own
// test.xml, or its shard_K_of_M/test.xml of one M), the most recently
// written, in the order of `files`. A file whose time cannot be read counts
// as old.
std::vector<std::string> CurrentResultFiles(
    const std::vector<std::string>& files) {
  // The directory a file's results belong to and the set it is in: "" for
  // the directory's own test.xml, "of_M" for a shard of M.
  auto key = [](const std::string& file) {
    fs::path dir = fs::path(file).parent_path();
    const std::string name = dir.filename().string();
    std::vector<std::string> parts = absl::StrSplit(name, '_');
    if (parts.size() == 4 && parts[0] == "shard" && parts[2] == "of" &&
        !parts[1].empty() && !parts[3].empty() &&
        std::all_of(parts[1].begin(), parts[1].end(), absl::ascii_isdigit) &&
        std::all_of(parts[3].begin(), parts[3].end(), absl::ascii_isdigit)) {
      return std::make_pair(dir.parent_path().string(), "of_" + parts[3]);
    }
    return std::make_pair(dir.string(), std::string());
  };
  // The newest file's time of each set, and of each directory.
  std::map<std::pair<std::string, std::string>, fs::file_time_type> of_set;
  std::map<std::string, fs::file_time_type> of_dir;
  for (const std::string& file : files) {
    std::error_code error;
    fs::file_time_type time = fs::last_write_time(file, error);
    if (error) time = fs::file_time_type::min();
    const auto file_key = key(file);
    // (A default fs::file_time_type is the clock's epoch, which need not be
    // older than every file: start from min().)
    auto set = of_set.try_emplace(file_key, fs::file_time_type::min()).first;
    set->second = std::max(set->second, time);
    auto dir =
        of_dir.try_emplace(file_key.first, fs::file_time_type::min()).first;
    dir->second = std::max(dir->second, time);
  }
  std::vector<std::string> current;
  for (const std::string& file : files) {
    const auto file_key = key(file);
    if (of_set[file_key] == of_dir[file_key.first]) current.push_back(file);
  }
  return current;
}

}  // namespace

std::string_view OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPassed:
      return "passed";
    case Outcome::kFailed:
      return "failed";
    case Outcome::kSkipped:
      return "skipped";
    case Outcome::kUnsupported:
      return "unsupported";
    case Outcome::kDisabled:
      return "disabled";
  }
  return "unknown";
}

absl::StatusOr<std::vector<TestCaseResult>> ParseTestResults(
    absl::string_view xml, const std::string& file) {
  pugi::xml_document document;
  // parse_default keeps CDATA sections and decodes references; DOCTYPE
  // declarations (parse_doctype) are rejected as malformed, as GoogleTest and
  // Bazel never write one.
  const pugi::xml_parse_result parsed = document.load_buffer(
      xml.data(), xml.size(), pugi::parse_default, pugi::encoding_utf8);
  if (!parsed) {
    return absl::InvalidArgumentError(absl::StrCat(file, ": line ",
                                                   LineAt(xml, parsed.offset),
                                                   ": ", parsed.description()));
  }
  const pugi::xml_node root = document.document_element();
  if (!root) {
    return absl::InvalidArgumentError(absl::StrCat(
        file, ": line ", LineAt(xml, xml.size()), ": no root element"));
  }
  const absl::string_view root_name = root.name();
  if (root_name != "testsuites" && root_name != "testsuite") {
    return absl::InvalidArgumentError(
        absl::StrCat(file, ": line ", LineAt(xml, root.offset_debug()),
                     ": root element is <", root_name,
                     ">, not <testsuites> or <testsuite>"));
  }
  std::vector<pugi::xml_node> cases;
  CollectCases(root, &cases);
  std::vector<TestCaseResult> results;
  results.reserve(cases.size());
  for (const pugi::xml_node& testcase : cases) {
    absl::StatusOr<TestCaseResult> result = ReadCase(testcase, xml, file);
    if (!result.ok()) return result.status();
    results.push_back(*std::move(result));
  }
  return results;
}

absl::StatusOr<std::vector<TestCaseResult>> ReadTestResultsFile(
    const std::string& path) {
  absl::StatusOr<std::string> contents = ReadFile(path);
  if (!contents.ok()) return contents.status();
  return ParseTestResults(*contents, path);
}

absl::StatusOr<std::vector<TestCaseResult>> ReadTestResultsDir(
    const std::string& dir) {
  std::error_code error;
  fs::file_status status = fs::status(dir, error);
  if (!fs::exists(status)) {
    return absl::NotFoundError(absl::StrCat(dir, ": no such directory"));
  }
  if (!fs::is_directory(status)) {
    return absl::FailedPreconditionError(
        absl::StrCat(dir, ": not a directory"));
  }
  absl::StatusOr<std::vector<std::string>> files =
      FindFiles(dir, {"/test.xml"});
  if (!files.ok()) return files.status();
  if (files->empty()) {
    return absl::NotFoundError(absl::StrCat(dir, ": no test.xml files"));
  }
  std::vector<TestCaseResult> results;
  for (const std::string& file : CurrentResultFiles(*files)) {
    absl::StatusOr<std::vector<TestCaseResult>> file_results =
        ReadTestResultsFile(file);
    if (!file_results.ok()) return file_results.status();
    for (TestCaseResult& result : *file_results) {
      results.push_back(std::move(result));
    }
  }
  return results;
}

absl::StatusOr<std::vector<TestCaseResult>> ReadTestResultsDirs(
    const std::vector<std::string>& dirs) {
  if (dirs.empty()) {
    return absl::InvalidArgumentError("no test result directories given");
  }
  // Each file's path below its directory, and the directory it came from.
  std::map<std::string, std::string> owners;
  std::vector<TestCaseResult> results;
  for (const std::string& dir : dirs) {
    absl::StatusOr<std::vector<TestCaseResult>> dir_results =
        ReadTestResultsDir(dir);
    if (!dir_results.ok()) return dir_results.status();
    std::string previous_file;
    for (TestCaseResult& result : *dir_results) {
      if (result.file != previous_file) {
        previous_file = result.file;
        // FindFiles returns paths that start with `dir`.
        const std::string relative = fs::path(result.file.substr(dir.size()))
                                         .relative_path()
                                         .lexically_normal()
                                         .string();
        auto [owner, inserted] = owners.try_emplace(relative, dir);
        if (!inserted) {
          return absl::InvalidArgumentError(absl::StrCat(
              relative, " is in both ", owner->second, " and ", dir,
              ": the result directories overlap, so their cases would be "
              "counted twice"));
        }
      }
      results.push_back(std::move(result));
    }
  }
  return results;
}

}  // namespace mxcts::spec
