// Copyright mxcts authors.
//
// Conformance: polling a stream or an event in a loop ends, even where the
// implementation runs device work only when the host waits or polls
// (docs/spec/api-synchronization.md, "When device work runs"; api-stream.md
// and api-event.md, queries).
//
// Each program runs in a fresh process with MXCTS_TIMELINE=deferred, where
// the reference runs nothing unless a wait or a poll needs it and a poll
// runs at most one piece of work. It enqueues host functions that log, then
// polls with no other runtime call until the poll stops returning
// mcErrorNotReady, checking that the loop ends with all the work done
// (every implementation, api.sync.timeline.poll-advances) and that
// mcErrorNotReady never became the last error. Where the backend claims the
// timeline modes, it also checks what the deferred mode shows: nothing ran
// before the first poll, each poll ran at most one piece, and
// mcErrorNotReady came first as often as the pending work requires.

#include <mc_runtime.h>

#include <chrono>
#include <string>
#include <tuple>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Far longer than any program here needs, on the reference (a few polls)
// or on a GPU (the time its host functions take): a loop still polling
// then has not ended. A time, not a number of polls, since a GPU's poll
// returns at once whether or not the work progressed.
constexpr std::chrono::seconds kPollDeadline(30);

// Polls `poll` until it stops returning mcErrorNotReady. Requires that it
// ends with mcSuccess and, where the timeline modes are claimed, after at
// least `min_not_ready` mcErrorNotReady, each poll running at most one
// piece of the work `log` sees.
template <typename Poll>
std::string PollUntilDone(Poll poll, const OrderLog& log, int min_not_ready) {
  const bool deferred = Claimed("timeline_modes");
  const auto deadline = std::chrono::steady_clock::now() + kPollDeadline;
  std::string problems;
  int not_ready = 0;
  mcError_t result = mcErrorNotReady;
  size_t ran = log.size();
  for (int polls = 0;
       result == mcErrorNotReady && std::chrono::steady_clock::now() < deadline;
       ++polls) {
    result = poll();
    if (deferred && log.size() > ran + 1) {
      problems += "poll " + std::to_string(polls) + " ran " +
                  std::to_string(log.size() - ran) + " pieces of work; ";
    }
    ran = log.size();
    if (result == mcErrorNotReady) {
      ++not_ready;
      // [api.error.last.not-ready-not-recorded]
      problems += Expect("mcPeekAtLastError while polling", mcPeekAtLastError(),
                         mcSuccess);
    }
  }
  problems += Expect("the last poll", result, mcSuccess);
  if (deferred && not_ready < min_not_ready) {
    problems += "mcErrorNotReady came " + std::to_string(not_ready) +
                " times, at least " + std::to_string(min_not_ready) +
                " expected; ";
  }
  problems +=
      Expect("mcGetLastError after polling", mcGetLastError(), mcSuccess);
  return problems;
}

std::string AppendWork(OrderLog& log, mcStream_t stream, int pieces,
                       const std::string& prefix) {
  std::string problems;
  for (int i = 0; i < pieces; ++i) {
    problems +=
        Expect("mcLaunchHostFunc",
               log.Append(stream, prefix + std::to_string(i)), mcSuccess);
  }
  return problems;
}

// `pieces` host functions in a stream of `kind`, then mcStreamQuery polls.
std::string PollStream(StreamKind kind, int pieces) {
  TestStream stream(kind);
  std::string problems =
      Expect("creating the stream", stream.status(), mcSuccess);
  OrderLog log;
  problems += AppendWork(log, stream.get(), pieces, "w");
  if (Claimed("timeline_modes") && log.size() != 0) {
    problems += "work ran before the poll; ";
  }
  problems += PollUntilDone([&] { return mcStreamQuery(stream.get()); }, log,
                            pieces - 1);
  if (log.size() != static_cast<size_t>(pieces)) {
    problems += "after the polls the log is '" + log.Joined() + "'; ";
  }
  return problems;
}

// `pieces` host functions, then a record, then mcEventQuery polls.
std::string PollEvent(StreamKind kind, int pieces) {
  TestStream stream(kind);
  mcEvent_t event = nullptr;
  std::string problems =
      Expect("creating the stream", stream.status(), mcSuccess);
  problems += Expect("mcEventCreate", mcEventCreate(&event), mcSuccess);
  OrderLog log;
  problems += AppendWork(log, stream.get(), pieces, "w");
  problems +=
      Expect("mcEventRecord", mcEventRecord(event, stream.get()), mcSuccess);
  // The record is one more piece of work than the host functions.
  problems += PollUntilDone([&] { return mcEventQuery(event); }, log, pieces);
  if (log.size() != static_cast<size_t>(pieces)) {
    problems += "after the polls the log is '" + log.Joined() + "'; ";
  }
  mcEventDestroy(event);
  return problems;
}

using PollCase = std::tuple<StreamKind, int>;

std::string PollCaseName(const testing::TestParamInfo<PollCase>& info) {
  return std::string(StreamKindName(std::get<0>(info.param))) + "_" +
         std::to_string(std::get<1>(info.param)) + "Pieces";
}

class Poll : public DeferredModeTest<testing::TestWithParam<PollCase>> {
 protected:
  StreamKind kind() const { return std::get<0>(GetParam()); }
  int pieces() const { return std::get<1>(GetParam()); }
};

TEST_P(Poll, StreamQueryLoopEnds) {
  MX_SPEC("api.sync.timeline.poll-advances",
          "api.sync.timeline.deferred-runs-when-host-waits",
          "api.stream.query.not-ready-when-pending",
          "api.stream.query.success-when-idle", "api.stream.query.non-blocking",
          "api.error.last.not-ready-not-recorded");
  MX_EXPECT_IN_FRESH_PROCESS(PollStream(kind(), pieces()));
}

