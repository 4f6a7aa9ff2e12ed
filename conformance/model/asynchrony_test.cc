// Copyright mxcts authors.
//
// Conformance: the asynchrony of host and device (docs/spec/model.md,
// "Asynchrony"): launches and ...Async operations return once enqueued;
// a stream runs its work in order, different streams carry no order
// between them, a launch or copy with no stream goes to the default
// stream, and the host's synchronizing calls wait for what they cover.
//
// Whether work has run when a call returns is a matter of timing on a
// device. The reference makes it observable: in its deferred timeline mode
// (MXCTS_TIMELINE=deferred, docs/spec/api-synchronization.md, "When device
// work runs") device work runs only when the host waits for it, and then
// only the work the wait needs. The checks that look at what has run
// before a wait therefore run in a fresh process in that mode; on a backend
// that does not claim the modes (capability timeline_modes) the checks
// that work has not run yet are left out. The ordering checks hold in
// every mode: the target also runs with the runtime's deferred and
// shuffled timelines.
//
// A cell moved through a chain of Step kernels shows order: each step
// moves it from the value its predecessor leaves to its own, or marks it
// kOutOfOrder.

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kOutOfOrder = -1;

__global__ void Step(int* cell, int expected, int value) {
  *cell = *cell == expected ? value : kOutOfOrder;
}

// --- Work in one stream runs in order. ---

// Steps 1 to 4 in `stream` with copies and a memset between them.
std::string ChainInOneStream(mcStream_t stream, bool reversed) {
  ManagedBuffer<int> cell(1, 0);
  int* scratch = nullptr;
  if (mcMalloc(&scratch, sizeof(int)) != mcSuccess) return "mcMalloc failed";
  if (!reversed) {
    Step<<<1, 1, 0, stream>>>(cell.get(), 0, 1);
    // The cell goes through device memory and back: 1 -> scratch -> cell.
    mcMemcpyAsync(scratch, cell.get(), sizeof(int), mcMemcpyDefault, stream);
    Step<<<1, 1, 0, stream>>>(cell.get(), 1, 2);
    mcMemsetAsync(scratch, 0, sizeof(int), stream);
    Step<<<1, 1, 0, stream>>>(cell.get(), 2, 3);
    Step<<<1, 1, 0, stream>>>(cell.get(), 3, 4);
  } else {
    Step<<<1, 1, 0, stream>>>(cell.get(), 3, 4);
    Step<<<1, 1, 0, stream>>>(cell.get(), 0, 1);
  }
  int copied = -1;
  std::string problems;
  if (mcStreamSynchronize(stream) != mcSuccess) problems += "sync failed; ";
  mcMemcpy(&copied, scratch, sizeof(int), mcMemcpyDeviceToHost);
  mcFree(scratch);
  const int expected = reversed ? 1 : 4;
  if (cell[0] != expected) {
    problems += "the cell ended at " + std::to_string(cell[0]) + "; ";
  }
  if (!reversed && copied != 0) problems += "the memset ran early; ";
  return problems;
}

TEST(StreamOrder, WorkInOneStreamRunsInIssueOrder) {
  MX_SPEC("model.async.stream-orders-work");
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreateWithFlags(&stream, mcStreamNonBlocking), mcSuccess);
  EXPECT_EQ(ChainInOneStream(stream, false), "");
  EXPECT_EQ(ChainInOneStream(nullptr, false), "");
  mcStreamDestroy(stream);
}

TEST(StreamOrder, ControlStepsIssuedOutOfOrderAreCaught) {
  MX_SPEC("model.async.stream-orders-work");
  // Step 4 first: it finds 0 and marks the cell; step 1 then finds the
  // mark, not 0, and marks it again.
  EXPECT_NE(ChainInOneStream(nullptr, true), "");
}

// --- In the deferred mode: what has run when a call returns. ---

// "" if the cell holds `expected`, else a description.
std::string CellIs(const int* cell, int expected, const char* when) {
  const int value = *static_cast<const volatile int*>(cell);
  if (value == expected) return "";
  return std::string(when) + ": the cell holds " + std::to_string(value) +
         ", expected " + std::to_string(expected) + "; ";
}

// A launch returns before its kernel runs; the host's wait runs it.
std::string LaunchReturnsBeforeTheKernelRuns() {
  int* cell = nullptr;
  if (mcMallocManaged(&cell, sizeof(int)) != mcSuccess) return "no memory";
  *cell = 0;
  Step<<<1, 1>>>(cell, 0, 1);
  // That it has not run yet shows only where the deferred mode holds work
  // back; a GPU may already have run it.
  std::string problems;
  if (Claimed("timeline_modes"))
    problems += CellIs(cell, 0, "after the launch");
  if (mcDeviceSynchronize() != mcSuccess) problems += "sync failed; ";
  problems += CellIs(cell, 1, "after mcDeviceSynchronize");
  mcFree(cell);
  return problems;
}

