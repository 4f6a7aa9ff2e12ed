// Links RE2 and checks a match and a non-match.
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <string>

namespace {

TEST(Re2Link, FullMatchExtractsAndRejects) {
  std::string word;
  EXPECT_TRUE(
      RE2::FullMatch("api.stream.sync", R"((\w+)\.stream\.\w+)", &word));
  EXPECT_EQ(word, "api");
  EXPECT_FALSE(RE2::FullMatch("API stream", R"([a-z.]+)"));
}

}  // namespace