TEST_P(Poll, EventQueryLoopEnds) {
  MX_SPEC("api.sync.timeline.poll-advances",
          "api.sync.timeline.deferred-runs-when-host-waits",
          "api.event.query.not-ready-when-pending",
          "api.event.query.success-when-complete",
          "api.error.last.not-ready-not-recorded");
  MX_EXPECT_IN_FRESH_PROCESS(PollEvent(kind(), pieces()));
}

INSTANTIATE_TEST_SUITE_P(KindsAndPieces, Poll,
                         testing::Combine(testing::ValuesIn(kAllStreamKinds),
                                          testing::Values(1, 3)),
                         PollCaseName);

// Legacy work, then blocking work after it: a poll of the legacy stream
// (which covers the blocking streams) still runs one piece at a time.
std::string PollLegacyCoveringBlockingWork(StreamKind blocking_kind,
                                           StreamKind legacy_kind) {
  TestStream blocking(blocking_kind);
  TestStream legacy(legacy_kind);
  std::string problems =
      Expect("creating the stream", blocking.status(), mcSuccess);
  OrderLog log;
  problems += AppendWork(log, legacy.get(), 2, "legacy");
  problems += AppendWork(log, blocking.get(), 2, "blocking");
  problems +=
      PollUntilDone([&] { return mcStreamQuery(legacy.get()); }, log, 3);
  if (Claimed("timeline_modes")) {
    problems += ExpectLog("after the polls", log,
                          "legacy0 legacy1 blocking0 blocking1");
    return problems;
  }
  // Elsewhere the poll of the legacy stream need not cover the blocking
  // work submitted after it: the legacy work has run, the rest follows it.
  if (log.Joined().rfind("legacy0 legacy1", 0) != 0) {
    problems += "after the polls the log is '" + log.Joined() +
                "', which does not start with the legacy work; ";
  }
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  problems += ExpectLog("after mcDeviceSynchronize", log,
                        "legacy0 legacy1 blocking0 blocking1");
  return problems;
}

using LegacyCase = std::tuple<StreamKind, StreamKind>;

std::string LegacyCaseName(const testing::TestParamInfo<LegacyCase>& info) {
  return std::string(StreamKindName(std::get<0>(info.param))) + "_" +
         StreamKindName(std::get<1>(info.param));
}

class LegacyPoll : public DeferredModeTest<testing::TestWithParam<LegacyCase>> {
};

TEST_P(LegacyPoll, RunsOnePieceAtATime) {
  MX_SPEC("api.sync.timeline.poll-advances",
          "api.sync.timeline.deferred-runs-when-host-waits",
          "api.sync.legacy.blocking-streams-wait-for-it");
  MX_EXPECT_IN_FRESH_PROCESS(PollLegacyCoveringBlockingWork(
      std::get<0>(GetParam()), std::get<1>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, LegacyPoll,
    testing::Combine(testing::Values(StreamKind::kBlocking,
                                     StreamKind::kPriority,
                                     StreamKind::kPerThread),
                     testing::Values(StreamKind::kZero, StreamKind::kLegacy)),
    LegacyCaseName);

// A stream that waits on an event of another stream (of `recording_device`):
// polling the waiting stream runs the other stream's work too, one piece
// per poll.
std::string PollAcrossAWait(StreamKind waiting_kind, int recording_device) {
  TestStream waiting(waiting_kind);
  std::string problems =
      Expect("creating the waiting stream", waiting.status(), mcSuccess);
  OrderLog log;
  mcEvent_t event = nullptr;
  {
    ScopedDevice on(recording_device);
    TestStream recording(StreamKind::kNonBlocking);
    problems +=
        Expect("creating the recording stream", recording.status(), mcSuccess);
    problems += Expect("mcEventCreate", mcEventCreate(&event), mcSuccess);
    problems += AppendWork(log, recording.get(), 3, "recorded");
    problems += Expect("mcEventRecord", mcEventRecord(event, recording.get()),
                       mcSuccess);
  }
  problems += Expect("mcStreamWaitEvent",
                     mcStreamWaitEvent(waiting.get(), event, 0), mcSuccess);
  problems += AppendWork(log, waiting.get(), 1, "waiter");
  problems +=
      PollUntilDone([&] { return mcStreamQuery(waiting.get()); }, log, 4);
  problems += ExpectLog("after the polls", log,
                        "recorded0 recorded1 recorded2 waiter0");
  mcEventDestroy(event);
  return problems;
}

using AcrossCase = std::tuple<StreamKind, int>;

std::string AcrossCaseName(const testing::TestParamInfo<AcrossCase>& info) {
  return std::string(StreamKindName(std::get<0>(info.param))) + "_Device" +
         std::to_string(std::get<1>(info.param));
}

class PollAcrossWait
    : public DeferredModeTest<testing::TestWithParam<AcrossCase>> {};

TEST_P(PollAcrossWait, RunsTheAwaitedWorkOnePieceAtATime) {
  MX_SPEC("api.sync.timeline.poll-advances",
          "api.stream.query.not-ready-when-pending",
          "api.stream.wait-event.cross-device");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", std::get<1>(GetParam()) + 1);
  MX_EXPECT_IN_FRESH_PROCESS(
      PollAcrossAWait(std::get<0>(GetParam()), std::get<1>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, PollAcrossWait,
    testing::Combine(testing::Values(StreamKind::kNonBlocking,
                                     StreamKind::kBlocking,
                                     StreamKind::kPerThread, StreamKind::kZero),
                     testing::Values(0, 1)),
    AcrossCaseName);

}  // namespace
}  // namespace mxcts::conformance
