// Copyright mxcts authors.
//
// perf/engine/kernel_timing.h: how the engine benchmarks time their
// kernels and report the result as a ratio.
//
// A benchmark runs its launch-and-synchronize in the benchmark loop through
// TimeEachIteration, which also keeps Google Benchmark's own timing; then
// ReportPerUnit turns the total into nanoseconds per unit of work (a device
// thread, a barrier crossing, a shuffle) and divides by the physical limit
// measured in the same run.
//
//   KernelTimer timer;
//   for (auto _ : state) timer.Time([&] { Kernel<<<g, b>>>(); Sync(); });
//   ReportPerUnit(state, timer, units_per_iteration, limit_ns, "native");

#ifndef MXCTS_PERF_ENGINE_KERNEL_TIMING_H_
#define MXCTS_PERF_ENGINE_KERNEL_TIMING_H_

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "perf/engine/physical_limits.h"

namespace mxcts::perf {

// Sums the durations of the timed calls.
class KernelTimer {
 public:
  template <typename Work>
  void Time(Work work) {
    const double start = NowNanoseconds();
    work();
    total_ns_ += NowNanoseconds() - start;
    ++count_;
  }
  double mean_ns() const { return count_ == 0 ? 0 : total_ns_ / count_; }

 private:
  double total_ns_ = 0;
  long count_ = 0;
};

// Stops the benchmark run with a message if `error` is not mcSuccess: a
// benchmark of a failing kernel measures nothing.
inline void CheckMc(mcError_t error, const char* what) {
  if (error != mcSuccess) {
    std::fprintf(stderr, "%s failed: %s\n", what, mcGetErrorString(error));
    std::exit(1);
  }
}

// Reports "ns_per_<unit>" (the mean iteration time over
// `units_per_iteration`), "<limit_name>_ns" and "ratio_to_<limit_name>".
inline void ReportPerUnit(benchmark::State& state, const KernelTimer& timer,
                          double units_per_iteration, double limit_ns,
                          const std::string& unit,
                          const std::string& limit_name) {
  const double per_unit = timer.mean_ns() / units_per_iteration;
  state.counters["ns_per_" + unit] = per_unit;
  state.counters[limit_name + "_ns"] = limit_ns;
  state.counters["ratio_to_" + limit_name] = per_unit / limit_ns;
}

}  // namespace mxcts::perf

#endif  // MXCTS_PERF_ENGINE_KERNEL_TIMING_H_
