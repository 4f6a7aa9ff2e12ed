// Copyright mxcts authors.
//
// Conformance: the bound on work waiting to run
// (docs/spec/api-synchronization.md, [api.sync.timeline.full-queue-waits]).
// The reference holds at most 4096 pieces of work in all streams
// together; a submission that finds them all waiting runs the oldest
// first. In a fresh process with the deferred timeline, where nothing runs
// before the host waits, the program submits host functions into two
// streams: past the bound, each submission has run at least one older
// piece (the log grows by the excess), every submission succeeds, and
// after synchronizing every piece has run once, in stream order. The
// control is the same program below the bound: nothing has run before the
// host waits.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kBound = 4096;  // the reference's, from the clause

std::string SubmitPastTheBound(int pieces, bool expect_some_ran) {
  std::string problems;
  mcStream_t streams[2] = {nullptr, nullptr};
  for (mcStream_t& stream : streams) {
    problems += Expect("mcStreamCreateWithFlags",
                       mcStreamCreateWithFlags(&stream, mcStreamNonBlocking),
                       mcSuccess);
  }
  OrderLog logs[2];
  for (int i = 0; i < pieces; ++i) {
    const mcError_t submitted =
        logs[i % 2].Append(streams[i % 2], std::to_string(i / 2));
    if (submitted != mcSuccess) {
      problems += Expect("a submission", submitted, mcSuccess);
      break;
    }
  }
  const int ran = static_cast<int>(logs[0].size() + logs[1].size());
  if (expect_some_ran && ran < pieces - kBound) {
    problems += std::to_string(ran) +
                " pieces had run before the host "
                "waited, at least " +
                std::to_string(pieces - kBound) + " expected; ";
  }
  if (!expect_some_ran && ran != 0) {
    problems += std::to_string(ran) +
                " pieces ran below the bound before "
                "the host waited; ";
  }
  for (int s = 0; s < 2; ++s) {
    problems += Expect("mcStreamSynchronize", mcStreamSynchronize(streams[s]),
                       mcSuccess);
    const auto entries = logs[s].entries();
    const int expected = pieces / 2 + (s == 0 ? pieces % 2 : 0);
    if (static_cast<int>(entries.size()) != expected) {
      problems += "stream " + std::to_string(s) + " ran " +
                  std::to_string(entries.size()) + " pieces, expected " +
                  std::to_string(expected) + "; ";
      continue;
    }
    for (int i = 0; i < expected; ++i) {
      if (entries[i] != std::to_string(i)) {
        problems += "stream " + std::to_string(s) + " ran '" + entries[i] +
                    "' at position " + std::to_string(i) + "; ";
        break;
      }
    }
    mcStreamDestroy(streams[s]);
  }
  return problems;
}

class QueueBound : public DeferredModeTest<> {};

TEST_F(QueueBound, SubmissionPastTheBoundRunsOlderWork) {
  MX_SPEC("api.sync.timeline.full-queue-waits");
  MX_REQUIRE_CAPABILITY("timeline_modes");
  MX_EXPECT_IN_FRESH_PROCESS(SubmitPastTheBound(kBound + 301, true));
}

TEST_F(QueueBound, ControlBelowTheBoundNothingRuns) {
  MX_SPEC("api.sync.timeline.full-queue-waits");
  MX_REQUIRE_CAPABILITY("timeline_modes");
  MX_EXPECT_IN_FRESH_PROCESS(SubmitPastTheBound(kBound - 1, false));
}

}  // namespace
}  // namespace mxcts::conformance
