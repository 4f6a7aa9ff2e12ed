// Copyright mxcts authors.
//
// Reading `--gtest_list_tests` and choosing a shard's cases. The listing is
// line-oriented and meant for programs: a suite line ends with "." (type
// parameters follow after "  # "), a case line starts with two spaces
// (value parameters follow after "  # "). The shard rule and the disabled
// rule are GoogleTest's (UnitTestImpl::FilterTests in gtest.cc, 1.12):
// "DISABLED_*" or "*/DISABLED_*" on the suite or the case name disables it,
// and only runnable cases advance the shard counter.
//
// Tested by gtest_cases_test.cc.

#include "conformance/testing/gtest_cases.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace mxcts::conformance {
namespace {

// Removes a trailing "  # ..." comment and surrounding whitespace.
absl::string_view WithoutComment(absl::string_view line) {
  const size_t comment = line.find("  #");
  if (comment != absl::string_view::npos) line = line.substr(0, comment);
  return absl::StripAsciiWhitespace(line);
}

bool IsDisabledName(absl::string_view name) {
  return absl::StartsWith(name, "DISABLED_") ||
         absl::StrContains(name, "/DISABLED_");
}

}  // namespace

std::vector<ListedCase> ParseGtestList(absl::string_view listing) {
  std::vector<ListedCase> cases;
  std::string suite;
  while (!listing.empty()) {
    const size_t newline = listing.find('\n');
    absl::string_view line = listing.substr(0, newline);
    listing = newline == absl::string_view::npos ? absl::string_view()
                                                 : listing.substr(newline + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (absl::StartsWith(line, "  ")) {
      const absl::string_view name = WithoutComment(line);
      if (suite.empty() || name.empty()) continue;
      cases.push_back({absl::StrCat(suite, ".", name),
                       IsDisabledName(suite) || IsDisabledName(name)});
      continue;
    }
    const absl::string_view head = WithoutComment(line);
    if (!head.empty() && head.back() == '.' &&
        head.find(' ') == absl::string_view::npos) {
      suite = std::string(head.substr(0, head.size() - 1));
    } else {
      suite.clear();  // output of the program itself, not a suite
    }
  }
  return cases;
}

ShardSelection SelectShard(const std::vector<ListedCase>& listed,
                           Sharding sharding, bool also_run_disabled) {
  ShardSelection selection;
  const bool sharded = sharding.total > 1;
  int runnable = 0;
  for (const ListedCase& listed_case : listed) {
    const bool runs = also_run_disabled || !listed_case.disabled;
    const bool mine = !sharded || runnable % sharding.total == sharding.index;
    if (mine) {
      (runs ? selection.run : selection.disabled).push_back(listed_case.name);
    }
    if (runs) ++runnable;
  }
  return selection;
}

std::vector<std::string> ExactFilters(const std::vector<std::string>& names,
                                      size_t max_length) {
  std::vector<std::string> filters;
  std::string filter;
  for (const std::string& name : names) {
    if (!filter.empty() && filter.size() + 1 + name.size() > max_length) {
      filters.push_back(std::move(filter));
      filter.clear();
    }
    if (!filter.empty()) filter += ':';
    filter += name;
  }
  if (!filter.empty()) filters.push_back(std::move(filter));
  return filters;
}

}  // namespace mxcts::conformance
