// Copyright mxcts authors.
//
// Conformance: which timeline mode MXCTS_TIMELINE and MACA_LAUNCH_BLOCKING
// select (docs/spec/api-synchronization.md, "When device work runs",
// "Launch blocking"; api-environment.md, "Execution control").
//
// A program submits a kernel and a host function and looks, without
// synchronizing, whether they have run: in the eager mode they ran at
// submission, in the deferred mode they have not. Each environment is set
// in a fresh process, since the mode is read once, at the first submission.
// The deferred settings are the controls that show the look can tell the
// modes apart. With MACA_LAUNCH_BLOCKING=1 a failing kernel is reported by
// the call right after its launch; without it, in deferred mode, only by
// the synchronization.
//
// MXCTS_TIMELINE is the reference's (capability timeline_modes): a backend
// without it runs only the settings with MACA_LAUNCH_BLOCKING=1, where
// every implementation must have completed the kernel when its launch
// returns (the host function's run at submission is the eager mode's).

#include <assert.h>
#include <mc_runtime.h>

#include <cstdio>
#include <string>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/follow_kernel.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace mxcts::conformance {
namespace {

__global__ void CheckFlag(int fail) { assert(fail == 0); }

// Submits a kernel (legacy stream) and a host function (non-blocking
// stream) and checks whether they ran at submission, as `eager` says. With
// `kernel_only` (launch blocking on a backend without the timeline modes),
// only the kernel's completion at the launch's return is checked.
std::string RanAtSubmission(bool eager, bool kernel_only) {
  std::string problems;
  int* cell = nullptr;
  problems +=
      Expect("mcMallocManaged", mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  TestStream stream(StreamKind::kNonBlocking);
  problems += Expect("creating the stream", stream.status(), mcSuccess);
  if (!problems.empty()) return problems;
  *cell = 0;
  OrderLog log;
  Follow<<<1, 1>>>(cell, 0, 1);
  problems += Expect("the launch", mcGetLastError(), mcSuccess);
  problems +=
      Expect("mcLaunchHostFunc", log.Append(stream.get(), "host"), mcSuccess);
  const int seen = *reinterpret_cast<volatile int*>(cell);
  const size_t ran = kernel_only ? 1 : log.size();
  if (eager && (seen != 1 || ran != 1)) {
    problems +=
        "expected the eager mode, but the work had not run at "
        "submission; ";
  }
  if (!eager && (seen != 0 || ran != 0)) {
    problems += "expected the deferred mode, but work ran at submission; ";
  }
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  if (*cell != 1 || log.size() != 1) problems += "the work did not run; ";
  mcFree(cell);
  return problems;
}

struct ModeCase {
  const char* name;
  const char* timeline;         // MXCTS_TIMELINE, or null: unset
  const char* launch_blocking;  // MACA_LAUNCH_BLOCKING, or null: unset
  bool eager;
};

std::string ModeCaseName(const testing::TestParamInfo<ModeCase>& info) {
  return info.param.name;
}

class TimelineMode : public testing::TestWithParam<ModeCase> {};

TEST_P(TimelineMode, SelectsWhenWorkRuns) {
  MX_SPEC("api.sync.timeline.default-eager",
          "api.sync.timeline.eager-runs-at-submission",
          "api.sync.timeline.deferred-runs-when-host-waits",
          "api.sync.timeline.invalid-value-is-eager",
          "api.sync.launch-blocking.makes-launches-synchronous",
          "api.sync.launch-blocking.default-asynchronous",
          "api.env.launch-blocking.synchronous-launches");
  const char* launch_blocking = GetParam().launch_blocking;
  const bool blocking =
      launch_blocking != nullptr && std::string(launch_blocking) == "1";
  if (!blocking) MX_REQUIRE_CAPABILITY("timeline_modes");
  ScopedTimelineMode mode(GetParam().timeline, launch_blocking);
  MX_EXPECT_IN_FRESH_PROCESS(
      RanAtSubmission(GetParam().eager, !Claimed("timeline_modes")));
}

INSTANTIATE_TEST_SUITE_P(
    Settings, TimelineMode,
    testing::Values(
        // The default, and the explicit eager mode.
        ModeCase{"Unset", nullptr, nullptr, true},
        ModeCase{"Eager", "eager", nullptr, true},
        ModeCase{"EagerWithLaunchBlocking", "eager", "1", true},
        // The controls: the deferred mode, also with launch blocking off.
        ModeCase{"Deferred", "deferred", nullptr, false},
        ModeCase{"DeferredWithLaunchBlockingZero", "deferred", "0", false},
        // MACA_LAUNCH_BLOCKING=1 forces eager whatever the timeline says.
        ModeCase{"DeferredWithLaunchBlocking", "deferred", "1", true},
        ModeCase{"ShuffleWithLaunchBlocking", "shuffle:1", "1", true},
        ModeCase{"OtherShuffleWithLaunchBlocking", "shuffle:20261121", "1",
                 true},
        ModeCase{"LaunchBlockingAlone", nullptr, "1", true},
        // Values that name no mode are the eager mode.
        ModeCase{"Empty", "", nullptr, true},
        ModeCase{"Capitalized", "Deferred", nullptr, true},
        ModeCase{"UpperCase", "DEFERRED", nullptr, true},
        ModeCase{"TrailingSpace", "deferred ", nullptr, true},
        ModeCase{"LeadingSpace", " deferred", nullptr, true},
        ModeCase{"DeferredWithSuffix", "deferred:1", nullptr, true},
        ModeCase{"ShuffleWithoutSeed", "shuffle", nullptr, true},
        ModeCase{"ShuffleEmptySeed", "shuffle:", nullptr, true},
        ModeCase{"ShuffleWordSeed", "shuffle:abc", nullptr, true},
        ModeCase{"ShuffleNegativeSeed", "shuffle:-1", nullptr, true},
        ModeCase{"ShufflePlusSeed", "shuffle:+1", nullptr, true},
        ModeCase{"ShuffleSpacedSeed", "shuffle: 1", nullptr, true},
        ModeCase{"ShuffleSeedWithSuffix", "shuffle:1x", nullptr, true},
        ModeCase{"ShuffleSeedTwoToThe64", "shuffle:18446744073709551616",
                 nullptr, true},
        ModeCase{"Unknown", "lazy", nullptr, true},
        ModeCase{"EagerWithSuffix", "eager:1", nullptr, true},
        ModeCase{"Number", "1", nullptr, true}),
    ModeCaseName);

// A failing kernel, then the next runtime call: returns what
// mcGetLastError said right after the launch, if the synchronization then
// agreed; else mcErrorUnknown (saying why on stderr).
mcError_t ReportedRightAfterTheLaunch() {
  CheckFlag<<<1, 1>>>(1);
  const mcError_t after_launch = mcGetLastError();
  const mcError_t synchronized = mcDeviceSynchronize();
  if (synchronized != mcErrorAssert) {
    std::fprintf(stderr, "mcDeviceSynchronize returned %s\n",
                 mcGetErrorName(synchronized));
    return mcErrorUnknown;
  }
  return after_launch;
}

TEST(LaunchBlocking, KernelFailureIsReportedRightAfterTheLaunch) {
  MX_SPEC("api.sync.launch-blocking.reports-kernel-errors",
          "api.env.launch-blocking.synchronous-launches",
          "api.sync.timeline.invalid-value-is-eager");
  MX_REQUIRE_CAPABILITY("trap_handler");
  ScopedTimelineMode mode("deferred", "1");
  MX_EXPECT_TRAP(ReportedRightAfterTheLaunch(), mcErrorAssert,
                 "Assertion 'fail == 0' failed");
}

// The contrast: deferred, without launch blocking, the launch reports
// nothing; the synchronization reports the failure.
mcError_t ReportedOnlyBySynchronization() {
  CheckFlag<<<1, 1>>>(1);
  const mcError_t after_launch = mcGetLastError();
  if (after_launch != mcSuccess) {
    std::fprintf(stderr, "mcGetLastError after the launch returned %s\n",
                 mcGetErrorName(after_launch));
    return mcErrorUnknown;
  }
  return mcDeviceSynchronize();
}

TEST(LaunchBlocking, ControlDeferredFailureIsReportedBySynchronization) {
  MX_SPEC("api.sync.launch-blocking.default-asynchronous",
          "api.sync.host.sync-calls-report-async-errors");
  MX_REQUIRE_CAPABILITY("trap_handler");
  ScopedTimelineMode mode("deferred", "0");
  MX_EXPECT_TRAP(ReportedOnlyBySynchronization(), mcErrorAssert,
                 "Assertion 'fail == 0' failed");
}

// A correctly synchronized program: two streams, an event between them,
// kernels that check their order. Returns its result.
int SynchronizedProgram() {
  int* cell = nullptr;
  if (mcMallocManaged(&cell, sizeof(int)) != mcSuccess) return -100;
  *cell = 0;
  TestStream first(StreamKind::kNonBlocking);
  TestStream second(StreamKind::kNonBlocking);
  mcEvent_t event = nullptr;
  if (mcEventCreate(&event) != mcSuccess) return -101;
  for (int round = 0; round < 4; ++round) {
    Follow<<<1, 1, 0, first.get()>>>(cell, 2 * round, 2 * round + 1);
    mcEventRecord(event, first.get());
    mcStreamWaitEvent(second.get(), event, 0);
    Follow<<<1, 1, 0, second.get()>>>(cell, 2 * round + 1, 2 * round + 2);
    mcEventRecord(event, second.get());
    mcStreamWaitEvent(first.get(), event, 0);
  }
  if (mcDeviceSynchronize() != mcSuccess) return -102;
  const int result = *cell;
  mcEventDestroy(event);
  mcFree(cell);
  return result;
}

class LaunchBlockingResults : public testing::TestWithParam<const char*> {};

TEST_P(LaunchBlockingResults, SynchronizedProgramGivesTheSameResult) {
  MX_SPEC("api.env.launch-blocking.same-results",
          "api.stream.wait-event.delays-later-work");
  ScopedTimelineMode mode(nullptr, GetParam());
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(SynchronizedProgram() == 8);
}

INSTANTIATE_TEST_SUITE_P(Values, LaunchBlockingResults,
                         testing::Values("0", "1"));

}  // namespace
}  // namespace mxcts::conformance
