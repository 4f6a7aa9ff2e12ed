// Copyright mxcts authors.
//
// The sink keeps the process's level in __mc_internal::ProcessLogState()
// when the process links it (log_state.h): what one library sets, another
// reads.

#include <gtest/gtest.h>

#include "reference/logging/log.h"
#include "reference/logging/log_state.h"

namespace mxcts::logging {
namespace {

TEST(ProcessLogState, OneStatePerProcess) {
  EXPECT_EQ(&__mc_internal::ProcessLogState(),
            &__mc_internal::ProcessLogState());
}

TEST(ProcessLogState, HoldsTheLevelTheSinkUses) {
  SetLogLevelForTesting(LogLevel::kError);
  EXPECT_EQ(__mc_internal::ProcessLogState().level.load(),
            static_cast<int>(LogLevel::kError));
  // The other way round: a level stored in the state (as another library's
  // sink does) is the level this sink filters by.
  __mc_internal::ProcessLogState().level.store(
      static_cast<int>(LogLevel::kDebug));
  EXPECT_EQ(CurrentLogLevel(), LogLevel::kDebug);
  EXPECT_TRUE(LogEnabled(Severity::kDebug));
  // Control: a different level stored gives a different answer.
  __mc_internal::ProcessLogState().level.store(
      static_cast<int>(LogLevel::kOff));
  EXPECT_FALSE(LogEnabled(Severity::kError));
  SetLogLevelForTesting(kDefaultLogLevel);
}

}  // namespace
}  // namespace mxcts::logging
