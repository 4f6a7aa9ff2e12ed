// Copyright mxcts authors.
//
// Stream-ordered allocation: an mcMallocAsync and mcFreeAsync pair on a
// warm pool (the pool keeps its memory, so the pair is pure bookkeeping),
// against a malloc and free pair of the same size on this host and against
// an mcMalloc and mcFree pair, all measured in the same run; and the
// runtime guide's loop of 20 iterations that each allocate, launch a
// kernel on the allocation and free it, against the same loop over one
// buffer allocated beforehand, so the ratio is what stream-ordered
// allocation adds to each iteration. BM_AllocateLaunchFreeLoopAfterStreams
// runs the loop after 64 other streams each allocated, freed and were
// destroyed: a runtime that keeps destroyed streams in its device driver
// makes every later allocation pay for them.

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include <cstddef>

#include "perf/engine/physical_limits.h"
#include "perf/runtime/call_timing.h"

namespace {

using mxcts::perf::RequireMc;

__global__ void Touch(int* data) { data[threadIdx.x] = threadIdx.x; }

// A pool of device 0 that keeps freed memory, and a stream.
struct WarmPool {
  WarmPool() {
    RequireMc(mcStreamCreateWithFlags(&stream, mcStreamNonBlocking),
              "mcStreamCreateWithFlags");
    RequireMc(mcDeviceGetDefaultMemPool(&pool, 0), "mcDeviceGetDefaultMemPool");
    unsigned long long keep = ~0ull;
    RequireMc(mcMemPoolSetAttribute(pool, mcMemPoolAttrReleaseThreshold, &keep),
              "mcMemPoolSetAttribute");
  }
  ~WarmPool() {
    RequireMc(mcStreamSynchronize(stream), "mcStreamSynchronize");
    unsigned long long none = 0;
    RequireMc(mcMemPoolSetAttribute(pool, mcMemPoolAttrReleaseThreshold, &none),
              "mcMemPoolSetAttribute");
    RequireMc(mcMemPoolTrimTo(pool, 0), "mcMemPoolTrimTo");
    RequireMc(mcStreamDestroy(stream), "mcStreamDestroy");
  }
  mcStream_t stream = nullptr;
  mcMemPool_t pool = nullptr;
};

// The mean nanoseconds of an mcMalloc and mcFree pair of `bytes`.
double McMallocFreeNanoseconds(size_t bytes) {
  constexpr int kPairs = 2000;
  const double start = mxcts::perf::NowNanoseconds();
  for (int i = 0; i < kPairs; ++i) {
    void* block = nullptr;
    RequireMc(mcMalloc(&block, bytes), "mcMalloc");
    RequireMc(mcFree(block), "mcFree");
  }
  return (mxcts::perf::NowNanoseconds() - start) / kPairs;
}

void BM_MallocAsyncFreeAsyncPair(benchmark::State& state) {
  const size_t bytes = static_cast<size_t>(state.range(0));
  WarmPool warm;
  void* first = nullptr;  // reserves the block the loop then reuses
  RequireMc(mcMallocAsync(&first, bytes, warm.stream), "mcMallocAsync");
  RequireMc(mcFreeAsync(first, warm.stream), "mcFreeAsync");
  const double malloc_ns = mxcts::perf::MallocFreeNanoseconds(bytes);
  const double mc_malloc_ns = McMallocFreeNanoseconds(bytes);
  const double per_pair = mxcts::perf::MeanNanosPerIteration(
      state,
      [&] {
        void* block = nullptr;
        RequireMc(mcMallocAsync(&block, bytes, warm.stream), "mcMallocAsync");
        RequireMc(mcFreeAsync(block, warm.stream), "mcFreeAsync");
      },
      [&] { RequireMc(mcStreamSynchronize(warm.stream), "sync"); });
  mxcts::perf::ReportAgainstLimit(state, per_pair, malloc_ns, "pair",
                                  "malloc_free");
  state.counters["mcmalloc_mcfree_ns"] = mc_malloc_ns;
  state.counters["ratio_to_mcmalloc_mcfree"] = per_pair / mc_malloc_ns;
}
BENCHMARK(BM_MallocAsyncFreeAsyncPair)
    ->ArgName("bytes")
    ->Arg(4 << 10)
    ->Arg(1 << 20)
    ->UseRealTime();

constexpr int kLoopIterations = 20;

// One pass of the guide's loop; `allocate` says whether each iteration
// allocates and frees its buffer or uses `fixed`.
void GuideLoop(const WarmPool& warm, bool allocate, int* fixed) {
  for (int i = 0; i < kLoopIterations; ++i) {
    int* data = fixed;
    if (allocate) {
      RequireMc(mcMallocAsync(&data, 256 * sizeof(int), warm.stream),
                "mcMallocAsync");
    }
    Touch<<<1, 256, 0, warm.stream>>>(data);
    if (allocate) RequireMc(mcFreeAsync(data, warm.stream), "mcFreeAsync");
  }
  RequireMc(mcStreamSynchronize(warm.stream), "mcStreamSynchronize");
}

void BM_AllocateLaunchFreeLoop(benchmark::State& state) {
  WarmPool warm;
  int* fixed = nullptr;
  RequireMc(mcMalloc(&fixed, 256 * sizeof(int)), "mcMalloc");
  GuideLoop(warm, true, fixed);  // warms the pool
  // The limit: the same loop without allocation, measured now.
  constexpr int kPasses = 50;
  double start = mxcts::perf::NowNanoseconds();
  for (int pass = 0; pass < kPasses; ++pass) GuideLoop(warm, false, fixed);
  const double launch_only = (mxcts::perf::NowNanoseconds() - start) / kPasses;
  const double per_loop = mxcts::perf::MeanNanosPerIteration(
      state, [&] { GuideLoop(warm, true, fixed); });
  mxcts::perf::ReportAgainstLimit(state, per_loop, launch_only, "loop",
                                  "same_loop_without_allocation");
  state.counters["ns_per_iteration"] = per_loop / kLoopIterations;
  RequireMc(mcFree(fixed), "mcFree");
}

BENCHMARK(BM_AllocateLaunchFreeLoop)->UseRealTime();

void BM_AllocateLaunchFreeLoopAfterStreams(benchmark::State& state) {
  constexpr int kEarlierStreams = 64;
  for (int i = 0; i < kEarlierStreams; ++i) {
    mcStream_t earlier = nullptr;
    RequireMc(mcStreamCreateWithFlags(&earlier, mcStreamNonBlocking),
              "mcStreamCreateWithFlags");
    void* block = nullptr;
    RequireMc(mcMallocAsync(&block, 4096, earlier), "mcMallocAsync");
    RequireMc(mcFreeAsync(block, earlier), "mcFreeAsync");
    RequireMc(mcStreamSynchronize(earlier), "mcStreamSynchronize");
    RequireMc(mcStreamDestroy(earlier), "mcStreamDestroy");
  }
  BM_AllocateLaunchFreeLoop(state);
}
BENCHMARK(BM_AllocateLaunchFreeLoopAfterStreams)->UseRealTime();

}  // namespace
