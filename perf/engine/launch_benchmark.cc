// Copyright mxcts authors.
//
// The round trip of an empty kernel: `Empty<<<1, 1>>>()` then
// mcDeviceSynchronize, per iteration, against one context switch on this
// host measured in the same run (the least a launch onto a fiber can cost);
// and a burst of 200 launches of a one-block kernel followed by one
// synchronize, per launch, against the same limit.

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include "perf/engine/kernel_timing.h"
#include "perf/engine/physical_limits.h"

namespace {

using mxcts::perf::CheckMc;

__global__ void Empty() {}

// One block of 64 threads, each adding one to its own counter.
__global__ void Increment(int* counters) { ++counters[threadIdx.x]; }

void BM_EmptyLaunchAndSynchronize(benchmark::State& state) {
  const double switch_ns = mxcts::perf::ContextSwitchNanoseconds();
  Empty<<<1, 1>>>();  // loads the image and warms the stack pool
  CheckMc(mcDeviceSynchronize(), "Empty");
  mxcts::perf::KernelTimer timer;
  for (auto _ : state) {
    timer.Time([&] {
      Empty<<<1, 1>>>();
      CheckMc(mcDeviceSynchronize(), "Empty");
    });
  }
  mxcts::perf::ReportPerUnit(state, timer, 1, switch_ns, "launch",
                             "context_switch");
}
BENCHMARK(BM_EmptyLaunchAndSynchronize)->UseRealTime();

void BM_LaunchBurstPerLaunch(benchmark::State& state) {
  constexpr int kLaunches = 200;
  constexpr int kThreads = 64;
  const double switch_ns = mxcts::perf::ContextSwitchNanoseconds();
  int* counters = nullptr;
  CheckMc(mcMallocManaged(&counters, kThreads * sizeof(int)),
          "mcMallocManaged");
  for (int i = 0; i < kThreads; ++i) counters[i] = 0;
  Increment<<<1, kThreads>>>(counters);  // loads the image
  CheckMc(mcDeviceSynchronize(), "Increment");
  long iterations = 0;
  mxcts::perf::KernelTimer timer;
  for (auto _ : state) {
    timer.Time([&] {
      for (int i = 0; i < kLaunches; ++i) Increment<<<1, kThreads>>>(counters);
      CheckMc(mcDeviceSynchronize(), "Increment");
    });
    ++iterations;
  }
  if (counters[kThreads - 1] != 1 + kLaunches * iterations) {
    state.SkipWithError("a launch of the burst did not run");
  }
  mxcts::perf::ReportPerUnit(state, timer, kLaunches, switch_ns, "launch",
                             "context_switch");
  mcFree(counters);
}
BENCHMARK(BM_LaunchBurstPerLaunch)->UseRealTime();

}  // namespace
