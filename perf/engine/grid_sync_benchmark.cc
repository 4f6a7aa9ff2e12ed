// Copyright mxcts authors.
//
// The cost of a grid sync per thread, against a block barrier per thread,
// in the same cooperative grid: `blocks` blocks of 256 threads, each thread
// doing `rounds` grid_group::sync() or __syncthreads(). The cost of one is
// the difference between `rounds` and zero rounds divided by threads x
// rounds, so the launch and the thread starts cancel out. Both are measured
// in the same run, so their ratio is what the grid barrier adds over a
// block barrier (suspending and resuming whole blocks); a context switch
// between two fibers, measured in the same run, is the physical limit.

#include <benchmark/benchmark.h>
#include <maca_cooperative_groups.h>

#include "perf/engine/kernel_timing.h"
#include "perf/engine/physical_limits.h"

namespace {

namespace cg = cooperative_groups;
using mxcts::perf::CheckMc;

constexpr int kBlock = 256;
constexpr int kRounds = 32;

__global__ void Barriers(int grid_sync, int rounds, unsigned* out) {
  cg::grid_group grid = cg::this_grid();
  unsigned value = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (grid_sync) {
      grid.sync();
    } else {
      __syncthreads();
    }
    value += static_cast<unsigned>(r);
  }
  out[grid.thread_rank()] = value;
}

double MeanKernelNs(int grid_sync, int rounds, int blocks, unsigned* out,
                    int repetitions) {
  mxcts::perf::KernelTimer timer;
  void* args[] = {&grid_sync, &rounds, &out};
  for (int i = 0; i < repetitions; ++i) {
    timer.Time([&] {
      CheckMc(mcLaunchCooperativeKernel((const void*)Barriers, dim3(blocks),
                                        dim3(kBlock), args, 0, 0),
              "mcLaunchCooperativeKernel");
      CheckMc(mcDeviceSynchronize(), "Barriers");
    });
  }
  return timer.mean_ns();
}

// Per thread and operation: the grid sync's cost, the block barrier's, and
// their ratio, for grids of state.range(0) blocks.
void BM_GridSyncPerThread(benchmark::State& state) {
  const int blocks = static_cast<int>(state.range(0));
  const double threads = double{kBlock} * blocks;
  unsigned* out;
  CheckMc(mcMallocManaged(&out, threads * sizeof(*out)), "mcMallocManaged");
  const double switch_ns = mxcts::perf::ContextSwitchNanoseconds();
  MeanKernelNs(1, kRounds, blocks, out, 2);  // warm the fiber stacks
  double grid_with = 0, grid_without = 0, block_with = 0, block_without = 0;
  long iterations = 0;
  for (auto _ : state) {
    grid_with += MeanKernelNs(1, kRounds, blocks, out, 1);
    grid_without += MeanKernelNs(1, 0, blocks, out, 1);
    block_with += MeanKernelNs(0, kRounds, blocks, out, 1);
    block_without += MeanKernelNs(0, 0, blocks, out, 1);
    ++iterations;
  }
  const double per_grid_sync =
      (grid_with - grid_without) / iterations / (threads * kRounds);
  const double per_syncthreads =
      (block_with - block_without) / iterations / (threads * kRounds);
  state.counters["ns_per_thread_grid_sync"] = per_grid_sync;
  state.counters["ns_per_thread_syncthreads"] = per_syncthreads;
  state.counters["ratio_grid_sync_to_syncthreads"] =
      per_grid_sync / per_syncthreads;
  state.counters["context_switch_ns"] = switch_ns;
  state.counters["grid_sync_ratio_to_context_switch"] =
      per_grid_sync / switch_ns;
  mcFree(out);
}
BENCHMARK(BM_GridSyncPerThread)
    ->ArgName("blocks")
    ->Arg(1)
    ->Arg(4)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
