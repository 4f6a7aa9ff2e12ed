// Copyright mxcts authors.

#include "reference/logging/log_level.h"

#include <gtest/gtest.h>

namespace mxcts::logging {
namespace {

TEST(ParseLogLevel, NamesInAnyCase) {
  EXPECT_EQ(ParseLogLevel("off"), LogLevel::kOff);
  EXPECT_EQ(ParseLogLevel("error"), LogLevel::kError);
  EXPECT_EQ(ParseLogLevel("warning"), LogLevel::kWarning);
  EXPECT_EQ(ParseLogLevel("info"), LogLevel::kInfo);
  EXPECT_EQ(ParseLogLevel("debug"), LogLevel::kDebug);
  EXPECT_EQ(ParseLogLevel("DEBUG"), LogLevel::kDebug);
  EXPECT_EQ(ParseLogLevel("Warning"), LogLevel::kWarning);
}

TEST(ParseLogLevel, AnythingElseIsNoLevel) {
  for (const char* text : {"", " info", "info ", "warn", "verbose", "3", "err",
                           "debugx", "offf"}) {
    EXPECT_FALSE(ParseLogLevel(text).has_value()) << text;
  }
}

TEST(Prints, ThresholdOrder) {
  EXPECT_FALSE(Prints(LogLevel::kOff, Severity::kError));
  EXPECT_TRUE(Prints(LogLevel::kError, Severity::kError));
  EXPECT_FALSE(Prints(LogLevel::kError, Severity::kWarning));
  EXPECT_TRUE(Prints(LogLevel::kWarning, Severity::kWarning));
  EXPECT_FALSE(Prints(LogLevel::kWarning, Severity::kInfo));
  EXPECT_TRUE(Prints(LogLevel::kInfo, Severity::kInfo));
  EXPECT_FALSE(Prints(LogLevel::kInfo, Severity::kDebug));
  EXPECT_TRUE(Prints(LogLevel::kDebug, Severity::kDebug));
  EXPECT_TRUE(Prints(LogLevel::kDebug, Severity::kVerbose));
  EXPECT_FALSE(Prints(LogLevel::kInfo, Severity::kVerbose));
}

TEST(Names, RoundTrip) {
  for (LogLevel level : {LogLevel::kOff, LogLevel::kError, LogLevel::kWarning,
                         LogLevel::kInfo, LogLevel::kDebug}) {
    EXPECT_EQ(ParseLogLevel(LogLevelName(level)), level);
  }
  EXPECT_EQ(SeverityLetter(Severity::kVerbose), 'V');
}

}  // namespace
}  // namespace mxcts::logging
