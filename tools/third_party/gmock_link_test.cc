// Links GoogleMock's matchers and main.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

namespace {

using ::testing::ElementsAre;
using ::testing::Not;

TEST(GmockLink, MatchersWork) {
  std::vector<int> dims = {64, 1, 1};
  EXPECT_THAT(dims, ElementsAre(64, 1, 1));
  EXPECT_THAT(dims, Not(ElementsAre(32, 1, 1)));
}

}  // namespace
