// Copyright mxcts authors.
//
// Conformance: which streams the legacy default stream is ordered with, and
// which it is not (docs/spec/api-synchronization.md, "The legacy default
// stream", "The per-thread default stream"; api-stream.md, "Streams of
// another device").
//
// That a non-blocking stream, a stream of another device or the
// per-thread stream of another thread is *not* ordered with some work can
// only be seen when the implementation runs less than everything: in the
// deferred timeline mode a wait runs only the work it needs, so the log of
// host functions after a wait shows exactly what the waited-for work was
// ordered after. Each check runs in a fresh process with
// MXCTS_TIMELINE=deferred; its blocking-stream twin on the same device is
// the contrast that shows the order when there is one.
//
// The deferred mode is the reference's (capability timeline_modes).
// Elsewhere work may run before anything waits for it, so the checks that
// a wait ran *only* what it is ordered after apply only where the modes are
// claimed; the order a wait imposes, and that it ran what it waits for, are
// checked everywhere.

#include <mc_runtime.h>

#include <string>
#include <thread>
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

// Whether `log` holds `entry`.
bool Holds(const OrderLog& log, const std::string& entry) {
  for (const std::string& ran : log.entries()) {
    if (ran == entry) return true;
  }
  return false;
}

// How the legacy work and the other stream's work are placed, and which
// wait runs.
enum class Shape {
  kLegacyAfter,         // other, then legacy; wait for an event after legacy
  kLegacyBefore,        // legacy, then other; synchronize the other stream
  kLegacySynchronized,  // legacy, then other; synchronize the legacy stream
};

const char* ShapeName(Shape shape) {
  switch (shape) {
    case Shape::kLegacyAfter:
      return "LegacyAfter";
    case Shape::kLegacyBefore:
      return "LegacyBefore";
    case Shape::kLegacySynchronized:
      return "LegacySynchronized";
  }
  return "Unknown";
}

// What the wait must have run: both, in order, when the two are ordered;
// else only the waited-for work.
std::string Expected(Shape shape, bool ordered) {
  switch (shape) {
    case Shape::kLegacyAfter:
      return ordered ? "other legacy" : "legacy";
    case Shape::kLegacyBefore:
      return ordered ? "legacy other" : "other";
    case Shape::kLegacySynchronized:
      return ordered ? "legacy other" : "legacy";
  }
  return "";
}

// Runs `shape` with the legacy stream named by `legacy_kind` on device 0
// and a stream of `other_kind` on `other_device`.
std::string RunShape(Shape shape, StreamKind other_kind, StreamKind legacy_kind,
                     int other_device) {
  std::string problems;
  TestStream legacy(legacy_kind);
  ScopedDevice other_on(other_device);
  TestStream other(other_kind);
  problems += Expect("creating the stream", other.status(), mcSuccess);
  mcEvent_t event = nullptr;
  {
    ScopedDevice legacy_on(0);
    problems += Expect("mcEventCreate", mcEventCreate(&event), mcSuccess);
  }
  if (!problems.empty()) return problems;
  OrderLog log;
  auto on_legacy = [&](auto&& call) {
    ScopedDevice legacy_on(0);
    return call();
  };
  if (shape == Shape::kLegacyAfter) {
    problems +=
        Expect("mcLaunchHostFunc", log.Append(other.get(), "other"), mcSuccess);
    problems +=
        Expect("mcLaunchHostFunc",
               on_legacy([&] { return log.Append(legacy.get(), "legacy"); }),
               mcSuccess);
    problems +=
        Expect("mcEventRecord",
               on_legacy([&] { return mcEventRecord(event, legacy.get()); }),
               mcSuccess);
    problems +=
        Expect("mcEventSynchronize", mcEventSynchronize(event), mcSuccess);
  } else {
    problems +=
        Expect("mcLaunchHostFunc",
               on_legacy([&] { return log.Append(legacy.get(), "legacy"); }),
               mcSuccess);
    problems +=
        Expect("mcLaunchHostFunc", log.Append(other.get(), "other"), mcSuccess);
    if (shape == Shape::kLegacyBefore) {
      problems += Expect("mcStreamSynchronize of the other stream",
                         mcStreamSynchronize(other.get()), mcSuccess);
    } else {
      problems +=
          Expect("mcStreamSynchronize of the legacy stream",
                 on_legacy([&] { return mcStreamSynchronize(legacy.get()); }),
                 mcSuccess);
    }
  }
  const bool ordered = IsBlockingKind(other_kind) && other_device == 0;
  if (ordered || Claimed("timeline_modes")) {
    problems += ExpectLog("after the wait", log, Expected(shape, ordered));
  } else if (!Holds(log, Expected(shape, false))) {
    // The unordered piece may have run too; the waited-for one has.
    problems += "after the wait the log is '" + log.Joined() + "', without '" +
                Expected(shape, false) + "'; ";
  }
  // Every piece still runs once the host waits for all of it.
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  problems +=
      Expect("mcDeviceSynchronize",
             on_legacy([] { return mcDeviceSynchronize(); }), mcSuccess);
  if (log.size() != 2) problems += "left '" + log.Joined() + "'; ";
  mcEventDestroy(event);
  return problems;
}

