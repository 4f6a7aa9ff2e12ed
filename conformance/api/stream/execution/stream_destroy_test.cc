// Copyright mxcts authors.
//
// Conformance: destroying a stream that still has work (docs/spec/
// api-stream.md, "Destroying streams"). The call returns at once; the work
// still runs, with the results it would have had, and a later
// mcDeviceSynchronize waits for it; the handle is then invalid.
//
// The results hold in every timeline mode (the target also runs as
// _deferred and _shuffle). That the call returned *before* the work ran is
// visible in the deferred mode only, so that check runs in a fresh process
// with MXCTS_TIMELINE=deferred.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/follow_kernel.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Creates a stream of `kind` (not destroyed by the TestStream: the
// program destroys it), enqueues a kernel chain, a host function and an
// event record, destroys the stream, and checks what a later
// mcDeviceSynchronize shows. With `deferred`, also that nothing had run
// when mcStreamDestroy returned.
std::string DestroyWithPendingWork(StreamKind kind, int device, bool deferred) {
  const bool held = deferred && HoldsWorkUntilWaited();
  std::string problems;
  ScopedDevice on(device);
  mcStream_t stream = nullptr;
  switch (kind) {
    case StreamKind::kNonBlocking:
      problems += Expect("mcStreamCreateWithFlags",
                         mcStreamCreateWithFlags(&stream, mcStreamNonBlocking),
                         mcSuccess);
      break;
    case StreamKind::kPriority:
      problems += Expect("mcStreamCreateWithPriority",
                         mcStreamCreateWithPriority(&stream, 0, -1), mcSuccess);
      break;
    default:
      problems += Expect("mcStreamCreate", mcStreamCreate(&stream), mcSuccess);
      break;
  }
  int* cell = nullptr;
  mcEvent_t event = nullptr;
  problems +=
      Expect("mcMallocManaged", mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  problems += Expect("mcEventCreate", mcEventCreate(&event), mcSuccess);
  if (!problems.empty()) return problems;
  *cell = 0;
  OrderLog log;
  for (int step = 0; step < 3; ++step) {
    Follow<<<1, 1, 0, stream>>>(cell, step, step + 1);
  }
  problems += Expect("the launches", mcGetLastError(), mcSuccess);
  problems +=
      Expect("mcLaunchHostFunc", log.Append(stream, "pending"), mcSuccess);
  problems += Expect("mcEventRecord", mcEventRecord(event, stream), mcSuccess);
  problems += Expect("mcStreamDestroy", mcStreamDestroy(stream), mcSuccess);
  // Only an implementation that holds work until it is waited for shows
  // that the call did not wait (a GPU may have run the work already).
  if (held && (log.size() != 0 || *cell != 0)) {
    problems += "mcStreamDestroy waited for the work; ";
  }
  // The handle is gone at once.
  problems += Expect("mcStreamQuery of the destroyed stream",
                     mcStreamQuery(stream), mcErrorInvalidResourceHandle);
  problems += Expect("mcStreamDestroy again", mcStreamDestroy(stream),
                     mcErrorInvalidResourceHandle);
  mcGetLastError();
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  problems += ExpectLog("after mcDeviceSynchronize", log, "pending");
  if (*cell != 3) {
    problems += "the kernels left " + std::to_string(*cell) + "; ";
  }
  problems += Expect("mcEventQuery", mcEventQuery(event), mcSuccess);
  mcEventDestroy(event);
  mcFree(cell);
  return problems;
}

class StreamDestroy : public KindOnDeviceTest {};

TEST_P(StreamDestroy, PendingWorkStillRuns) {
  MX_SPEC("api.stream.destroy.pending-work-completes",
          "api.stream.destroy.twice-is-invalid-resource-handle",
          "api.stream.handle.invalid-handle-is-invalid-resource-handle",
          "api.sync.host.device-synchronize-waits-all");
  const std::string problems = DestroyWithPendingWork(kind(), device(), false);
  EXPECT_EQ(problems, "");
}

TEST_P(StreamDestroy, DeferredDestroyReturnsBeforeTheWork) {
  MX_SPEC("api.stream.destroy.returns-immediately",
          "api.stream.destroy.pending-work-completes");
  ScopedTimelineMode deferred("deferred");
  MX_EXPECT_IN_FRESH_PROCESS(DestroyWithPendingWork(kind(), device(), true));
}

INSTANTIATE_TEST_SUITE_P(
    KindsAndDevices, StreamDestroy,
    testing::Combine(testing::ValuesIn(kCreatedStreamKinds),
                     testing::Values(0, 1)),
    KindOnDeviceName);

// A stream that another waits on is destroyed: the wait still holds.
TEST(StreamDestroy, WaitOnADestroyedStreamsEventHolds) {
  MX_SPEC("api.stream.destroy.pending-work-completes",
          "api.stream.wait-event.delays-later-work");
  mcStream_t recording = nullptr;
  ASSERT_EQ(mcStreamCreateWithFlags(&recording, mcStreamNonBlocking),
            mcSuccess);
  TestStream waiting(StreamKind::kNonBlocking);
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreate(&event), mcSuccess);
  OrderLog log;
  ASSERT_EQ(log.Append(recording, "recorded"), mcSuccess);
  ASSERT_EQ(mcEventRecord(event, recording), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(recording), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(waiting.get(), event, 0), mcSuccess);
  ASSERT_EQ(log.Append(waiting.get(), "waiter"), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(waiting.get()), mcSuccess);
  EXPECT_EQ(log.Joined(), "recorded waiter");
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

}  // namespace
}  // namespace mxcts::conformance
