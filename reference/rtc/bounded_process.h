// Copyright mxcts authors.
//
// reference/rtc/bounded_process.h: running the compiler for mcrtc, without
// a shell and within a time bound.
//
// The program is started with posix_spawn and an argument vector (no shell
// ever sees a word of it), its standard output and error go to one pipe
// that is read as it runs, and it is killed (SIGKILL, and waited for) when
// it outlives the bound.
//
//   absl::StatusOr<BoundedResult> r =
//       RunBounded({"/opt/maca/mxgpu_llvm/bin/mxcc", "--version"},
//                  absl::Seconds(10));
//
// Tested by bounded_process_test.cc.

#ifndef MXCTS_REFERENCE_RTC_BOUNDED_PROCESS_H_
#define MXCTS_REFERENCE_RTC_BOUNDED_PROCESS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace mxcts::rtc {

struct BoundedResult {
  int exit_code = -1;      // when it exited
  int signal = 0;          // the signal that ended it, else 0
  bool timed_out = false;  // killed for outliving the bound
  std::string output;      // its standard output and error, interleaved
  bool succeeded() const { return !timed_out && signal == 0 && exit_code == 0; }
};

// Runs `argv[0]` (a path) with `argv`, in the caller's environment, for at
// most `timeout`. An error only when it cannot be started.
absl::StatusOr<BoundedResult> RunBounded(const std::vector<std::string>& argv,
                                         absl::Duration timeout);

}  // namespace mxcts::rtc

#endif  // MXCTS_REFERENCE_RTC_BOUNDED_PROCESS_H_
