// Copyright mxcts authors.
//
// The round trip of an empty kernel: `Empty<<<1, 1>>>()` then
// mcDeviceSynchronize, per iteration, against one context switch on this
// host measured in the same run (the least a launch onto a fiber can cost).

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include "perf/engine/kernel_timing.h"
#include "perf/engine/physical_limits.h"

namespace {

using mxcts::perf::CheckMc;

__global__ void Empty() {}

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

}  // namespace
