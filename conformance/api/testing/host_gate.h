// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/host_gate.h
// -----------------------------------------------------------------------------
//
// HostGate, a host function that holds its stream until the test opens the
// gate, for the tests of calls that must not wait for work (mcSetDevice,
// mcDeviceSynchronize of another device, mcStreamSynchronize and later
// work). The held function waits at most a bound; a call that wrongly
// waited for it makes it run out the bound before the test could open the
// gate, and the gate remembers that:
//
//   HostGate gate;
//   gate.Hold(stream);        // mcLaunchHostFunc
//   mcSetDevice(1);           // must return without running out the bound
//   gate.Open();
//   mcStreamSynchronize(stream);
//   gate.ReleasedInTime();    // true: the function saw the gate open
//
// Where device work runs only when the host waits (the reference's
// deferred timeline), a call that waits runs the held function on the
// calling thread, which then runs out the bound the same way; so the tests
// that use a gate run in that mode or on an implementation that runs host
// functions on threads of its own, never where host functions run at
// submission (that would hold the submitting thread for the bound).
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_TESTING_HOST_GATE_H_
#define MXCTS_CONFORMANCE_API_TESTING_HOST_GATE_H_

#include <mc_runtime.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

namespace mxcts::conformance {

class HostGate {
 public:
  // How long the held function waits for Open: far longer than any call
  // that does not wait takes, short enough that a wrong wait ends the test.
  static constexpr std::chrono::milliseconds kBound{3000};

  HostGate() : state_(std::make_shared<State>()) {}

  // Enqueues the held function into `stream`. Returns what mcLaunchHostFunc
  // returned.
  mcError_t Hold(mcStream_t stream) {
    auto* held = new std::shared_ptr<State>(state_);
    const mcError_t result = mcLaunchHostFunc(stream, &HostGate::Run, held);
    if (result != mcSuccess) delete held;
    return result;
  }

  // Lets the held function finish.
  void Open() { state_->open.store(true); }

  // True once the held function has begun.
  bool Started() const { return state_->started.load(); }
  // True once it has returned.
  bool Finished() const { return state_->finished.load(); }
  // True if it returned because the gate opened, not because the bound ran
  // out.
  bool ReleasedInTime() const {
    return state_->finished.load() && state_->released.load();
  }

 private:
  struct State {
    std::atomic<bool> open{false};
    std::atomic<bool> started{false};
    std::atomic<bool> released{false};
    std::atomic<bool> finished{false};
  };

  static void Run(void* data) {
    std::unique_ptr<std::shared_ptr<State>> held(
        static_cast<std::shared_ptr<State>*>(data));
    State& state = **held;
    state.started.store(true);
    const auto deadline = std::chrono::steady_clock::now() + kBound;
    while (!state.open.load() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    state.released.store(state.open.load());
    state.finished.store(true);
  }

  std::shared_ptr<State> state_;
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_HOST_GATE_H_
