// Copyright mxcts authors.
//
// perf/runtime/call_timing.h: how the runtime benchmarks time host API
// calls and report them as ratios to a physical limit.
//
// The calls measured here cost from tens of nanoseconds to milliseconds,
// so the clock is read once before the benchmark loop and once after it
// (and after whatever must finish the loop's work), never per call: a
// steady-clock read costs about as much as the cheapest calls.
//
//   const double limit = perf::MutexLockUnlockNanoseconds();
//   const double per_call = MeanNanosPerIteration(state, [&] {
//     RequireMc(mcStreamQuery(stream), "mcStreamQuery");
//   });
//   ReportAgainstLimit(state, per_call, limit, "call", "mutex_lock_unlock");

#ifndef MXCTS_PERF_RUNTIME_CALL_TIMING_H_
#define MXCTS_PERF_RUNTIME_CALL_TIMING_H_

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "perf/engine/physical_limits.h"

namespace mxcts::perf {

// Stops the run with a message if `error` is not mcSuccess: a benchmark of
// a failing call measures nothing, and the smoke test sees the exit status.
inline void RequireMc(mcError_t error, const char* what) {
  if (error != mcSuccess) {
    std::fprintf(stderr, "%s failed: %s\n", what, mcGetErrorName(error));
    std::exit(1);
  }
}

// Runs `call()` once per iteration of `state`'s loop, then `finish()` once,
// and returns the elapsed nanoseconds over the iterations. `finish` is for
// work the calls may leave pending (a copy that returns before it ran);
// it is timed, so pending work is not left out of the figure.
template <typename Call, typename Finish>
double MeanNanosPerIteration(benchmark::State& state, Call call,
                             Finish finish) {
  const double start = NowNanoseconds();
  for (auto _ : state) call();
  finish();
  const double elapsed = NowNanoseconds() - start;
  return state.iterations() == 0 ? 0 : elapsed / state.iterations();
}

template <typename Call>
double MeanNanosPerIteration(benchmark::State& state, Call call) {
  return MeanNanosPerIteration(state, call, [] {});
}

// Reports "ns_per_<unit>", "<limit_name>_ns" and
// "ratio_to_<limit_name>" (how many limits one unit costs; 1 is the best
// a runtime on this host could do, more is overhead).
inline void ReportAgainstLimit(benchmark::State& state, double ns_per_unit,
                               double limit_ns, const std::string& unit,
                               const std::string& limit_name) {
  state.counters["ns_per_" + unit] = ns_per_unit;
  state.counters[limit_name + "_ns"] = limit_ns;
  state.counters["ratio_to_" + limit_name] = ns_per_unit / limit_ns;
}

}  // namespace mxcts::perf

#endif  // MXCTS_PERF_RUNTIME_CALL_TIMING_H_
