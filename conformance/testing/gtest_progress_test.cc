// Copyright mxcts authors.
#include "conformance/testing/gtest_progress.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace mxcts::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

TEST(GtestProgress, FollowsStartsAndEnds) {
  GtestProgress progress;
  EXPECT_FALSE(progress.running());
  progress.Feed("[==========] Running 3 tests from 1 test suite.\n");
  progress.Feed("[ RUN      ] S.A\n[       OK ] S.A (0 ms)\n");
  EXPECT_FALSE(progress.running());
  progress.Feed("[ RUN      ] S.B\nsome output\n[  FAILED  ] S.B (1 ms)\n");
  EXPECT_FALSE(progress.running());
  progress.Feed("[ RUN      ] S.C\n[  SKIPPED ] S.C (0 ms)\n");
  EXPECT_FALSE(progress.running());
  EXPECT_THAT(progress.started(), ElementsAre("S.A", "S.B", "S.C"));
  EXPECT_THAT(progress.ended(),
              ElementsAre(Pair("S.A", "OK"), Pair("S.B", "FAILED"),
                          Pair("S.C", "SKIPPED")));
  EXPECT_EQ(progress.events(), 6u);
}

TEST(GtestProgress, KeepsTheOutputAfterTheLastCase) {
  GtestProgress progress;
  progress.Feed("[ RUN      ] S.A\ncase line\n[  FAILED  ] S.A (0 ms)\n");
  progress.Feed("[  FAILED  ] S.A\n1 FAILED TEST\nat exit");
  EXPECT_FALSE(progress.running());
  // The summary's failure line is no second end of S.A.
  EXPECT_THAT(progress.ended(), ElementsAre(Pair("S.A", "FAILED")));
  EXPECT_EQ(progress.CaseOutput(), "[  FAILED  ] S.A\n1 FAILED TEST\nat exit");
}

TEST(GtestProgress, NamesTheCaseThatNeverEnded) {
  GtestProgress progress;
  progress.Feed("[ RUN      ] S.A\n[       OK ] S.A (0 ms)\n[ RUN   ");
  progress.Feed("   ] P/S.Crashes/3\nabout to fault\npartial");
  EXPECT_TRUE(progress.running());
  EXPECT_EQ(progress.current(), "P/S.Crashes/3");
  EXPECT_EQ(progress.CaseOutput(), "about to fault\npartial");
}

TEST(GtestProgress, FindsMarkersAfterUnfinishedLinesAndColours) {
  GtestProgress progress;
  progress.Feed("no newline here[ RUN      ] S.A\n");
  EXPECT_EQ(progress.current(), "S.A");
  progress.Feed("\x1b[0;32m[       OK ] \x1b[mS.A (0 ms)\n");
  EXPECT_FALSE(progress.running());
  progress.Feed("\x1b[0;32m[ RUN      ] \x1b[mS.B\n");
  EXPECT_TRUE(progress.running());
  EXPECT_EQ(progress.current(), "S.B");
}

// Control: text that merely mentions a case is not progress.
TEST(GtestProgress, OrdinaryOutputIsNotProgress) {
  GtestProgress progress;
  progress.Feed("[ RUN      ] S.A\nRUN S.B OK\n[ OK ] S.A\n");
  EXPECT_TRUE(progress.running());
  EXPECT_EQ(progress.current(), "S.A");
  EXPECT_EQ(progress.events(), 1u);
}

TEST(GtestProgress, KeepsOnlyTheLastLinesOfTheCase) {
  GtestProgress progress;
  progress.Feed("[ RUN      ] S.A\n");
  for (size_t i = 0; i < GtestProgress::kKeptLines + 5; ++i) {
    progress.Feed("line " + std::to_string(i) + "\n");
  }
  const std::string output = progress.CaseOutput();
  EXPECT_EQ(output.find("line 4\n"), std::string::npos);
  EXPECT_NE(output.find("line 5\n"), std::string::npos);
}

}  // namespace
}  // namespace mxcts::conformance
