// Copyright mxcts authors.
//
// Parsing expectations files. A line is split into its first two words and
// the rest; the rest, trimmed, is the reason and must not be empty, so no
// known failure enters a list without saying why. Targets are expanded to
// full labels as they are read, so matching a running test against the list
// is a plain comparison of labels. Known failures are marked in GoogleTest's
// XML through pugixml, which escapes the reason however it is written.
//
// Tested by expectations_test.cc.

#include "conformance/testing/expectations.h"

#include <set>
#include <sstream>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "pugixml.hpp"
#include "tools/spec/file_io.h"

namespace mxcts::conformance {
namespace {

absl::Status LineError(const std::string& file, int line,
                       absl::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat(file, ":", line, ": ", message));
}

// Removes and returns the first white-space-separated word of `*text`.
absl::string_view TakeWord(absl::string_view* text) {
  *text = absl::StripLeadingAsciiWhitespace(*text);
  size_t end = 0;
  while (end < text->size() &&
         !absl::ascii_isspace(static_cast<unsigned char>((*text)[end]))) {
    ++end;
  }
  absl::string_view word = text->substr(0, end);
  text->remove_prefix(end);
  return word;
}

}  // namespace

std::string ExpandTargetLabel(absl::string_view written) {
  const size_t colon = written.find(':');
  if (colon == absl::string_view::npos || colon + 1 == written.size() ||
      written.find(':', colon + 1) != absl::string_view::npos) {
    return "";
  }
  if (absl::StartsWith(written, "//")) return std::string(written);
  if (absl::StartsWith(written, "/") || absl::StartsWith(written, "@")) {
    return "";
  }
  if (colon == 0) return absl::StrCat("//conformance", written);
  return absl::StrCat("//conformance/", written);
}

absl::StatusOr<std::vector<Expectation>> ParseExpectations(
    absl::string_view text, const std::string& file) {
  std::vector<Expectation> expectations;
  std::set<std::pair<std::string, std::string>> seen;
  int line_number = 0;
  for (absl::string_view rest : absl::StrSplit(text, '\n')) {
    ++line_number;
    rest = absl::StripAsciiWhitespace(rest);
    if (rest.empty() || absl::StartsWith(rest, "#")) continue;
    const absl::string_view target_field = TakeWord(&rest);
    const absl::string_view test = TakeWord(&rest);
    const absl::string_view reason = absl::StripAsciiWhitespace(rest);
    if (reason.empty()) {
      return LineError(file, line_number,
                       "an entry is '<target> <Suite.Name> <reason>', and the "
                       "reason is missing");
    }
    Expectation expectation;
    expectation.target = ExpandTargetLabel(target_field);
    if (expectation.target.empty()) {
      return LineError(
          file, line_number,
          absl::StrCat("'", target_field,
                       "' is not a test target (write package:name relative "
                       "to //conformance, or //package:name)"));
    }
    const size_t dot = test.find('.');
    if (dot == absl::string_view::npos || dot == 0 || dot + 1 == test.size()) {
      return LineError(
          file, line_number,
          absl::StrCat("'", test, "' is not a GoogleTest name Suite.Name"));
    }
    expectation.test = std::string(test);
    expectation.reason = std::string(reason);
    expectation.line = line_number;
    if (!seen.emplace(expectation.target, expectation.test).second) {
      return LineError(file, line_number,
                       absl::StrCat(expectation.target, " ", expectation.test,
                                    " is listed twice"));
    }
    expectations.push_back(std::move(expectation));
  }
  return expectations;
}

absl::StatusOr<std::vector<Expectation>> ReadExpectations(
    const std::string& path) {
  absl::StatusOr<std::string> text = spec::ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseExpectations(*text, path);
}

std::vector<Expectation> ExpectationsForTarget(
    const std::vector<Expectation>& expectations, absl::string_view target) {
  absl::ConsumePrefix(&target, "@");
  std::vector<Expectation> selected;
  for (const Expectation& expectation : expectations) {
    if (expectation.target == target) selected.push_back(expectation);
  }
  return selected;
}

std::string MarkKnownFailures(std::string xml,
                              const std::vector<Expectation>& expectations) {
  if (expectations.empty()) return xml;
  pugi::xml_document document;
  // Whitespace between elements and comments are kept, so the rewritten file
  // differs from GoogleTest's only by the added attributes.
  const unsigned kKeepLayout =
      pugi::parse_default | pugi::parse_comments | pugi::parse_ws_pcdata;
  if (!document.load_buffer(xml.data(), xml.size(), kKeepLayout,
                            pugi::encoding_utf8)) {
    return xml;  // not XML: nothing to mark; the results reader reports it
  }
  // Every <testcase>, in document order.
  const pugi::xpath_node_set cases = document.select_nodes("//testcase");
  bool marked = false;
  for (const Expectation& e : expectations) {
    const size_t dot = e.test.find('.');
    if (dot == std::string::npos) continue;
    const std::string suite = e.test.substr(0, dot);
    const std::string name = e.test.substr(dot + 1);
    for (const pugi::xpath_node& found : cases) {
      pugi::xml_node testcase = found.node();
      if (name != testcase.attribute("name").value() ||
          suite != testcase.attribute("classname").value()) {
        continue;
      }
      if (!testcase.attribute("expectation")) {
        testcase
            .insert_attribute_after("expectation", testcase.attribute("name"))
            .set_value(absl::StrCat("known failure: ", e.reason).c_str());
        marked = true;
      }
      break;
    }
  }
  if (!marked) return xml;
  // The declaration GoogleTest writes, then the document as it was laid out.
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  document.save(out, "", pugi::format_raw | pugi::format_no_declaration,
                pugi::encoding_utf8);
  out << "\n";
  return out.str();
}

}  // namespace mxcts::conformance