// (shape, other stream's kind, legacy stream's name, other device)
using Case = std::tuple<Shape, StreamKind, StreamKind, int>;

std::string CaseName(const testing::TestParamInfo<Case>& info) {
  return std::string(ShapeName(std::get<0>(info.param))) + "_" +
         StreamKindName(std::get<1>(info.param)) + "_" +
         StreamKindName(std::get<2>(info.param)) + "_Device" +
         std::to_string(std::get<3>(info.param));
}

class LegacyDeferred : public DeferredModeTest<testing::TestWithParam<Case>> {};

TEST_P(LegacyDeferred, WaitRunsExactlyWhatItIsOrderedAfter) {
  MX_SPEC("api.sync.legacy.waits-for-blocking-streams",
          "api.sync.legacy.blocking-streams-wait-for-it",
          "api.sync.legacy.non-blocking-streams-exempt",
          "api.sync.legacy.per-device",
          "api.sync.legacy.synchronize-covers-blocking-work",
          "api.sync.per-thread.behaves-as-blocking-stream",
          "api.stream.create-with-flags.non-blocking-flag");
  const auto [shape, other_kind, legacy_kind, other_device] = GetParam();
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", other_device + 1);
  MX_EXPECT_IN_FRESH_PROCESS(
      RunShape(shape, other_kind, legacy_kind, other_device));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, LegacyDeferred,
    testing::Combine(testing::Values(Shape::kLegacyAfter, Shape::kLegacyBefore,
                                     Shape::kLegacySynchronized),
                     testing::Values(StreamKind::kBlocking,
                                     StreamKind::kNonBlocking,
                                     StreamKind::kPriority,
                                     StreamKind::kPerThread),
                     testing::Values(StreamKind::kZero, StreamKind::kLegacy),
                     testing::Values(0, 1)),
    CaseName);

// The legacy streams of two devices are not ordered with each other.
std::string LegacyStreamsOfTwoDevices(int waited_device) {
  std::string problems;
  OrderLog log;
  for (int device : {1 - waited_device, waited_device}) {
    ScopedDevice on(device);
    problems += Expect("mcLaunchHostFunc",
                       log.Append(nullptr, "device" + std::to_string(device)),
                       mcSuccess);
  }
  {
    ScopedDevice on(waited_device);
    problems +=
        Expect("mcStreamSynchronize", mcStreamSynchronize(nullptr), mcSuccess);
  }
  problems += ExpectLog("after the wait", log,
                        "device" + std::to_string(waited_device));
  ScopedDevice on(1 - waited_device);
  problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
  if (log.size() != 2) problems += "left '" + log.Joined() + "'; ";
  return problems;
}

class DefaultStreamPerDevice
    : public DeferredModeTest<testing::TestWithParam<int>> {};