// An asynchronous copy and memset return before the data is in place.
std::string AsyncCopyReturnsBeforeTheCopy() {
  int* device = nullptr;
  int* pinned = nullptr;
  if (mcMalloc(&device, sizeof(int)) != mcSuccess ||
      mcMallocHost(&pinned, 2 * sizeof(int)) != mcSuccess) {
    return "no memory";
  }
  pinned[0] = 5;
  pinned[1] = 0;
  mcStream_t stream = nullptr;
  if (mcStreamCreate(&stream) != mcSuccess) return "no stream";
  mcMemsetAsync(device, 0, sizeof(int), stream);
  Step<<<1, 1, 0, stream>>>(device, 0, 7);
  mcMemcpyAsync(&pinned[1], device, sizeof(int), mcMemcpyDeviceToHost, stream);
  mcMemsetAsync(pinned, 0, sizeof(int), stream);
  std::string problems;
  if (Claimed("timeline_modes")) {
    problems += CellIs(&pinned[1], 0, "after mcMemcpyAsync");
    problems += CellIs(&pinned[0], 5, "after mcMemsetAsync");
  }
  if (mcStreamSynchronize(stream) != mcSuccess) problems += "sync failed; ";
  problems += CellIs(&pinned[1], 7, "after mcStreamSynchronize");
  problems += CellIs(&pinned[0], 0, "after mcStreamSynchronize");
  mcStreamDestroy(stream);
  mcFreeHost(pinned);
  mcFree(device);
  return problems;
}

TEST(ReturnsEarly, KernelLaunch) {
  MX_SPEC("model.async.kernel-launch-returns-early");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(LaunchReturnsBeforeTheKernelRuns());
}

TEST(ReturnsEarly, AsyncCopyAndMemset) {
  MX_SPEC("model.async.async-copy-returns-early");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(AsyncCopyReturnsBeforeTheCopy());
}

// MACA_LAUNCH_BLOCKING=1: every launch and asynchronous operation has
// completed when its call returns, whatever the timeline mode; the results
// are the same. These are also the controls of the two tests above: the
// same look sees the work done.
std::string EverythingCompleteAtReturn() {
  int* cell = nullptr;
  int* device = nullptr;
  int* pinned = nullptr;
  if (mcMallocManaged(&cell, sizeof(int)) != mcSuccess ||
      mcMalloc(&device, sizeof(int)) != mcSuccess ||
      mcMallocHost(&pinned, sizeof(int)) != mcSuccess) {
    return "no memory";
  }
  *cell = 0;
  *pinned = 0;
  mcStream_t stream = nullptr;
  if (mcStreamCreate(&stream) != mcSuccess) return "no stream";
  Step<<<1, 1>>>(cell, 0, 1);
  std::string problems = CellIs(cell, 1, "after the launch");
  mcMemsetAsync(device, 0, sizeof(int), stream);
  Step<<<1, 1, 0, stream>>>(device, 0, 7);
  mcMemcpyAsync(pinned, device, sizeof(int), mcMemcpyDeviceToHost, stream);
  problems += CellIs(pinned, 7, "after mcMemcpyAsync");
  if (mcDeviceSynchronize() != mcSuccess) problems += "sync failed; ";
  problems += CellIs(cell, 1, "after mcDeviceSynchronize");
  problems += CellIs(pinned, 7, "after mcDeviceSynchronize");
  mcStreamDestroy(stream);
  mcFreeHost(pinned);
  mcFree(device);
  mcFree(cell);
  return problems;
}

TEST(LaunchBlocking, WorkIsCompleteWhenTheCallReturns) {
  MX_SPEC("model.async.launch-blocking-env",
          "model.async.kernel-launch-returns-early",
          "model.async.async-copy-returns-early");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", "1");
  MX_EXPECT_IN_FRESH_PROCESS(EverythingCompleteAtReturn());
}

TEST(LaunchBlocking, ControlWithoutItWorkIsPending) {
  MX_SPEC("model.async.launch-blocking-env");
  // Work pending at its call's return is certain only in the deferred mode.
  MX_REQUIRE_CAPABILITY("timeline_modes");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", "0");
  MX_EXPECT_IN_FRESH_PROCESS(
      EverythingCompleteAtReturn().find("after the launch") == 0
          ? std::string()
          : std::string("the launch had completed at its return"));
}

