// One trivial benchmark, so the link test can see Google Benchmark run.
#include <benchmark/benchmark.h>

namespace {

void BM_LinkProbe(benchmark::State& state) {
  int value = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(++value);
  }
}
BENCHMARK(BM_LinkProbe);

}  // namespace
