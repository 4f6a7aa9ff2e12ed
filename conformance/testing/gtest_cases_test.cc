// Copyright mxcts authors.
#include "conformance/testing/gtest_cases.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace mxcts::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr char kListing[] =
    "Stream.\n"
    "  Creates\n"
    "  DISABLED_Planned\n"
    "Sizes/Copy.  # TypeParam = int\n"
    "  Works/0  # GetParam() = 1\n"
    "  Works/1  # GetParam() = 2\n"
    "DISABLED_Later.\n"
    "  Runs\n";

std::vector<std::string> Names(const std::vector<ListedCase>& cases) {
  std::vector<std::string> names;
  for (const ListedCase& c : cases) names.push_back(c.name);
  return names;
}

TEST(ParseGtestList, ReadsSuitesCasesAndParameters) {
  const std::vector<ListedCase> cases = ParseGtestList(kListing);
  EXPECT_THAT(Names(cases),
              ElementsAre("Stream.Creates", "Stream.DISABLED_Planned",
                          "Sizes/Copy.Works/0", "Sizes/Copy.Works/1",
                          "DISABLED_Later.Runs"));
  EXPECT_FALSE(cases[0].disabled);
  EXPECT_TRUE(cases[1].disabled);
  EXPECT_FALSE(cases[2].disabled);
  EXPECT_TRUE(cases[4].disabled);  // the suite is disabled
}

TEST(ParseGtestList, IgnoresTheProgramsOwnOutput) {
  EXPECT_THAT(Names(ParseGtestList("Loading the device table now\n"
                                   "  which takes a while\n"
                                   "Suite.\n  Case\n")),
              ElementsAre("Suite.Case"));
  EXPECT_THAT(ParseGtestList(""), IsEmpty());
}

TEST(SelectShard, UnshardedRunsEveryEnabledCase) {
  const ShardSelection all = SelectShard(ParseGtestList(kListing), {}, false);
  EXPECT_THAT(all.run, ElementsAre("Stream.Creates", "Sizes/Copy.Works/0",
                                   "Sizes/Copy.Works/1"));
  EXPECT_THAT(all.disabled,
              ElementsAre("Stream.DISABLED_Planned", "DISABLED_Later.Runs"));
}

TEST(SelectShard, AlsoRunDisabledRunsThemToo) {
  const ShardSelection all = SelectShard(ParseGtestList(kListing), {}, true);
  EXPECT_EQ(all.run.size(), 5u);
  EXPECT_THAT(all.disabled, IsEmpty());
}

// GoogleTest numbers only runnable cases; a disabled case falls in the
// shard of the next number.
TEST(SelectShard, FollowsGoogleTestsShardRule) {
  const std::vector<ListedCase> listed = ParseGtestList(kListing);
  const ShardSelection zero = SelectShard(listed, {2, 0}, false);
  EXPECT_THAT(zero.run, ElementsAre("Stream.Creates", "Sizes/Copy.Works/1"));
  EXPECT_THAT(zero.disabled, IsEmpty());
  const ShardSelection one = SelectShard(listed, {2, 1}, false);
  EXPECT_THAT(one.run, ElementsAre("Sizes/Copy.Works/0"));
  EXPECT_THAT(one.disabled,
              ElementsAre("Stream.DISABLED_Planned", "DISABLED_Later.Runs"));
}

TEST(ExactFilters, JoinsAndSplitsAtTheLimit) {
  EXPECT_THAT(ExactFilters({"A.a", "A.b", "B.c"}, 100),
              ElementsAre("A.a:A.b:B.c"));
  EXPECT_THAT(ExactFilters({"A.a", "A.b", "B.c"}, 7),
              ElementsAre("A.a:A.b", "B.c"));
  EXPECT_THAT(ExactFilters({"Long.name"}, 3), ElementsAre("Long.name"));
  EXPECT_THAT(ExactFilters({}, 100), IsEmpty());
}

}  // namespace
}  // namespace mxcts::conformance
