// Copyright mxcts authors.
//
// Conformance: what stream 0 names in a translation unit, as its build
// selects it (docs/spec/api-synchronization.md, "The per-thread default
// stream").
//
// This source is built four times (BUILD): with mxcc's `--default-stream
// per-thread`, with clang's `-fgpu-default-stream=per-thread`, with
// `-DMACA_API_PER_THREAD_DEFAULT_STREAM`, and, as the control, with none
// of them. The three that select the per-thread default stream also define
// MXCTS_TEST_EXPECTS_PER_THREAD_STREAM_ZERO, which only tells the checks
// what to expect: the same checks, built without the selection, see the
// legacy default stream, so the selection is what changes stream 0.
//
// Whether a wait on stream 0 runs another thread's work, or a blocking
// stream's, shows only when the implementation runs less than everything:
// in the deferred timeline mode a wait runs only what it waits for, so
// each check runs in a fresh process with MXCTS_TIMELINE=deferred
// (stream_legacy_deferred_test.cc does the same for named streams).
// The deferred mode is the reference's (capability timeline_modes); on a
// backend without it the checks that uncovered work has not run are left
// out, and what a wait covers must still have run.

#include <mc_runtime.h>

#include <ostream>
#include <string>
#include <thread>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/follow_kernel.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

#ifdef MXCTS_TEST_EXPECTS_PER_THREAD_STREAM_ZERO
constexpr bool kPerThreadSelected = true;
#else
constexpr bool kPerThreadSelected = false;
#endif

// What a check expects: `per_thread` where the build selects the
// per-thread default stream, `legacy` where it does not.
template <typename T>
T Selected(T per_thread, T legacy) {
  return kPerThreadSelected ? per_thread : legacy;
}

// Whether a check may rely on work a wait does not cover having not run:
// only in the deferred mode of a backend that claims the timeline modes. A
// wait on the legacy stream covers all the work these checks submit, so
// the legacy build's checks hold everywhere.
bool UncoveredWorkIsHeldBack() {
  return !kPerThreadSelected || Claimed("timeline_modes");
}

// Whether `log` holds `entry`.
bool Holds(const OrderLog& log, const std::string& entry) {
  for (const std::string& ran : log.entries()) {
    if (ran == entry) return true;
  }
  return false;
}

__device__ int symbol_cell;

TEST(StreamZeroSelection, TheBuildDefinesTheMacro) {
  MX_SPEC("api.sync.per-thread.compile-option-selects");
#ifdef MACA_API_PER_THREAD_DEFAULT_STREAM
  constexpr bool kDefined = true;
#else
  constexpr bool kDefined = false;
#endif
  EXPECT_EQ(kDefined, kPerThreadSelected);
}

// --------------------------------------------------------------------------
// The renamed entry points: the name a call in this unit reaches.
// --------------------------------------------------------------------------

#define MX_SPELLED(name) MX_SPELLED_EXPANDED(name)
#define MX_SPELLED_EXPANDED(name) #name

struct Renaming {
  const char* function;  // as written in the source
  const char* reached;   // after the preprocessor
  const char* suffix;    // of the entry point a per-thread unit reaches
};

