// Copyright mxcts authors.
//
// The round trip of an empty kernel through a stream: `Empty<<<1, 1>>>()`
// on the legacy default stream, then mcStreamSynchronize of that stream,
// per iteration. The physical limit is one context switch between two
// fibers on this host, measured in the same run: the least that starting
// a device thread on a fiber and coming back can cost. (perf/engine's
// launch benchmark waits with mcDeviceSynchronize instead.)

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include "perf/engine/physical_limits.h"
#include "perf/runtime/call_timing.h"

namespace {

using mxcts::perf::RequireMc;

__global__ void Empty() {}

void BM_EmptyLaunchAndStreamSynchronize(benchmark::State& state) {
  Empty<<<1, 1>>>();  // loads the image and warms the stack pool
  RequireMc(mcStreamSynchronize(nullptr), "mcStreamSynchronize");
  const double switch_ns = mxcts::perf::ContextSwitchNanoseconds();
  const double per_launch = mxcts::perf::MeanNanosPerIteration(state, [] {
    Empty<<<1, 1>>>();
    RequireMc(mcStreamSynchronize(nullptr), "mcStreamSynchronize");
  });
  // A launch that failed leaves its error for mcGetLastError.
  RequireMc(mcGetLastError(), "Empty<<<1, 1>>>");
  mxcts::perf::ReportAgainstLimit(state, per_launch, switch_ns, "launch",
                                  "context_switch");
}
BENCHMARK(BM_EmptyLaunchAndStreamSynchronize)->UseRealTime();

}  // namespace
