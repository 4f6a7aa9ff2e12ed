// Copyright mxcts authors.
//
// Conformance: mcStreamSynchronize waits for the work enqueued before it,
// not for work another host thread enqueues into the stream after the call
// began (docs/spec/api-stream.md, mcStreamSynchronize).
//
// Thread A synchronizes a stream holding gate 1 (host_gate.h). Once the
// call has begun (gate 1 has started: where work runs only when the host
// waits, the reference's deferred timeline in which this program runs, it
// is A's call that runs it), this thread enqueues gate 2 behind it, and an
// opener thread that makes no runtime call opens gate 1 only (the
// reference's runtime calls wait while another thread runs a host
// function, so this thread's enqueue may finish only after gate 1 has).
// A's call must return while gate 2 is still shut, with gate 1 released
// in time (the control: the work before the call was waited for). A call
// that waited for gate 2 would return only after gate 2's bound ran out,
// which the gate reports.

#include <mc_runtime.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/host_gate.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

std::string LaterWorkIsNotWaitedFor() {
  std::string problems;
  mcStream_t stream = nullptr;
  problems +=
      Expect("mcStreamCreateWithFlags",
             mcStreamCreateWithFlags(&stream, mcStreamNonBlocking), mcSuccess);
  HostGate before, after;
  problems +=
      Expect("mcLaunchHostFunc (gate 1)", before.Hold(stream), mcSuccess);
  std::atomic<bool> calling{false};
  std::atomic<bool> returned{false};
  bool before_done_at_return = false;
  bool after_done_at_return = true;
  mcError_t synchronized = mcErrorUnknown;
  std::thread a([&] {
    calling.store(true);
    synchronized = mcStreamSynchronize(stream);
    before_done_at_return = before.Finished();
    after_done_at_return = after.Finished();
    returned.store(true);
  });
  while (!calling.load() || !before.Started()) std::this_thread::yield();
  // The call has begun. Gate 1 opens a little later, from a thread that
  // makes no runtime call, so that gate 2 is enqueued while A waits.
  std::thread opener([&before] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    before.Open();
  });
  problems +=
      Expect("mcLaunchHostFunc (gate 2)", after.Hold(stream), mcSuccess);
  opener.join();
  const auto deadline = std::chrono::steady_clock::now() + HostGate::kBound / 2;
  while (!returned.load() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!returned.load()) {
    problems +=
        "mcStreamSynchronize had not returned with only later work "
        "left; ";
  }
  after.Open();
  a.join();
  problems += Expect("mcStreamSynchronize", synchronized, mcSuccess);
  if (!before_done_at_return) {
    problems += "mcStreamSynchronize returned before the earlier work ran; ";
  }
  if (!before.ReleasedInTime()) {
    problems += "the earlier work ran out its bound; ";
  }
  if (after_done_at_return) {
    problems += "mcStreamSynchronize returned after the later work ran; ";
  }
  problems += Expect("the final mcStreamSynchronize",
                     mcStreamSynchronize(stream), mcSuccess);
  if (!after.ReleasedInTime()) {
    problems += "the later work ran out its bound: something waited for it; ";
  }
  mcStreamDestroy(stream);
  return problems;
}

class StreamSynchronizeDeferred : public DeferredModeTest<> {};

TEST_F(StreamSynchronizeDeferred, DoesNotWaitForWorkEnqueuedAfterTheCall) {
  MX_SPEC("api.stream.synchronize.does-not-wait-for-later-work");
  // Only the deferred timeline shows that the call has begun before the
  // later work is enqueued (gate 1 starts inside it); where work runs at
  // once, gate 1 starts by itself and the later work may well be enqueued
  // before the call, which must then wait for it.
  MX_REQUIRE_CAPABILITY("timeline_modes");
  MX_EXPECT_IN_FRESH_PROCESS(LaterWorkIsNotWaitedFor());
}

}  // namespace
}  // namespace mxcts::conformance
