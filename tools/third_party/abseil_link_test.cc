// Uses one entry point of each abseil component that tools/third_party maps,
// so a missing library in abseil.BUILD fails to link here.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/container/flat_hash_map.h"
#include "absl/flags/flag.h"
#include "absl/random/random.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

ABSL_FLAG(int, link_probe_flag, 7,
          "A flag that exists only to link absl/flags.");

namespace {

absl::StatusOr<int> ParsePositive(int value) {
  if (value <= 0) return absl::InvalidArgumentError("not positive");
  return value;
}

TEST(AbseilLink, StringsAndFormat) {
  EXPECT_EQ(absl::StrCat("wave", 64), "wave64");
  EXPECT_EQ(absl::StrFormat("%d-%s", 3, "x"), "3-x");
  std::vector<std::string> parts = absl::StrSplit("a.b.c", '.');
  EXPECT_EQ(parts.size(), 3u);
}

TEST(AbseilLink, StatusAndStatusOr) {
  EXPECT_TRUE(ParsePositive(4).ok());
  absl::StatusOr<int> bad = ParsePositive(0);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().ToString(), "INVALID_ARGUMENT: not positive");
}

TEST(AbseilLink, Containers) {
  absl::flat_hash_map<std::string, int> hashed = {{"a", 1}, {"b", 2}};
  EXPECT_EQ(hashed.at("b"), 2);
  absl::btree_map<int, int> ordered = {{2, 20}, {1, 10}};
  EXPECT_EQ(ordered.begin()->second, 10);
}

TEST(AbseilLink, FlagsRandomTimeMutex) {
  EXPECT_EQ(absl::GetFlag(FLAGS_link_probe_flag), 7);
  absl::BitGen gen;
  int drawn = absl::Uniform(gen, 0, 10);
  EXPECT_GE(drawn, 0);
  EXPECT_LT(drawn, 10);
  EXPECT_EQ(absl::ToInt64Milliseconds(absl::Seconds(2)), 2000);
  absl::Mutex mutex;
  absl::MutexLock lock(&mutex);
  SUCCEED();
}

}  // namespace
