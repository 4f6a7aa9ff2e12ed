// Copyright mxcts authors.
//
// Merging GoogleTest XML results. Each document is read with pugixml and its
// <testcase> elements are copied, untouched (properties, failures, skips),
// under one <testsuite> per suite, in the given order; an aborted case gets
// an element of its own, shaped as GoogleTest writes a failed case. Then
// the suite and root attributes that tools read (tests, failures, disabled,
// skipped, errors, time) are recounted from what was written.
//
// Tested by merged_results_test.cc.

#include "conformance/testing/merged_results.h"

#include <map>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "pugixml.hpp"

namespace mxcts::conformance {
namespace {

// Removes invalid XML characters (controls other than tab and newline).
std::string XmlSafe(absl::string_view text) {
  std::string safe;
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 || c == '\n' || c == '\t') safe += c;
  }
  return safe;
}

// Counts of a <testsuite> or <testsuites> element.
struct Counts {
  int tests = 0;
  int failures = 0;
  int disabled = 0;
  int skipped = 0;
  double time = 0;

  void Add(const pugi::xml_node& testcase) {
    ++tests;
    time += testcase.attribute("time").as_double();
    if (testcase.child("failure") || testcase.child("error")) {
      ++failures;
    } else if (std::string(testcase.attribute("status").value()) == "notrun") {
      ++disabled;
    } else if (testcase.child("skipped") ||
               std::string(testcase.attribute("result").value()) == "skipped") {
      ++skipped;
    }
  }
  void Write(pugi::xml_node element) const {
    for (const char* name :
         {"tests", "failures", "disabled", "skipped", "errors", "time"}) {
      element.remove_attribute(name);
    }
    element.append_attribute("tests") = tests;
    element.append_attribute("failures") = failures;
    element.append_attribute("disabled") = disabled;
    element.append_attribute("skipped") = skipped;
    element.append_attribute("errors") = 0;
    element.append_attribute("time") = absl::StrCat(time).c_str();
  }
};

std::string SuiteOf(const std::string& name) {
  return name.substr(0, name.find('.'));
}

}  // namespace

