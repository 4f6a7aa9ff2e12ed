// Copyright mxcts authors.
//
// Dynamic parallelism: the round trip of an empty child grid,
// `Empty<<<1, 1>>>()` then mcDeviceSynchronize written in device code, per
// child, against the host's round trip of the same empty kernel measured in
// the same run. A parent of one thread launches and synchronizes
// kChildren children per iteration; its own launch is spread over them.
// The ratio says what a device-side launch costs beyond a host launch (the
// runtime's checks and argument copy are shared; the device side adds the
// configuration push, the kernel prologue and the nested block loop, and
// saves the host's timeline).

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include "perf/engine/kernel_timing.h"

namespace {

using mxcts::perf::CheckMc;

__global__ void Empty() {}

__global__ void LaunchAndSynchronizeChildren(int children, int* failures) {
  for (int i = 0; i < children; ++i) {
    Empty<<<1, 1>>>();
    if (mcDeviceSynchronize() != mcSuccess) ++*failures;
  }
}

// The host's round trip of Empty, in nanoseconds, measured now.
double HostRoundTripNanoseconds() {
  constexpr int kRounds = 2000;
  mxcts::perf::KernelTimer timer;
  for (int i = 0; i < kRounds; ++i) {
    timer.Time([] {
      Empty<<<1, 1>>>();
      CheckMc(mcDeviceSynchronize(), "Empty");
    });
  }
  return timer.mean_ns();
}

void BM_ChildLaunchAndSynchronize(benchmark::State& state) {
  constexpr int kChildren = 100;
  int* failures = nullptr;
  CheckMc(mcMallocManaged(&failures, sizeof(int)), "mcMallocManaged");
  *failures = 0;
  // Loads the image and warms the stack pool and the child arenas.
  LaunchAndSynchronizeChildren<<<1, 1>>>(kChildren, failures);
  CheckMc(mcDeviceSynchronize(), "LaunchAndSynchronizeChildren");
  const double host_ns = HostRoundTripNanoseconds();
  mxcts::perf::KernelTimer timer;
  for (auto _ : state) {
    timer.Time([&] {
      LaunchAndSynchronizeChildren<<<1, 1>>>(kChildren, failures);
      CheckMc(mcDeviceSynchronize(), "LaunchAndSynchronizeChildren");
    });
  }
  if (*failures != 0) state.SkipWithError("a device-side synchronize failed");
  mxcts::perf::ReportPerUnit(state, timer, kChildren, host_ns, "child",
                             "host_launch");
  mcFree(failures);
}
BENCHMARK(BM_ChildLaunchAndSynchronize)->UseRealTime();

}  // namespace
