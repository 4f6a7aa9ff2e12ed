// Copyright mxcts authors.
//
// The cost of a device atomicAdd per thread and operation, to one address
// shared by the whole grid and to a distinct address per thread, against
// the host doing the same relaxed atomic adds, measured in the same run.
// As in collectives_benchmark.cc, the cost is the difference between
// `rounds` and zero rounds, so the launch and thread starts cancel out.

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include "perf/engine/kernel_timing.h"
#include "perf/engine/physical_limits.h"

namespace {

using mxcts::perf::CheckMc;

constexpr int kBlocks = 16;
constexpr int kBlock = 256;
constexpr int kRounds = 64;

__global__ void AtomicAdds(unsigned* counters, int distinct, int rounds) {
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned* target = counters + (distinct != 0 ? thread : 0);
  for (int r = 0; r < rounds; ++r) atomicAdd(target, 1u);
}

double MeanKernelNs(unsigned* counters, bool distinct, int rounds) {
  mxcts::perf::KernelTimer timer;
  timer.Time([&] {
    AtomicAdds<<<kBlocks, kBlock>>>(counters, distinct ? 1 : 0, rounds);
    CheckMc(mcDeviceSynchronize(), "AtomicAdds");
  });
  return timer.mean_ns();
}

void BM_AtomicAddPerThread(benchmark::State& state) {
  const bool distinct = state.range(0) != 0;
  const int threads = kBlocks * kBlock;
  unsigned* counters;
  CheckMc(mcMallocManaged(&counters, threads * sizeof(unsigned)),
          "mcMallocManaged");
  CheckMc(mcMemset(counters, 0, threads * sizeof(unsigned)), "mcMemset");
  const double native = mxcts::perf::NativeAtomicAddNanoseconds(distinct);
  double with_rounds = 0, without = 0;
  long iterations = 0;
  for (auto _ : state) {
    with_rounds += MeanKernelNs(counters, distinct, kRounds);
    without += MeanKernelNs(counters, distinct, 0);
    ++iterations;
  }
  const unsigned long long expected =
      static_cast<unsigned long long>(iterations) * kRounds *
      (distinct ? 1 : threads);
  if (counters[0] != expected) {
    state.SkipWithError("atomicAdd lost updates");
  }
  const double per_operation =
      (with_rounds - without) / iterations / (double{threads} * kRounds);
  state.counters["ns_per_thread_operation"] = per_operation;
  state.counters["native_atomic_ns"] = native;
  state.counters["ratio_to_native_atomic"] = per_operation / native;
  mcFree(counters);
}
BENCHMARK(BM_AtomicAddPerThread)
    ->ArgName("distinct")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
