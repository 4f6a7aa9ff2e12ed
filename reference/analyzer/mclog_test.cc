// Copyright mxcts authors.

#include <gtest/gtest.h>

#include <string>

#include "mxlog/mxlog.h"
#include "reference/logging/log.h"

namespace {

using mxcts::logging::LogLevel;
using mxcts::logging::SetLogLevelForTesting;

TEST(McLog, LevelAndEnabled) {
  SetLogLevelForTesting(LogLevel::kWarning);
  EXPECT_EQ(mcLogGetLevel(), MCLOG_LEVEL_WARNING);
  EXPECT_EQ(mcLogIsEnabled(MCLOG_LEVEL_ERROR), 1);
  EXPECT_EQ(mcLogIsEnabled(MCLOG_LEVEL_WARNING), 1);
  EXPECT_EQ(mcLogIsEnabled(MCLOG_LEVEL_INFO), 0);
  EXPECT_EQ(mcLogIsEnabled(MCLOG_LEVEL_OFF), 0);
  EXPECT_EQ(mcLogIsEnabled(static_cast<mcLogLevel>(9)), 0);
}

TEST(McLog, MacrosFormatWithTagAndLocation) {
  SetLogLevelForTesting(LogLevel::kDebug);
  testing::internal::CaptureStderr();
  const int line = __LINE__ + 1;
  LOGE("e %d %s", 1, "x");
  LOGV("v %.1f", 2.5);
  mcLogPrint(MCLOG_LEVEL_INFO, nullptr, nullptr, 3, "%s", "placeholders");
  mcLogPrint(static_cast<mcLogLevel>(0), "T", "f.cc", 1, "not printed");
  const std::string out = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out,
            "[APP][E]mclog_test.cc:" + std::to_string(line) +
                ": e 1 x\n[APP][V]mclog_test.cc:" + std::to_string(line + 1) +
                ": v 2.5\n[APP][I]?:3: placeholders\n");
}

int evaluations = 0;
int Count() { return ++evaluations; }

TEST(McLog, ArgumentsOfFilteredMessagesAreNotEvaluated) {
  SetLogLevelForTesting(LogLevel::kError);
  testing::internal::CaptureStderr();
  LOGD("%d", Count());
  LOGE("%d", Count());
  const std::string out = testing::internal::GetCapturedStderr();
  EXPECT_EQ(evaluations, 1);
  EXPECT_NE(out.find(": 1\n"), std::string::npos);
}

}  // namespace
