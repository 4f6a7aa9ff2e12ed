// Copyright mxcts authors.
//
// A GoogleTest binary whose outcomes the environment chooses, for
// expectation_runner_cli_test.sh: FakeSuite.Passes passes; FakeSuite.Fails
// fails unless FAKE_GTEST_FIXED=1; FakeSuite.Skipped skips as unsupported;
// FakeSuite.Crashes aborts when FAKE_GTEST_CRASH=1; FAKE_GTEST_EXIT=N makes
// the binary exit with N whatever its tests did.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

bool IsSet(const char* variable) {
  const char* value = std::getenv(variable);
  return value != nullptr && std::string(value) == "1";
}

TEST(FakeSuite, Passes) { EXPECT_EQ(1 + 1, 2); }

TEST(FakeSuite, Fails) {
  EXPECT_TRUE(IsSet("FAKE_GTEST_FIXED")) << "fails until it is fixed";
}

TEST(FakeSuite, Skipped) { GTEST_SKIP() << "unsupported: ipc"; }

TEST(FakeSuite, Crashes) {
  if (IsSet("FAKE_GTEST_CRASH")) std::abort();
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
  const char* forced = std::getenv("FAKE_GTEST_EXIT");
  if (forced != nullptr) return std::atoi(forced);
  return status;
}
