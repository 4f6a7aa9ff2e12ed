// Copyright mxcts authors.
//
// Tests of bounded processes: output is captured, exit statuses are
// reported, a program that outlives its bound is killed, and a program
// that does not exist is an error.

#include "reference/rtc/bounded_process.h"

#include <gtest/gtest.h>

namespace mxcts::rtc {
namespace {

TEST(RunBounded, CapturesOutputAndStatus) {
  absl::StatusOr<BoundedResult> r = RunBounded(
      {"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, absl::Seconds(30));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_FALSE(r->succeeded());
  EXPECT_NE(r->output.find("out"), std::string::npos);
  EXPECT_NE(r->output.find("err"), std::string::npos);
}

TEST(RunBounded, ArgumentsAreNotSplitByAShell) {
  absl::StatusOr<BoundedResult> r =
      RunBounded({"/bin/echo", "a b; echo c"}, absl::Seconds(30));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->succeeded());
  EXPECT_EQ(r->output, "a b; echo c\n");
}

TEST(RunBounded, KillsAProgramThatOutlivesItsBound) {
  absl::StatusOr<BoundedResult> r =
      RunBounded({"/bin/sleep", "30"}, absl::Milliseconds(200));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_FALSE(r->succeeded());
}

TEST(RunBounded, AMissingProgramIsAnError) {
  EXPECT_FALSE(RunBounded({"/nonexistent/mxcc"}, absl::Seconds(1)).ok());
  EXPECT_FALSE(RunBounded({}, absl::Seconds(1)).ok());
}

}  // namespace
}  // namespace mxcts::rtc
