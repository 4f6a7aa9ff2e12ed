// Copyright mxcts authors.

#include "reference/logging/log.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>
#include <thread>
#include <vector>

namespace mxcts::logging {
namespace {

TEST(FormatLogLine, ComponentLetterBaseNameLineMessage) {
  EXPECT_EQ(FormatLogLine("MCR", Severity::kWarning, "a/b/file.cc", 12, "hi"),
            "[MCR][W]file.cc:12: hi\n");
  EXPECT_EQ(FormatLogLine("APP", Severity::kVerbose, "x.cc", 1, "two\nlines\n"),
            "[APP][V]x.cc:1: two lines\n");
}

TEST(LogLevel, ReadOnceFromTheEnvironment) {
  // The test runs with MXLOG_LEVEL unset (BUILD): the default applies, and
  // a later change is not seen.
  EXPECT_EQ(CurrentLogLevel(), kDefaultLogLevel);
  setenv("MXLOG_LEVEL", "off", 1);
  EXPECT_EQ(CurrentLogLevel(), kDefaultLogLevel);
  unsetenv("MXLOG_LEVEL");
}

TEST(LogPrintf, WritesOnlyWhatTheLevelPrints) {
  SetLogLevelForTesting(LogLevel::kWarning);
  testing::internal::CaptureStderr();
  MXCTS_LOG("T", Severity::kWarning, "value %d", 7);
  MXCTS_LOG("T", Severity::kInfo, "hidden %d", 8);
  const std::string out = testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find("[T][W]log_test.cc:"), std::string::npos) << out;
  EXPECT_NE(out.find(": value 7\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("hidden"), std::string::npos) << out;
  SetLogLevelForTesting(kDefaultLogLevel);
}

TEST(LogPrintf, LongMessagesAreWhole) {
  SetLogLevelForTesting(LogLevel::kDebug);
  const std::string long_text(5000, 'x');
  testing::internal::CaptureStderr();
  MCR_LOGD("%s|", long_text.c_str());
  const std::string out = testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find(long_text + "|\n"), std::string::npos);
  SetLogLevelForTesting(kDefaultLogLevel);
}

TEST(LogPrintf, ThreadsWriteWholeLines) {
  SetLogLevelForTesting(LogLevel::kDebug);
  testing::internal::CaptureStderr();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < 200; ++i) MCR_LOGD("thread %d message %d end", t, i);
    });
  }
  for (std::thread& thread : threads) thread.join();
  const std::string out = testing::internal::GetCapturedStderr();
  int lines = 0;
  size_t start = 0;
  for (size_t end; (end = out.find('\n', start)) != std::string::npos;
       start = end + 1) {
    const std::string line = out.substr(start, end - start);
    EXPECT_EQ(line.rfind("[MCR][D]log_test.cc:", 0), 0u) << line;
    EXPECT_EQ(line.substr(line.size() - 4), " end") << line;
    ++lines;
  }
  EXPECT_EQ(lines, 800);
  SetLogLevelForTesting(kDefaultLogLevel);
}

}  // namespace
}  // namespace mxcts::logging
