// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/testing/gtest_progress.h
// -----------------------------------------------------------------------------
//
// Follows a GoogleTest binary's console output as it arrives, to know which
// test case is running: GoogleTest prints (and flushes) "[ RUN      ] X"
// when case X starts and "[       OK ] X", "[  FAILED  ] X" or
// "[  SKIPPED ] X" when it ends. When the binary dies or hangs, the case that
// started and never ended is the one to blame (case_isolation.h).
//
// Terminal colour codes are ignored, and a marker counts anywhere in a line
// (a case's own output may leave a line unfinished before the next marker).
// Death-test children print no markers (GoogleTest silences their
// listeners), so they never confuse the parent's progress.
//
// Example:
//
//   GtestProgress progress;
//   progress.Feed(chunk);  // every chunk read from the binary's stdout
//   if (progress.running()) Blame(progress.current(), progress.CaseOutput());

#ifndef MXCTS_CONFORMANCE_TESTING_GTEST_PROGRESS_H_
#define MXCTS_CONFORMANCE_TESTING_GTEST_PROGRESS_H_

#include <cstddef>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace mxcts::conformance {

class GtestProgress {
 public:
  // At most this many of the running case's last output lines are kept.
  static constexpr size_t kKeptLines = 40;

  // Takes the next piece of output (any size, lines may be split).
  void Feed(absl::string_view chunk);

  // True while a case has started and not ended.
  bool running() const { return running_; }
  // The running case, or the last one that ran; "" before the first.
  const std::string& current() const { return current_; }
  // Every case that started, in order.
  const std::vector<std::string>& started() const { return started_; }
  // Every case that ended, in order, with its end marker's word: "OK",
  // "FAILED" or "SKIPPED". (A result of its own when the process dies
  // before GoogleTest writes its XML.)
  const std::vector<std::pair<std::string, std::string>>& ended() const {
    return ended_;
  }
  // How many markers (starts and ends) were seen: a caller that notes it
  // can tell whether anything progressed since.
  size_t events() const { return events_; }
  // The last kKeptLines lines the running case printed (the unfinished
  // line too), joined with newlines; when no case is running, those
  // printed since the last case ended (or since the start).
  std::string CaseOutput() const;

 private:
  void Line(absl::string_view line);

  std::string partial_;  // the unfinished last line
  bool running_ = false;
  std::string current_;
  std::vector<std::string> started_;
  std::vector<std::pair<std::string, std::string>> ended_;
  size_t events_ = 0;
  std::deque<std::string> case_lines_;
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_GTEST_PROGRESS_H_
