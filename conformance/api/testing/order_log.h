// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/order_log.h
// -----------------------------------------------------------------------------
//
// OrderLog, a log that host functions and stream callbacks append to when
// the device timeline runs them, so that a stream, event, callback or
// timeline conformance test can see in which order the work ran
// (docs/spec/api-stream.md, api-synchronization.md); ExpectLog, the check
// of a log's contents for programs that collect their problems as text;
// and SleepFor, a host function that holds its stream for a while.
//
//   OrderLog log;
//   log.Append(stream, "first");
//   log.AppendCallback(stream, "second");
//   mcStreamSynchronize(stream);
//   log.Joined();               // "first second"
//   log.callback_statuses();    // {mcSuccess}
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_TESTING_ORDER_LOG_H_
#define MXCTS_CONFORMANCE_API_TESTING_ORDER_LOG_H_

#include <mc_runtime.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mxcts::conformance {

// A log of labels, appended to by host functions and stream callbacks when
// the timeline runs them. Each enqueued entry owns a reference to the log's
// state, so work that runs after the OrderLog is gone writes nowhere
// harmful.
class OrderLog {
 public:
  OrderLog() : state_(std::make_shared<State>()) {}

  // Enqueues a host function that appends `label` (mcLaunchHostFunc).
  // Returns what mcLaunchHostFunc returned.
  mcError_t Append(mcStream_t stream, const std::string& label) {
    auto* mark = new Mark{state_, label};
    const mcError_t result = mcLaunchHostFunc(stream, &OrderLog::Run, mark);
    if (result != mcSuccess) delete mark;
    return result;
  }

  // Enqueues a stream callback that appends `label` (mcStreamAddCallback)
  // and remembers the status it received. Returns what mcStreamAddCallback
  // returned.
  mcError_t AppendCallback(mcStream_t stream, const std::string& label) {
    auto* mark = new Mark{state_, label};
    const mcError_t result =
        mcStreamAddCallback(stream, &OrderLog::RunCallback, mark, 0);
    if (result != mcSuccess) delete mark;
    return result;
  }

  std::vector<std::string> entries() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->entries;
  }
  size_t size() const { return entries().size(); }
  // The labels in the order they ran, separated by spaces.
  std::string Joined() const {
    std::string joined;
    for (const std::string& entry : entries()) {
      if (!joined.empty()) joined += ' ';
      joined += entry;
    }
    return joined;
  }
  // Where `label` ran first, or -1 if it has not run.
  int PositionOf(const std::string& label) const {
    const std::vector<std::string> all = entries();
    auto it = std::find(all.begin(), all.end(), label);
    return it == all.end() ? -1 : static_cast<int>(it - all.begin());
  }
  bool Ran(const std::string& label) const { return PositionOf(label) >= 0; }
  // How often `label` ran.
  int CountOf(const std::string& label) const {
    const std::vector<std::string> all = entries();
    return static_cast<int>(std::count(all.begin(), all.end(), label));
  }
  // True if both ran and `first` ran before `second`.
  bool RanBefore(const std::string& first, const std::string& second) const {
    const int a = PositionOf(first);
    const int b = PositionOf(second);
    return a >= 0 && b >= 0 && a < b;
  }
  // The statuses the callbacks of AppendCallback received, in call order.
  std::vector<mcError_t> callback_statuses() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->statuses;
  }

 private:
  struct State {
    std::mutex mu;
    std::vector<std::string> entries;
    std::vector<mcError_t> statuses;
  };
  struct Mark {
    std::shared_ptr<State> state;
    std::string label;
  };

  static void Run(void* data) {
    std::unique_ptr<Mark> mark(static_cast<Mark*>(data));
    std::lock_guard<std::mutex> lock(mark->state->mu);
    mark->state->entries.push_back(mark->label);
  }
  static void RunCallback(mcStream_t, mcError_t status, void* data) {
    std::unique_ptr<Mark> mark(static_cast<Mark*>(data));
    std::lock_guard<std::mutex> lock(mark->state->mu);
    mark->state->entries.push_back(mark->label);
    mark->state->statuses.push_back(status);
  }

  std::shared_ptr<State> state_;
};

// "" if `log` reads `expected`, else a sentence saying what it read `when`.
inline std::string ExpectLog(const char* when, const OrderLog& log,
                             const std::string& expected) {
  const std::string joined = log.Joined();
  if (joined == expected) return "";
  return std::string(when) + ": the log is '" + joined + "', expected '" +
         expected + "'; ";
}

// A host function that sleeps for `*milliseconds` (an int).
inline void SleepFor(void* milliseconds) {
  std::this_thread::sleep_for(
      std::chrono::milliseconds(*static_cast<int*>(milliseconds)));
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_ORDER_LOG_H_
