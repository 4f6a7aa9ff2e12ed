// Copyright mxcts authors.
//
// The cost of the collectives, per thread and operation: a block barrier
// in a 1024-thread block, a shuffle and a vote in full waves. Each kernel
// runs `rounds` operations per thread; the cost of one is the difference
// between `rounds` and zero rounds divided by threads x rounds, so the
// launch and the thread starts cancel out. The physical limit is one
// context switch between two fibers on this host, measured in the same run.

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include "perf/engine/kernel_timing.h"
#include "perf/engine/physical_limits.h"

namespace {

using mxcts::perf::CheckMc;

constexpr int kBlock = 1024;
constexpr int kRounds = 64;

enum class Operation { kSyncthreads, kShuffle, kBallot };

__global__ void Collective(int operation, int rounds, unsigned long long* out) {
  unsigned long long value = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (operation == static_cast<int>(Operation::kSyncthreads)) {
      __syncthreads();
    } else if (operation == static_cast<int>(Operation::kShuffle)) {
      value = __shfl_xor_sync(~0ull, value, 1);
    } else {
      value += __ballot_sync(~0ull, (value & 1) != 0);
    }
  }
  out[threadIdx.x] = value;
}

double MeanKernelNs(Operation operation, int rounds, unsigned long long* out,
                    int repetitions) {
  mxcts::perf::KernelTimer timer;
  for (int i = 0; i < repetitions; ++i) {
    timer.Time([&] {
      Collective<<<1, kBlock>>>(static_cast<int>(operation), rounds, out);
      CheckMc(mcDeviceSynchronize(), "Collective");
    });
  }
  return timer.mean_ns();
}

void BM_CollectivePerThread(benchmark::State& state) {
  const Operation operation = static_cast<Operation>(state.range(0));
  unsigned long long* out;
  CheckMc(mcMallocManaged(&out, kBlock * sizeof(*out)), "mcMallocManaged");
  const double switch_ns = mxcts::perf::ContextSwitchNanoseconds();
  MeanKernelNs(operation, kRounds, out, 2);  // warm the fiber stacks
  double with_rounds = 0, without = 0;
  long iterations = 0;
  for (auto _ : state) {
    with_rounds += MeanKernelNs(operation, kRounds, out, 1);
    without += MeanKernelNs(operation, 0, out, 1);
    ++iterations;
  }
  const double per_operation =
      (with_rounds - without) / iterations / (double{kBlock} * kRounds);
  state.counters["ns_per_thread_operation"] = per_operation;
  state.counters["context_switch_ns"] = switch_ns;
  state.counters["ratio_to_context_switch"] = per_operation / switch_ns;
  mcFree(out);
}
BENCHMARK(BM_CollectivePerThread)
    ->ArgName("op")
    ->Arg(static_cast<int>(Operation::kSyncthreads))
    ->Arg(static_cast<int>(Operation::kShuffle))
    ->Arg(static_cast<int>(Operation::kBallot))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
