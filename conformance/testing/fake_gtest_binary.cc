// Copyright mxcts authors.
//
// A GoogleTest binary whose outcomes the environment chooses, for
// expectation_runner_cli_test.sh and case_isolation_cli_test.sh:
// FakeSuite.Passes passes; FakeSuite.Fails fails unless FAKE_GTEST_FIXED=1;
// FakeSuite.Skipped skips as unsupported; FakeSuite.Crashes aborts when
// FAKE_GTEST_CRASH=1; FakeSuite.Segfaults raises SIGSEGV when
// FAKE_GTEST_SEGV=1; FakeSuite.Hangs sleeps forever when FAKE_GTEST_HANG=1;
// FakeSuite.ExitsInCase exits the process with status 3 when
// FAKE_GTEST_EXIT_IN_CASE=1; FakeSuite.DiesAsExpected is a passing death
// test (its child process must not be taken for the case's end);
// FakeSuite.DISABLED_Planned is disabled; FakeLater.RunsLast passes and
// records a spec property, after all of them. FAKE_GTEST_EXIT=N makes the
// binary exit with N whatever its tests did. Crashes outside any case:
// FAKE_GTEST_SEGV_AT_EXIT=1 raises SIGSEGV after the tests and their
// result; FAKE_GTEST_SEGV_BEFORE_SUITE=1 in FakeLater's suite set-up,
// between FakeSuite's cases and FakeLater's; FAKE_GTEST_SEGV_IN_SETUP=1 in
// the global set-up, before the first case.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
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

TEST(FakeSuite, Segfaults) {
  if (IsSet("FAKE_GTEST_SEGV")) {
    std::printf("about to fault\n");
    std::fflush(stdout);
    std::raise(SIGSEGV);
  }
}

TEST(FakeSuite, Hangs) {
  if (IsSet("FAKE_GTEST_HANG")) {
    std::printf("waiting for ever\n");
    std::fflush(stdout);
    while (true) pause();
  }
}

TEST(FakeSuite, ExitsInCase) {
  if (IsSet("FAKE_GTEST_EXIT_IN_CASE")) std::exit(3);
}

TEST(FakeSuite, DiesAsExpected) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(std::abort(), "");
}

TEST(FakeSuite, DISABLED_Planned) { EXPECT_TRUE(false); }

class FakeLater : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (IsSet("FAKE_GTEST_SEGV_BEFORE_SUITE")) {
      std::printf("setting up FakeLater\n");
      std::fflush(stdout);
      std::raise(SIGSEGV);
    }
  }
};

class CrashingSetUp : public ::testing::Environment {
 public:
  void SetUp() override {
    if (IsSet("FAKE_GTEST_SEGV_IN_SETUP")) std::raise(SIGSEGV);
  }
};

TEST_F(FakeLater, RunsLast) {
  RecordProperty("spec", "fake.runs-last");
  EXPECT_EQ(2 * 3, 6);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new CrashingSetUp);
  const int status = RUN_ALL_TESTS();
  if (IsSet("FAKE_GTEST_SEGV_AT_EXIT")) std::raise(SIGSEGV);
  const char* forced = std::getenv("FAKE_GTEST_EXIT");
  if (forced != nullptr) return std::atoi(forced);
  return status;
}