TEST_P(DefaultStreamPerDevice, OtherDevicesLegacyWorkDoesNotRun) {
  MX_SPEC("api.stream.other-device.default-streams-per-device",
          "api.sync.legacy.per-device");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  MX_EXPECT_IN_FRESH_PROCESS(LegacyStreamsOfTwoDevices(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(WaitedDevice, DefaultStreamPerDevice,
                         testing::Values(0, 1));

// Each host thread has its own per-thread stream: synchronizing one runs
// none of the other thread's work, while the legacy stream, ordered after
// every blocking stream, waits for both.
std::string PerThreadStreamsAreDistinct() {
  std::string problems;
  OrderLog log;
  mcError_t in_thread = mcErrorUnknown;
  std::thread first([&] { in_thread = log.Append(mcStreamPerThread, "t1"); });
  first.join();
  problems += Expect("mcLaunchHostFunc in a thread", in_thread, mcSuccess);
  problems += Expect("mcLaunchHostFunc", log.Append(mcStreamPerThread, "main"),
                     mcSuccess);
  // A second thread waits for its own (empty) stream: nothing runs.
  std::thread second(
      [&] { in_thread = mcStreamSynchronize(mcStreamPerThread); });
  second.join();
  problems += Expect("mcStreamSynchronize in a thread", in_thread, mcSuccess);
  const bool deferred = Claimed("timeline_modes");
  if (deferred) problems += ExpectLog("after another thread's wait", log, "");
  problems += Expect("mcStreamSynchronize",
                     mcStreamSynchronize(mcStreamPerThread), mcSuccess);
  if (deferred) {
    problems += ExpectLog("after the main thread's wait", log, "main");
  } else if (!Holds(log, "main")) {
    problems += "after the main thread's wait the log is '" + log.Joined() +
                "', without 'main'; ";
  }
  problems += Expect("mcLaunchHostFunc", log.Append(mcStreamLegacy, "legacy"),
                     mcSuccess);
  mcEvent_t event = nullptr;
  problems += Expect("mcEventCreate", mcEventCreate(&event), mcSuccess);
  problems +=
      Expect("mcEventRecord", mcEventRecord(event, mcStreamLegacy), mcSuccess);
  problems +=
      Expect("mcEventSynchronize", mcEventSynchronize(event), mcSuccess);
  if (deferred) {
    problems += ExpectLog("after the legacy wait", log, "main t1 legacy");
  } else if (log.size() != 3 || log.entries().back() != "legacy" ||
             !Holds(log, "main") || !Holds(log, "t1")) {
    // The two per-thread streams are not ordered with each other; the
    // legacy work follows both.
    problems += "after the legacy wait the log is '" + log.Joined() +
                "', expected 'main' and 't1' in either order, then 'legacy'; ";
  }
  mcEventDestroy(event);
  return problems;
}

using PerThreadDeferred = DeferredModeTest<>;

TEST_F(PerThreadDeferred, EachThreadHasItsOwnStream) {
  MX_SPEC("api.sync.per-thread.one-stream-per-thread",
          "api.sync.per-thread.behaves-as-blocking-stream",
          "api.stream.special.per-thread-handle",
          "api.sync.legacy.waits-for-blocking-streams");
  MX_EXPECT_IN_FRESH_PROCESS(PerThreadStreamsAreDistinct());
}

// A thread's wait on its per-thread stream runs the legacy work before it
// (the per-thread stream is blocking) but not the per-thread work of the
// main thread.
std::string PerThreadWaitInAThread() {
  std::string problems;
  OrderLog log;
  problems += Expect("mcLaunchHostFunc", log.Append(mcStreamPerThread, "main"),
                     mcSuccess);
  problems += Expect("mcLaunchHostFunc", log.Append(mcStreamLegacy, "legacy"),
                     mcSuccess);
  // The legacy work waits for "main"; the thread's work waits for legacy.
  mcError_t results[2] = {mcErrorUnknown, mcErrorUnknown};
  std::thread worker([&] {
    results[0] = log.Append(mcStreamPerThread, "thread");
    results[1] = mcStreamSynchronize(mcStreamPerThread);
  });
  worker.join();
  problems += Expect("mcLaunchHostFunc in a thread", results[0], mcSuccess);
  problems += Expect("mcStreamSynchronize in a thread", results[1], mcSuccess);
  problems += ExpectLog("after the thread's wait", log, "main legacy thread");
  return problems;
}

TEST_F(PerThreadDeferred, ThreadsStreamWaitsForLegacyWork) {
  MX_SPEC("api.sync.per-thread.behaves-as-blocking-stream",
          "api.sync.legacy.blocking-streams-wait-for-it",
          "api.sync.legacy.waits-for-blocking-streams");
  MX_EXPECT_IN_FRESH_PROCESS(PerThreadWaitInAThread());
}

}  // namespace
}  // namespace mxcts::conformance