// `#F` is the name as written; MX_SPELLED(F) expands it first.
#define MX_RENAMING(F, suffix) \
  Renaming { #F, MX_SPELLED(F), suffix }

const Renaming kRenamings[] = {
    MX_RENAMING(mcStreamDestroy, "_ptsz"),
    MX_RENAMING(mcStreamQuery, "_ptsz"),
    MX_RENAMING(mcStreamSynchronize, "_ptsz"),
    MX_RENAMING(mcStreamWaitEvent, "_ptsz"),
    MX_RENAMING(mcStreamGetFlags, "_ptsz"),
    MX_RENAMING(mcStreamGetPriority, "_ptsz"),
    MX_RENAMING(mcStreamGetDevice, "_ptsz"),
    MX_RENAMING(mcStreamSetAttribute, "_ptsz"),
    MX_RENAMING(mcStreamGetAttribute, "_ptsz"),
    MX_RENAMING(mcStreamCopyAttribute, "_ptsz"),
    MX_RENAMING(mcStreamAttachMemAsync, "_ptsz"),
    MX_RENAMING(mcStreamAddCallback, "_ptsz"),
    MX_RENAMING(mcLaunchHostFunc, "_ptsz"),
    MX_RENAMING(mcEventRecord, "_ptsz"),
    MX_RENAMING(mcEventRecordWithFlags, "_ptsz"),
    MX_RENAMING(mcLaunchKernel, "_ptsz"),
    MX_RENAMING(mcMemPrefetchAsync, "_ptsz"),
    MX_RENAMING(mcMemPrefetchAsync_v2, "_ptsz"),
    MX_RENAMING(mcMemcpyAsync, "_ptsz"),
    MX_RENAMING(mcMemcpy2DAsync, "_ptsz"),
    MX_RENAMING(mcMemcpy3DAsync, "_ptsz"),
    MX_RENAMING(mcMemcpyHtoDAsync, "_ptsz"),
    MX_RENAMING(mcMemcpyDtoHAsync, "_ptsz"),
    MX_RENAMING(mcMemcpyDtoDAsync, "_ptsz"),
    MX_RENAMING(mcMemsetAsync, "_ptsz"),
    MX_RENAMING(mcMemset2DAsync, "_ptsz"),
    MX_RENAMING(mcMemset3DAsync, "_ptsz"),
    MX_RENAMING(mcMemsetD8Async, "_ptsz"),
    MX_RENAMING(mcMemsetD16Async, "_ptsz"),
    MX_RENAMING(mcMemsetD32Async, "_ptsz"),
    MX_RENAMING(mcMemcpyToSymbolAsync, "_ptsz"),
    MX_RENAMING(mcMemcpyFromSymbolAsync, "_ptsz"),
    MX_RENAMING(mcMemcpyPeerAsync, "_ptsz"),
    MX_RENAMING(mcMemcpy, "_ptds"),
    MX_RENAMING(mcMemcpy2D, "_ptds"),
    MX_RENAMING(mcMemcpy3D, "_ptds"),
    MX_RENAMING(mcMemcpyHtoD, "_ptds"),
    MX_RENAMING(mcMemcpyDtoH, "_ptds"),
    MX_RENAMING(mcMemcpyDtoD, "_ptds"),
    MX_RENAMING(mcMemcpyToSymbol, "_ptds"),
    MX_RENAMING(mcMemcpyFromSymbol, "_ptds"),
    MX_RENAMING(mcMemcpyPeer, "_ptds"),
    MX_RENAMING(mcMemset, "_ptds"),
    MX_RENAMING(mcMemset2D, "_ptds"),
    MX_RENAMING(mcMemset3D, "_ptds"),
    MX_RENAMING(mcMemsetD8, "_ptds"),
    MX_RENAMING(mcMemsetD16, "_ptds"),
    MX_RENAMING(mcMemsetD32, "_ptds"),
    // Control: a function without a stream is never renamed.
    MX_RENAMING(mcDeviceSynchronize, ""),
};

#undef MX_RENAMING

void PrintTo(const Renaming& renaming, std::ostream* out) {
  *out << renaming.function;
}

class RenamedEntryPoint : public testing::TestWithParam<Renaming> {};

TEST_P(RenamedEntryPoint, ReachedNameFollowsTheSelection) {
  MX_SPEC("api.sync.per-thread.renamed-entry-points",
          "api.sync.per-thread.compile-option-selects");
  const Renaming& renaming = GetParam();
  const std::string written = renaming.function;
  EXPECT_EQ(renaming.reached, Selected(written + renaming.suffix, written));
}

INSTANTIATE_TEST_SUITE_P(EveryRenamedFunction, RenamedEntryPoint,
                         testing::ValuesIn(kRenamings),
                         [](const testing::TestParamInfo<Renaming>& info) {
                           return std::string(info.param.function);
                         });

// --------------------------------------------------------------------------
// Work submitted to stream 0, or without a stream, goes to the selected
// stream: waiting for this thread's per-thread stream (named by its handle,
// which every unit has) runs it only when 0 is that stream.
// --------------------------------------------------------------------------

enum class Submission {
  kChevronTwoOperands,
  kChevronThreeOperands,
  kChevronStreamZero,
  kLaunchKernelTemplate,
  kLaunchKernelStreamZero,
  kMemsetAsync,
  kMemset,
  kMemcpyAsync,
  kLaunchHostFuncStreamZero,
};

const char* SubmissionName(Submission submission) {
  switch (submission) {
    case Submission::kChevronTwoOperands:
      return "ChevronTwoOperands";
    case Submission::kChevronThreeOperands:
      return "ChevronThreeOperands";
    case Submission::kChevronStreamZero:
      return "ChevronStreamZero";
    case Submission::kLaunchKernelTemplate:
      return "LaunchKernelTemplate";
    case Submission::kLaunchKernelStreamZero:
      return "LaunchKernelStreamZero";
    case Submission::kMemsetAsync:
      return "MemsetAsync";
    case Submission::kMemset:
      return "Memset";
    case Submission::kMemcpyAsync:
      return "MemcpyAsync";
    case Submission::kLaunchHostFuncStreamZero:
      return "LaunchHostFuncStreamZero";
  }
  return "Unknown";
}

void PrintTo(Submission submission, std::ostream* out) {
  *out << SubmissionName(submission);
}

// Submits work that moves *cell from 0 to 1 (`one` holds 1), the way
// `submission` says; returns the submission's result.
mcError_t SubmitSetToOne(Submission submission, int* cell, int* one) {
  int expected = 0;
  int value = 1;
  void* args[] = {&cell, &expected, &value};  // Follow(cell, 0, 1)
  switch (submission) {
    case Submission::kChevronTwoOperands:
      Follow<<<1, 1>>>(cell, 0, 1);
      return mcGetLastError();
    case Submission::kChevronThreeOperands:
      Follow<<<1, 1, 0>>>(cell, 0, 1);
      return mcGetLastError();
    case Submission::kChevronStreamZero:
      Follow<<<1, 1, 0, 0>>>(cell, 0, 1);
      return mcGetLastError();
    case Submission::kLaunchKernelTemplate:
      return mcLaunchKernel(Follow, dim3(1), dim3(1), args);
    case Submission::kLaunchKernelStreamZero:
      return mcLaunchKernel(reinterpret_cast<const void*>(&Follow), dim3(1),
                            dim3(1), args, 0, 0);
    case Submission::kMemsetAsync:
      return mcMemsetAsync(cell, 1, 1);
    case Submission::kMemset:
      // Asynchronous for managed memory [api.sync.host.memset-asynchronous].
      return mcMemset(cell, 1, 1);
    case Submission::kMemcpyAsync:
      return mcMemcpyAsync(cell, one, sizeof(int), mcMemcpyDefault);
    case Submission::kLaunchHostFuncStreamZero:
      return mcLaunchHostFunc(
          0, [](void* target) { *static_cast<int*>(target) = 1; }, cell);
  }
  return mcErrorInvalidValue;
}

std::string SubmissionGoesToSelectedStream(Submission submission) {
  std::string problems;
  int* cell = nullptr;
  int* one = nullptr;
  problems +=
      Expect("mcMallocManaged", mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  problems +=
      Expect("mcMallocManaged", mcMallocManaged(&one, sizeof(int)), mcSuccess);
  if (!problems.empty()) return problems;
  *cell = 0;
  *one = 1;
  problems += Expect(SubmissionName(submission),
                     SubmitSetToOne(submission, cell, one), mcSuccess);
  problems += Expect("mcStreamSynchronize(mcStreamPerThread)",
                     mcStreamSynchronize(mcStreamPerThread), mcSuccess);
  // Where stream 0 is the legacy stream, the work is not covered by the
  // wait; that it has not run shows only where the deferred mode holds
  // work back (capability timeline_modes).
  const int expected = Selected(1, 0);
  if ((kPerThreadSelected || Claimed("timeline_modes")) && *cell != expected) {
    problems += "after waiting for the per-thread stream the cell is " +
                std::to_string(*cell) + ", expected " +
                std::to_string(expected) + "; ";
  }
  // Control: the work ran once the host waited for everything.
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  if (*cell != 1) {
    problems +=
        "after mcDeviceSynchronize the cell is " + std::to_string(*cell) + "; ";
  }
  mcFree(cell);
  mcFree(one);
  return problems;
}

class StreamZeroSubmission
    : public DeferredModeTest<testing::TestWithParam<Submission>> {};

TEST_P(StreamZeroSubmission, GoesToTheSelectedStream) {
  MX_SPEC("api.sync.per-thread.compile-option-selects",
          "api.sync.per-thread.renamed-entry-points",
          "api.stream.model.default-stream-when-omitted",
          "lang.launch.operand.s-defaults-to-default-stream");
  MX_EXPECT_IN_FRESH_PROCESS(SubmissionGoesToSelectedStream(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(EveryForm, StreamZeroSubmission,
                         testing::Values(Submission::kChevronTwoOperands,
                                         Submission::kChevronThreeOperands,
                                         Submission::kChevronStreamZero,
                                         Submission::kLaunchKernelTemplate,
                                         Submission::kLaunchKernelStreamZero,
                                         Submission::kMemsetAsync,
                                         Submission::kMemset,
                                         Submission::kMemcpyAsync,
                                         Submission::kLaunchHostFuncStreamZero),
                         [](const testing::TestParamInfo<Submission>& info) {
                           return std::string(SubmissionName(info.param));
                         });

// --------------------------------------------------------------------------
// A wait on stream 0 covers another host thread's stream-0 work only when
// 0 is the legacy default stream, which all threads share.
// --------------------------------------------------------------------------

enum class Wait {
  kStreamSynchronize,
  kStreamQueryLoop,
  kEventRecordedWithoutStream,
  kMemcpyToHost,
  kMemcpyDtoH,
  kMemcpyFromSymbol,
};

const char* WaitName(Wait wait) {
  switch (wait) {
    case Wait::kStreamSynchronize:
      return "StreamSynchronize";
    case Wait::kStreamQueryLoop:
      return "StreamQueryLoop";
    case Wait::kEventRecordedWithoutStream:
      return "EventRecordedWithoutStream";
    case Wait::kMemcpyToHost:
      return "MemcpyToHost";
    case Wait::kMemcpyDtoH:
      return "MemcpyDtoH";
    case Wait::kMemcpyFromSymbol:
      return "MemcpyFromSymbol";
  }
  return "Unknown";
}

void PrintTo(Wait wait, std::ostream* out) { *out << WaitName(wait); }

// Waits for this thread's stream 0 the way `wait` says; `device` is an int
// of device memory.
mcError_t WaitForStreamZero(Wait wait, int* device) {
  int host = 0;
  switch (wait) {
    case Wait::kStreamSynchronize:
      return mcStreamSynchronize(0);
    case Wait::kStreamQueryLoop: {
      mcError_t result;
      while ((result = mcStreamQuery(0)) == mcErrorNotReady) {
      }
      return result;
    }
    case Wait::kEventRecordedWithoutStream: {
      mcEvent_t event = nullptr;
      mcError_t result = mcEventCreate(&event);
      if (result == mcSuccess) result = mcEventRecord(event);
      if (result == mcSuccess) result = mcEventSynchronize(event);
      mcEventDestroy(event);
      return result;
    }
    case Wait::kMemcpyToHost:
      return mcMemcpy(&host, device, sizeof(int), mcMemcpyDeviceToHost);
    case Wait::kMemcpyDtoH:
      return mcMemcpyDtoH(&host, device, sizeof(int));
    case Wait::kMemcpyFromSymbol:
      return mcMemcpyFromSymbol(&host, symbol_cell, sizeof(int));
  }
  return mcErrorInvalidValue;
}

std::string WaitCoversOtherThread(Wait wait) {
  std::string problems;
  int* device = nullptr;
  problems += Expect("mcMalloc", mcMalloc(&device, sizeof(int)), mcSuccess);
  // The symbol's image is loaded before the work below is queued.
  int zero = 0;
  problems +=
      Expect("mcMemcpyToSymbol",
             mcMemcpyToSymbol(symbol_cell, &zero, sizeof(int)), mcSuccess);
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  if (!problems.empty()) return problems;
  OrderLog log;
  mcError_t in_thread = mcErrorUnknown;
  std::thread other([&] { in_thread = log.Append(0, "other"); });
  other.join();
  problems +=
      Expect("mcLaunchHostFunc(0) in another thread", in_thread, mcSuccess);
  problems += Expect("mcLaunchHostFunc(0)", log.Append(0, "mine"), mcSuccess);
  problems +=
      Expect(WaitName(wait), WaitForStreamZero(wait, device), mcSuccess);
  if (UncoveredWorkIsHeldBack()) {
    problems += ExpectLog("after the wait", log,
                          Selected<std::string>("mine", "other mine"));
  } else if (!Holds(log, "mine")) {
    problems +=
        "after the wait the log is '" + log.Joined() + "', without 'mine'; ";
  }
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  if (log.size() != 2) problems += "left '" + log.Joined() + "'; ";
  mcFree(device);
  return problems;
}

class StreamZeroWait : public DeferredModeTest<testing::TestWithParam<Wait>> {};

TEST_P(StreamZeroWait, CoversOtherThreadsWorkOnlyInTheLegacyStream) {
  MX_SPEC("api.sync.per-thread.compile-option-selects",
          "api.sync.per-thread.renamed-entry-points",
          "api.sync.per-thread.one-stream-per-thread",
          "api.sync.host.memcpy-device-to-host-completes");
  MX_EXPECT_IN_FRESH_PROCESS(WaitCoversOtherThread(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(EveryWait, StreamZeroWait,
                         testing::Values(Wait::kStreamSynchronize,
                                         Wait::kStreamQueryLoop,
                                         Wait::kEventRecordedWithoutStream,
                                         Wait::kMemcpyToHost, Wait::kMemcpyDtoH,
                                         Wait::kMemcpyFromSymbol),
                         [](const testing::TestParamInfo<Wait>& info) {
                           return std::string(WaitName(info.param));
                         });

// --------------------------------------------------------------------------
// Two host threads launching into stream 0, each with <<<g, b>>>: their
// kernels are serialized (one legacy stream) only without the selection.
// --------------------------------------------------------------------------

std::string LaunchesOfTwoThreads() {
  std::string problems;
  int* theirs = nullptr;
  int* mine = nullptr;
  problems += Expect("mcMallocManaged", mcMallocManaged(&theirs, sizeof(int)),
                     mcSuccess);
  problems +=
      Expect("mcMallocManaged", mcMallocManaged(&mine, sizeof(int)), mcSuccess);
  if (!problems.empty()) return problems;
  *theirs = 0;
  *mine = 0;
  mcError_t in_thread = mcErrorUnknown;
  std::thread other([&] {
    Follow<<<1, 1>>>(theirs, 0, 1);
    in_thread = mcGetLastError();
  });
  other.join();
  problems += Expect("the launch in another thread", in_thread, mcSuccess);
  Follow<<<1, 1>>>(mine, 0, 1);
  problems += Expect("the launch", mcGetLastError(), mcSuccess);
  problems +=
      Expect("mcStreamSynchronize(0)", mcStreamSynchronize(0), mcSuccess);
  if (*mine != 1) problems += "this thread's kernel did not run; ";
  if (UncoveredWorkIsHeldBack() && *theirs != Selected(0, 1)) {
    problems += std::string("the other thread's kernel ") +
                (*theirs == 1 ? "ran" : "did not run") +
                " when this thread waited for its stream 0; ";
  }
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  if (*theirs != 1) problems += "the other thread's kernel never ran; ";
  mcFree(theirs);
  mcFree(mine);
  return problems;
}

using StreamZeroThreads = DeferredModeTest<>;

TEST_F(StreamZeroThreads, LaunchesOfTwoThreadsAreSerializedOnlyWhenLegacy) {
  MX_SPEC("api.sync.per-thread.compile-option-selects",
          "api.sync.per-thread.one-stream-per-thread",
          "lang.launch.operand.s-defaults-to-default-stream");
  MX_EXPECT_IN_FRESH_PROCESS(LaunchesOfTwoThreads());
}

// --------------------------------------------------------------------------
// Stream 0 and the blocking streams: the legacy stream waits for their
// earlier work; the per-thread stream, a blocking stream itself, does not,
// and both are ordered against the legacy stream named by its handle.
// --------------------------------------------------------------------------

std::string BlockingStreamsAndStreamZero() {
  std::string problems;
  mcStream_t blocking = nullptr;
  problems += Expect("mcStreamCreate", mcStreamCreate(&blocking), mcSuccess);
  if (!problems.empty()) return problems;
  OrderLog log;
  problems +=
      Expect("mcLaunchHostFunc", log.Append(blocking, "blocking"), mcSuccess);
  problems += Expect("mcLaunchHostFunc(0)", log.Append(0, "zero"), mcSuccess);
  problems +=
      Expect("mcStreamSynchronize(0)", mcStreamSynchronize(0), mcSuccess);
  if (UncoveredWorkIsHeldBack()) {
    problems += ExpectLog("after waiting for stream 0", log,
                          Selected<std::string>("zero", "blocking zero"));
  } else if (!Holds(log, "zero")) {
    problems += "after waiting for stream 0 the log is '" + log.Joined() +
                "', without 'zero'; ";
  }
  // The legacy stream, named, waits for every blocking stream's work.
  problems += Expect("mcLaunchHostFunc(mcStreamLegacy)",
                     log.Append(mcStreamLegacy, "legacy"), mcSuccess);
  problems += Expect("mcStreamSynchronize(mcStreamLegacy)",
                     mcStreamSynchronize(mcStreamLegacy), mcSuccess);
  if (UncoveredWorkIsHeldBack()) {
    problems += ExpectLog(
        "after waiting for the legacy stream", log,
        Selected<std::string>("zero blocking legacy", "blocking zero legacy"));
  } else if (log.size() != 3 || log.entries().back() != "legacy" ||
             !Holds(log, "zero") || !Holds(log, "blocking")) {
    // The per-thread stream and the blocking stream are not ordered with
    // each other; the legacy work follows both.
    problems += "after waiting for the legacy stream the log is '" +
                log.Joined() +
                "', expected 'zero' and 'blocking' in either order, then "
                "'legacy'; ";
  }
  mcStreamDestroy(blocking);
  return problems;
}

TEST_F(StreamZeroThreads, ZeroWaitsForBlockingStreamsOnlyWhenLegacy) {
  MX_SPEC("api.sync.per-thread.compile-option-selects",
          "api.sync.per-thread.behaves-as-blocking-stream",
          "api.sync.legacy.waits-for-blocking-streams",
          "api.sync.legacy.synchronize-covers-blocking-work");
  MX_EXPECT_IN_FRESH_PROCESS(BlockingStreamsAndStreamZero());
}

// mcMemAttachSingle needs one stream, which the legacy stream is not.
std::string AttachSingleToStreamZero() {
  std::string problems;
  int* managed = nullptr;
  problems += Expect("mcMallocManaged", mcMallocManaged(&managed, sizeof(int)),
                     mcSuccess);
  if (!problems.empty()) return problems;
  problems += Expect("mcStreamAttachMemAsync(0, managed)",
                     mcStreamAttachMemAsync(0, managed),
                     Selected(mcSuccess, mcErrorInvalidValue));
  mcGetLastError();
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  mcFree(managed);
  return problems;
}

TEST_F(StreamZeroThreads, AttachSingleToZeroNeedsThePerThreadStream) {
  MX_SPEC("api.sync.per-thread.compile-option-selects",
          "api.stream.attach-mem.single-to-legacy-stream-is-invalid-value");
  MX_EXPECT_IN_FRESH_PROCESS(AttachSingleToStreamZero());
}

}  // namespace
}  // namespace mxcts::conformance
