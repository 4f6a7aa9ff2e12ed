// Copyright mxcts authors.
//
// The cost of an mcMalloc and mcFree pair of device memory, of 4 KiB and
// of 1 MiB, against a malloc and free pair of the same size on this host,
// measured in the same run. Neither side touches the memory, so both
// measure the allocator's bookkeeping (and, for the runtime, whatever it
// does to the pages on allocation and release).

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include <cstddef>

#include "perf/engine/physical_limits.h"
#include "perf/runtime/call_timing.h"

namespace {

using mxcts::perf::RequireMc;

void BM_MallocFreePair(benchmark::State& state) {
  const size_t bytes = static_cast<size_t>(state.range(0));
  // The first allocation reserves the device's arena; keep it out of the
  // loop, as a program's first allocation is out of its steady state.
  void* warm = nullptr;
  RequireMc(mcMalloc(&warm, bytes), "mcMalloc");
  RequireMc(mcFree(warm), "mcFree");
  const double malloc_ns = mxcts::perf::MallocFreeNanoseconds(bytes);
  const double per_pair = mxcts::perf::MeanNanosPerIteration(state, [&] {
    void* block = nullptr;
    RequireMc(mcMalloc(&block, bytes), "mcMalloc");
    RequireMc(mcFree(block), "mcFree");
  });
  mxcts::perf::ReportAgainstLimit(state, per_pair, malloc_ns, "pair",
                                  "malloc_free");
}
BENCHMARK(BM_MallocFreePair)
    ->ArgName("bytes")
    ->Arg(4 << 10)
    ->Arg(1 << 20)
    ->UseRealTime();

}  // namespace
