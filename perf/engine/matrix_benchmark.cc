// Copyright mxcts authors.
//
// The cost of one 16 x 16 x 16 mma_sync of a wave (__half multiplicands, a
// float accumulator), against the host doing the same tile product as a
// plain triple loop, measured in the same run. The kernel runs `rounds`
// products in one wave; the cost of one is the difference between `rounds`
// and zero rounds divided by `rounds`, so the launch, the loads and the
// store cancel out. The reference spends most of it in the wave's
// rendezvous (64 lanes park and resume) and in reading and writing every
// lane's fragment elements.

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include "perf/engine/kernel_timing.h"
#include "perf/engine/physical_limits.h"
#include "perf/engine/tile_product_limit.h"

namespace {

using mxcts::perf::CheckMc;
namespace wmma = mxmaca::wmma;

constexpr int kRounds = 64;

__global__ void RepeatedProduct(const __half* a, const __half* b, float* c,
                                int rounds) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::fill_fragment(acc, 0.0f);
  for (int r = 0; r < rounds; ++r) wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

double MeanKernelNs(int rounds, const __half* a, const __half* b, float* c) {
  mxcts::perf::KernelTimer timer;
  timer.Time([&] {
    RepeatedProduct<<<1, 64>>>(a, b, c, rounds);
    CheckMc(mcDeviceSynchronize(), "RepeatedProduct");
  });
  return timer.mean_ns();
}

void BM_MmaSyncPerWave(benchmark::State& state) {
  __half* a;
  __half* b;
  float* c;
  CheckMc(mcMallocManaged(&a, 256 * sizeof(__half)), "mcMallocManaged");
  CheckMc(mcMallocManaged(&b, 256 * sizeof(__half)), "mcMallocManaged");
  CheckMc(mcMallocManaged(&c, 256 * sizeof(float)), "mcMallocManaged");
  for (int e = 0; e < 256; ++e) {
    a[e] = __half(static_cast<float>(e % 7));
    b[e] = __half(static_cast<float>(e % 5));
  }
  const double native_ns = mxcts::perf::NativeTileProductNanoseconds();
  MeanKernelNs(kRounds, a, b, c);  // warm the fiber stacks
  double with_rounds = 0, without = 0;
  long iterations = 0;
  for (auto _ : state) {
    with_rounds += MeanKernelNs(kRounds, a, b, c);
    without += MeanKernelNs(0, a, b, c);
    ++iterations;
  }
  const double per_mma = (with_rounds - without) / iterations / kRounds;
  state.counters["ns_per_mma_sync"] = per_mma;
  state.counters["native_tile_loop_ns"] = native_ns;
  state.counters["ratio_to_native_tile_loop"] = per_mma / native_ns;
  mcFree(a);
  mcFree(b);
  mcFree(c);
}
BENCHMARK(BM_MmaSyncPerWave)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