TEST(LaunchBlocking, SameResultsInEveryMode) {
  MX_SPEC("model.async.launch-blocking-env");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", "1");
  MX_EXPECT_IN_FRESH_PROCESS(ChainInOneStream(nullptr, false));
}

// --- Streams: unordered with each other unless an event orders them. ---

// Copies what `cell` holds when it runs into `seen`.
__global__ void Observe(const int* cell, int* seen) { *seen = *cell; }

// Step 1 in stream `a`; in stream `b` (after an event of `a` if
// `with_event`) a kernel that records what the cell held when it ran. The
// host then waits for `b` only and checks what b saw. b's record is a cell
// of its own: a's step, unordered with b, may still be running on a device
// that runs both streams at once, and may write the shared cell after b.
std::string WaitForTheSecondStream(bool with_event) {
  constexpr int kNotRun = 99;
  int* cell = nullptr;
  int* seen = nullptr;
  if (mcMallocManaged(&cell, sizeof(int)) != mcSuccess ||
      mcMallocManaged(&seen, sizeof(int)) != mcSuccess) {
    return "no memory";
  }
  *cell = 0;
  *seen = kNotRun;
  mcStream_t a = nullptr;
  mcStream_t b = nullptr;
  mcEvent_t event = nullptr;
  if (mcStreamCreateWithFlags(&a, mcStreamNonBlocking) != mcSuccess ||
      mcStreamCreateWithFlags(&b, mcStreamNonBlocking) != mcSuccess ||
      mcEventCreate(&event) != mcSuccess) {
    return "no stream or event";
  }
  Step<<<1, 1, 0, a>>>(cell, 0, 1);
  if (with_event) {
    mcEventRecord(event, a);
    mcStreamWaitEvent(b, event, 0);
  }
  Observe<<<1, 1, 0, b>>>(cell, seen);
  std::string problems;
  if (mcStreamSynchronize(b) != mcSuccess) problems += "sync failed; ";
  // Ordered: b saw step 1. Unordered, in the deferred mode: only b's work
  // ran, so it saw the cell untouched. Elsewhere b saw either; either way
  // it has run.
  const int saw = *seen;
  if (saw == kNotRun) {
    problems += "the second stream's kernel had not run after the wait; ";
  } else if (with_event) {
    if (saw != 1) {
      problems += "the second stream ran before the event it waits for (saw " +
                  std::to_string(saw) + "); ";
    }
  } else if (Claimed("timeline_modes")) {
    if (saw != 0) {
      problems += "waiting for the second stream ran the first (b saw " +
                  std::to_string(saw) + "); ";
    }
  } else if (saw != 0 && saw != 1) {
    problems += "the second stream saw " + std::to_string(saw) +
                ", neither before nor after the first's step; ";
  }
  mcDeviceSynchronize();
  mcEventDestroy(event);
  mcStreamDestroy(b);
  mcStreamDestroy(a);
  mcFree(seen);
  mcFree(cell);
  return problems;
}

TEST(StreamsUnordered, SecondStreamDoesNotWaitForTheFirst) {
  MX_SPEC("model.async.streams-unordered-with-each-other",
          "model.async.host-synchronization-points");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(WaitForTheSecondStream(false));
}

TEST(StreamsUnordered, ControlAnEventOrdersThem) {
  MX_SPEC("model.async.streams-unordered-with-each-other");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(WaitForTheSecondStream(true));
}

TEST(StreamsUnordered, AnEventOrdersThemInThisProcess) {
  MX_SPEC("model.async.streams-unordered-with-each-other");
  EXPECT_EQ(WaitForTheSecondStream(true), "");
}

// --- No stream named: the default stream. ---