absl::StatusOr<std::string> MergeResults(
    const std::vector<std::string>& results,
    const std::vector<std::string>& order,
    const std::vector<AbortedCase>& aborted) {
  std::vector<pugi::xml_document> documents(results.size());
  std::map<std::string, pugi::xml_node> cases;  // "Suite.Name" -> testcase
  std::vector<std::string> found;               // in document order
  std::string timestamp;
  for (size_t i = 0; i < results.size(); ++i) {
    const pugi::xml_parse_result parsed =
        documents[i].load_buffer(results[i].data(), results[i].size());
    if (!parsed) {
      return absl::InvalidArgumentError(absl::StrCat(
          "result ", i + 1, " of the recovered run: ", parsed.description()));
    }
    const pugi::xml_node root = documents[i].document_element();
    if (timestamp.empty()) timestamp = root.attribute("timestamp").value();
    for (const pugi::xml_node& suite : root.children("testsuite")) {
      for (const pugi::xml_node& testcase : suite.children("testcase")) {
        const std::string name =
            absl::StrCat(testcase.attribute("classname").value(), ".",
                         testcase.attribute("name").value());
        if (cases.emplace(name, testcase).second) found.push_back(name);
      }
    }
  }

  pugi::xml_document merged;
  pugi::xml_node declaration = merged.append_child(pugi::node_declaration);
  declaration.append_attribute("version") = "1.0";
  declaration.append_attribute("encoding") = "UTF-8";
  pugi::xml_node root = merged.append_child("testsuites");
  std::map<std::string, pugi::xml_node> suites;
  std::map<std::string, Counts> suite_counts;
  Counts total;
  std::vector<std::string> suite_order;
  auto suite_of = [&](const std::string& name) {
    const std::string suite = SuiteOf(name);
    auto it = suites.find(suite);
    if (it != suites.end()) return it->second;
    pugi::xml_node element = root.append_child("testsuite");
    element.append_attribute("name") = suite.c_str();
    suite_order.push_back(suite);
    return suites[suite] = element;
  };

  std::map<std::string, const AbortedCase*> aborted_by_name;
  for (const AbortedCase& aborted_case : aborted) {
    aborted_by_name.emplace(aborted_case.name, &aborted_case);
  }
  std::set<std::string> written;
  auto write = [&](const std::string& name) {
    if (!written.insert(name).second) return;
    pugi::xml_node testcase;
    auto it = cases.find(name);
    auto ended = aborted_by_name.find(name);
    if (ended != aborted_by_name.end()) {
      testcase = suite_of(name).append_child("testcase");
      testcase.append_attribute("name") =
          name.substr(name.find('.') + 1).c_str();
      testcase.append_attribute("status") = "run";
      testcase.append_attribute("result") = "completed";
      testcase.append_attribute("time") =
          absl::StrFormat("%.3f", ended->second->seconds).c_str();
      testcase.append_attribute("classname") = SuiteOf(name).c_str();
      testcase.append_attribute("aborted") = ended->second->how.c_str();
      pugi::xml_node failure = testcase.append_child("failure");
      failure.append_attribute("message") = ended->second->how.c_str();
      failure.append_attribute("type") = "";
      failure.append_child(pugi::node_cdata)
          .set_value(
              XmlSafe(absl::StrCat(ended->second->how,
                                   "; the other cases of the binary ran in "
                                   "processes of their own\nlast output:\n",
                                   ended->second->output))
                  .c_str());
    } else if (it != cases.end()) {
      testcase = suite_of(name).append_copy(it->second);
    } else {
      return;
    }
    suite_counts[SuiteOf(name)].Add(testcase);
    total.Add(testcase);
  };
  for (const std::string& name : order) write(name);
  for (const std::string& name : found) write(name);
  for (const AbortedCase& aborted_case : aborted) write(aborted_case.name);

  for (const std::string& suite : suite_order) {
    suite_counts[suite].Write(suites[suite]);
  }
  total.Write(root);
  if (!timestamp.empty()) {
    root.append_attribute("timestamp") = timestamp.c_str();
  }
  root.append_attribute("name") = "AllTests";
  std::ostringstream text;
  merged.save(text, "  ", pugi::format_default, pugi::encoding_utf8);
  return text.str();
}

std::string ResultFromConsole(
    const std::vector<std::pair<std::string, std::string>>& ended,
    const std::string& why) {
  pugi::xml_document document;
  pugi::xml_node root = document.append_child("testsuites");
  root.append_attribute("name") = "AllTests";
  std::map<std::string, pugi::xml_node> suites;
  for (const auto& [name, word] : ended) {
    const std::string suite = SuiteOf(name);
    pugi::xml_node& element = suites[suite];
    if (!element) {
      element = root.append_child("testsuite");
      element.append_attribute("name") = suite.c_str();
    }
    pugi::xml_node testcase = element.append_child("testcase");
    testcase.append_attribute("name") = name.substr(name.find('.') + 1).c_str();
    testcase.append_attribute("status") = "run";
    testcase.append_attribute("result") =
        word == "SKIPPED" ? "skipped" : "completed";
    testcase.append_attribute("time") = "0";
    testcase.append_attribute("classname") = suite.c_str();
    if (word == "FAILED") {
      pugi::xml_node failure = testcase.append_child("failure");
      failure.append_attribute("message") = XmlSafe(why).c_str();
      failure.append_attribute("type") = "";
      failure.append_child(pugi::node_cdata).set_value(XmlSafe(why).c_str());
    } else if (word == "SKIPPED") {
      testcase.append_child("skipped").append_attribute("message") = "";
    }
  }
  std::ostringstream text;
  document.save(text, "  ", pugi::format_default, pugi::encoding_utf8);
  return text.str();
}

}  // namespace mxcts::conformance
