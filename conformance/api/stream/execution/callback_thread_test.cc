// Copyright mxcts authors.
//
// Conformance: the host thread that runs a stream callback is the
// implementation's (docs/spec/api-stream.md, "Callbacks"); it need not be
// the thread that added it. A thread adds a callback and exits; the
// callback must still run, exactly once, with mcSuccess, when this thread
// synchronizes the stream. The program runs in a fresh process with the
// reference's deferred timeline, where the callback cannot have run before
// the adding thread exited, so it runs on another thread (the reference
// documents: the thread that advances the timeline, here the synchronizing
// one); elsewhere it may run on a thread of the implementation's. The
// control is a callback added by this thread itself, which runs the same
// way.

#include <mc_runtime.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

struct Seen {
  std::atomic<int> runs{0};
  std::atomic<int> status{-1};
  std::mutex mu;
  std::thread::id thread;
};

void Record(mcStream_t, mcError_t status, void* data) {
  Seen* seen = static_cast<Seen*>(data);
  {
    std::lock_guard<std::mutex> lock(seen->mu);
    seen->thread = std::this_thread::get_id();
  }
  seen->status.store(status);
  seen->runs.fetch_add(1);
}

std::string CallbackOutlivesItsThread(bool from_other_thread) {
  std::string problems;
  mcStream_t stream = nullptr;
  problems += Expect("mcStreamCreate", mcStreamCreate(&stream), mcSuccess);
  Seen seen;
  std::thread::id adder;
  std::atomic<bool> ran_before_adder_exited{false};
  auto add = [&] {
    adder = std::this_thread::get_id();
    problems +=
        Expect("mcStreamAddCallback",
               mcStreamAddCallback(stream, Record, &seen, 0), mcSuccess);
    ran_before_adder_exited.store(seen.runs.load() > 0);
  };
  if (from_other_thread) {
    std::thread(add).join();
  } else {
    add();
  }
  problems +=
      Expect("mcStreamSynchronize", mcStreamSynchronize(stream), mcSuccess);
  if (seen.runs.load() != 1) {
    problems +=
        "the callback ran " + std::to_string(seen.runs.load()) + " times; ";
  }
  problems += Expect("the callback's status",
                     static_cast<mcError_t>(seen.status.load()), mcSuccess);
  std::lock_guard<std::mutex> lock(seen.mu);
  if (from_other_thread && seen.thread == adder &&
      !ran_before_adder_exited.load()) {
    problems += "the callback claims the exited adding thread; ";
  }
  mcStreamDestroy(stream);
  return problems;
}

class CallbackThread : public DeferredModeTest<testing::TestWithParam<bool>> {};

TEST_P(CallbackThread, RunsWhetherOrNotTheAddingThreadLives) {
  MX_SPEC("api.callback.add.calling-thread");
  MX_EXPECT_IN_FRESH_PROCESS(CallbackOutlivesItsThread(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Adders, CallbackThread, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "ExitedThread"
                                             : "ControlThisThread";
                         });

}  // namespace
}  // namespace mxcts::conformance