// Launches with no stream, with stream 0 and a memset with no stream,
// then waits for stream 0 only; the work must have run. With
// `other_stream`, the same work goes to a non-blocking stream instead (the
// control): waiting for stream 0 does not run it.
std::string DefaultStreamWork(bool other_stream) {
  int* cell = nullptr;
  int* device = nullptr;
  if (mcMallocManaged(&cell, sizeof(int)) != mcSuccess ||
      mcMalloc(&device, sizeof(int)) != mcSuccess) {
    return "no memory";
  }
  *cell = 0;
  mcStream_t stream = nullptr;
  if (mcStreamCreateWithFlags(&stream, mcStreamNonBlocking) != mcSuccess) {
    return "no stream";
  }
  if (other_stream) {
    Step<<<1, 1, 0, stream>>>(cell, 0, 1);
    Step<<<1, 1, 0, stream>>>(cell, 1, 2);
  } else {
    Step<<<1, 1>>>(cell, 0, 1);
    Step<<<1, 1, 0, 0>>>(cell, 1, 2);
    mcMemset(device, 0, sizeof(int));
  }
  std::string problems;
  if (mcStreamSynchronize(0) != mcSuccess) problems += "sync failed; ";
  problems += CellIs(cell, other_stream ? 0 : 2, "after waiting for stream 0");
  mcDeviceSynchronize();
  mcStreamDestroy(stream);
  mcFree(device);
  mcFree(cell);
  return problems;
}

TEST(DefaultStream, WorkWithoutAStreamGoesToStreamZero) {
  MX_SPEC("model.async.unspecified-stream-is-default",
          "model.async.host-synchronization-points");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(DefaultStreamWork(false));
}

TEST(DefaultStream, ControlWorkOfAnotherStreamIsNotCovered) {
  MX_SPEC("model.async.unspecified-stream-is-default");
  // Uncovered work that has not run is certain only in the deferred mode.
  MX_REQUIRE_CAPABILITY("timeline_modes");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(DefaultStreamWork(true));
}

// --- The host's synchronization points. ---

enum class Wait { kDevice, kStream, kEvent };

// Steps in two streams, an event recorded after the first stream's first
// step; waits with `wait` and reports which cells are done.
std::string WaitCovers(Wait wait) {
  int* cells = nullptr;
  if (mcMallocManaged(&cells, 2 * sizeof(int)) != mcSuccess) {
    return "no memory";
  }
  cells[0] = cells[1] = 0;
  mcStream_t a = nullptr;
  mcStream_t b = nullptr;
  mcEvent_t event = nullptr;
  if (mcStreamCreateWithFlags(&a, mcStreamNonBlocking) != mcSuccess ||
      mcStreamCreateWithFlags(&b, mcStreamNonBlocking) != mcSuccess ||
      mcEventCreate(&event) != mcSuccess) {
    return "no stream or event";
  }
  Step<<<1, 1, 0, a>>>(&cells[0], 0, 1);
  mcEventRecord(event, a);
  Step<<<1, 1, 0, a>>>(&cells[0], 1, 2);
  Step<<<1, 1, 0, b>>>(&cells[1], 0, 1);
  std::string problems;
  mcError_t error = mcSuccess;
  switch (wait) {
    case Wait::kDevice:
      error = mcDeviceSynchronize();
      problems += CellIs(&cells[0], 2, "after mcDeviceSynchronize");
      problems += CellIs(&cells[1], 1, "after mcDeviceSynchronize");
      break;
    case Wait::kStream:
      error = mcStreamSynchronize(a);
      problems += CellIs(&cells[0], 2, "after mcStreamSynchronize");
      // Deferred: the other stream's work is not covered and has not run.
      if (Claimed("timeline_modes")) {
        problems += CellIs(&cells[1], 0, "after mcStreamSynchronize");
      }
      break;
    case Wait::kEvent:
      error = mcEventSynchronize(event);
      if (Claimed("timeline_modes")) {
        problems += CellIs(&cells[0], 1, "after mcEventSynchronize");
        problems += CellIs(&cells[1], 0, "after mcEventSynchronize");
      } else if (cells[0] != 1 && cells[0] != 2) {
        // The recorded step has run; the step after it may have.
        problems += "after mcEventSynchronize: the cell holds " +
                    std::to_string(cells[0]) + ", expected 1 or 2; ";
      }
      break;
  }
  if (error != mcSuccess) problems += "the wait failed; ";
  mcDeviceSynchronize();
  mcEventDestroy(event);
  mcStreamDestroy(b);
  mcStreamDestroy(a);
  mcFree(cells);
  return problems;
}

TEST(HostSynchronization, DeviceSynchronizeWaitsForAllWork) {
  MX_SPEC("model.async.host-synchronization-points");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(WaitCovers(Wait::kDevice));
}

TEST(HostSynchronization, StreamSynchronizeWaitsForItsStream) {
  MX_SPEC("model.async.host-synchronization-points");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(WaitCovers(Wait::kStream));
}

TEST(HostSynchronization, EventSynchronizeWaitsForTheRecordedWork) {
  MX_SPEC("model.async.host-synchronization-points");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(WaitCovers(Wait::kEvent));
}

}  // namespace
}  // namespace mxcts::conformance
