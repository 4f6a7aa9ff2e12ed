// Copyright mxcts authors.
//
// The host cost of the event and stream calls a program makes around its
// work: mcEventRecord on a stream, mcEventQuery of an event that has
// completed, and mcStreamQuery of an idle stream, per call.
//
// None of them has work to wait for, so each is bookkeeping under the
// runtime's locks; the physical limit is one uncontended mutex lock and
// unlock pair on this host, measured in the same run (the least a call
// that must exclude other host threads can cost). The events are recorded
// on a stream of their own, created with mcStreamNonBlocking, so no legacy
// stream ordering is involved.

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include "perf/engine/physical_limits.h"
#include "perf/runtime/call_timing.h"

namespace {

using mxcts::perf::RequireMc;

// A stream and an event on it, created for one benchmark.
class StreamAndEvent {
 public:
  explicit StreamAndEvent(unsigned event_flags) {
    RequireMc(mcStreamCreateWithFlags(&stream_, mcStreamNonBlocking),
              "mcStreamCreateWithFlags");
    RequireMc(mcEventCreateWithFlags(&event_, event_flags),
              "mcEventCreateWithFlags");
  }
  ~StreamAndEvent() {
    mcEventDestroy(event_);
    mcStreamDestroy(stream_);
  }
  StreamAndEvent(const StreamAndEvent&) = delete;
  StreamAndEvent& operator=(const StreamAndEvent&) = delete;

  mcStream_t stream() const { return stream_; }
  mcEvent_t event() const { return event_; }

 private:
  mcStream_t stream_ = nullptr;
  mcEvent_t event_ = nullptr;
};

unsigned EventFlags(const benchmark::State& state) {
  return state.range(0) != 0 ? mcEventDefault : mcEventDisableTiming;
}

// mcEventRecord, again and again, on an otherwise idle stream; with timing
// (the record takes a timestamp) and without.
void BM_EventRecord(benchmark::State& state) {
  StreamAndEvent objects(EventFlags(state));
  const double mutex_ns = mxcts::perf::MutexLockUnlockNanoseconds();
  const double per_call = mxcts::perf::MeanNanosPerIteration(
      state,
      [&] {
        RequireMc(mcEventRecord(objects.event(), objects.stream()),
                  "mcEventRecord");
      },
      [&] {
        RequireMc(mcEventSynchronize(objects.event()), "mcEventSynchronize");
      });
  mxcts::perf::ReportAgainstLimit(state, per_call, mutex_ns, "call",
                                  "mutex_lock_unlock");
}
BENCHMARK(BM_EventRecord)->ArgName("timing")->Arg(1)->Arg(0);

// mcEventQuery of an event whose record has run: mcSuccess every time.
void BM_EventQueryCompleted(benchmark::State& state) {
  StreamAndEvent objects(EventFlags(state));
  RequireMc(mcEventRecord(objects.event(), objects.stream()), "mcEventRecord");
  RequireMc(mcEventSynchronize(objects.event()), "mcEventSynchronize");
  const double mutex_ns = mxcts::perf::MutexLockUnlockNanoseconds();
  const double per_call = mxcts::perf::MeanNanosPerIteration(
      state, [&] { RequireMc(mcEventQuery(objects.event()), "mcEventQuery"); });
  mxcts::perf::ReportAgainstLimit(state, per_call, mutex_ns, "call",
                                  "mutex_lock_unlock");
}
BENCHMARK(BM_EventQueryCompleted)->ArgName("timing")->Arg(1)->Arg(0);

// mcStreamQuery of a created stream with no work (arg 1), and of the
// legacy default stream with no work on the device (arg 0).
void BM_StreamQueryIdle(benchmark::State& state) {
  StreamAndEvent objects(mcEventDefault);
  const mcStream_t stream = state.range(0) != 0 ? objects.stream() : nullptr;
  RequireMc(mcDeviceSynchronize(), "mcDeviceSynchronize");
  const double mutex_ns = mxcts::perf::MutexLockUnlockNanoseconds();
  const double per_call = mxcts::perf::MeanNanosPerIteration(
      state, [&] { RequireMc(mcStreamQuery(stream), "mcStreamQuery"); });
  mxcts::perf::ReportAgainstLimit(state, per_call, mutex_ns, "call",
                                  "mutex_lock_unlock");
}
BENCHMARK(BM_StreamQueryIdle)->ArgName("created")->Arg(1)->Arg(0);

}  // namespace
