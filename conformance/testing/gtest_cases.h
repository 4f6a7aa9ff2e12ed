// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/testing/gtest_cases.h
// -----------------------------------------------------------------------------
//
// The test cases of a GoogleTest binary, as case isolation
// (case_isolation.h) needs them when it restarts a binary after a crash: the
// cases `--gtest_list_tests` prints, the ones GoogleTest itself would run on
// this shard, and a filter that names exactly a set of them.
//
// The listing honors the test filter but not sharding (GoogleTest lists
// every case that matches the filter), so the shard's cases are computed
// here with GoogleTest's own rule: cases that match the filter and are not
// disabled are numbered in order across all shards, and case i belongs to
// shard i % total; a disabled case belongs to the shard of the next number.
//
// Example:
//
//   std::vector<ListedCase> listed = ParseGtestList(listing_output);
//   ShardSelection mine = SelectShard(listed, Sharding{2, 0}, false);
//   std::vector<std::string> filters = ExactFilters(mine.run, 100000);

#ifndef MXCTS_CONFORMANCE_TESTING_GTEST_CASES_H_
#define MXCTS_CONFORMANCE_TESTING_GTEST_CASES_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace mxcts::conformance {

struct ListedCase {
  // "Suite.Name", as GoogleTest prints it when the case runs.
  std::string name;
  // The suite or the case name starts with DISABLED_ (after any
  // "Prefix/" of an instantiation).
  bool disabled = false;
};

// Parses the output of `--gtest_list_tests`: a suite line "Suite." (maybe
// followed by "  # TypeParam = ..."), then its cases indented by two spaces
// (maybe followed by "  # GetParam() = ..."). Lines that are neither (a
// global constructor's output) are ignored. Returns the cases in order.
std::vector<ListedCase> ParseGtestList(absl::string_view listing);

// A shard of the run: `total` 0 or 1 means the run is not sharded.
struct Sharding {
  int total = 0;
  int index = 0;
};

struct ShardSelection {
  // The cases GoogleTest runs on this shard, in order.
  std::vector<std::string> run;
  // The disabled cases it reports as not run on this shard.
  std::vector<std::string> disabled;
};

// The cases of `listed` that GoogleTest runs (and the disabled ones it
// reports) on `sharding`; with `also_run_disabled`
// (--gtest_also_run_disabled_tests) disabled cases run like the others.
ShardSelection SelectShard(const std::vector<ListedCase>& listed,
                           Sharding sharding, bool also_run_disabled);

// GoogleTest filters ("A.b:A.c") naming exactly `names`, split so that no
// filter is longer than `max_length` bytes (a single command-line argument
// is limited; 100,000 is safe); a name longer than that gets a filter of
// its own. Returns no filter for no names.
std::vector<std::string> ExactFilters(const std::vector<std::string>& names,
                                      size_t max_length);

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_GTEST_CASES_H_
