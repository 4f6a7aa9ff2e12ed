// Copyright mxcts authors.
//
// Tests of MXCTS_TIMELINE and MACA_LAUNCH_BLOCKING parsing.

#include "reference/runtime/timeline/timeline_mode.h"

#include <gtest/gtest.h>

namespace mxcts::runtime {
namespace {

TEST(TimelineMode, ValidValues) {
  EXPECT_EQ(ParseTimelineMode("eager", nullptr).kind, TimelineMode::kEager);
  EXPECT_EQ(ParseTimelineMode("deferred", nullptr).kind,
            TimelineMode::kDeferred);
  TimelineMode shuffle = ParseTimelineMode("shuffle:18446744073709551615", "0");
  EXPECT_EQ(shuffle.kind, TimelineMode::kShuffle);
  EXPECT_EQ(shuffle.seed, 18446744073709551615ull);
  EXPECT_EQ(shuffle.ToString(), "shuffle:18446744073709551615");
  EXPECT_EQ(ParseTimelineMode("deferred", nullptr).ToString(), "deferred");
}

TEST(TimelineMode, UnsetOrInvalidIsEager) {
  for (const char* text :
       {static_cast<const char*>(nullptr), "", "Deferred", "deferred ",
        "shuffle", "shuffle:", "shuffle:-1", "shuffle:12x",
        "shuffle:18446744073709551616", "lazy"}) {
    EXPECT_EQ(ParseTimelineMode(text, nullptr).kind, TimelineMode::kEager)
        << (text == nullptr ? "(null)" : text);
  }
}

TEST(TimelineMode, LaunchBlockingForcesEager) {
  EXPECT_EQ(ParseTimelineMode("deferred", "1").kind, TimelineMode::kEager);
  EXPECT_EQ(ParseTimelineMode("shuffle:3", "1").kind, TimelineMode::kEager);
  // Control: other values leave the timeline variable in charge.
  EXPECT_EQ(ParseTimelineMode("deferred", "0").kind, TimelineMode::kDeferred);
  EXPECT_EQ(ParseTimelineMode("deferred", "yes").kind, TimelineMode::kDeferred);
}

}  // namespace
}  // namespace mxcts::runtime
