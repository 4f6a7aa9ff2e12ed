// Copyright mxcts authors.
//
// The per-thread cost of a kernel without collectives: vectorAdd over 2^24
// floats, one element per device thread, against a plain host loop doing
// the same additions over the same arrays, measured in the same run; and
// the same additions over 2^20 floats by a grid-stride kernel of 20 blocks
// of 1024 threads (each thread loops over about 51 elements), per element,
// against the same loop.

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include <string>

#include "perf/engine/kernel_timing.h"
#include "perf/engine/physical_limits.h"

namespace {

using mxcts::perf::CheckMc;

__global__ void VectorAdd(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void VectorAddGridStride(const float* a, const float* b, float* c,
                                    int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    c[i] = a[i] + b[i];
  }
}

// The managed arrays of c = a + b over n floats, a[i] = i and b[i] = 1.
struct VectorAddArrays {
  explicit VectorAddArrays(int n) {
    CheckMc(mcMallocManaged(&a, n * sizeof(float)), "mcMallocManaged");
    CheckMc(mcMallocManaged(&b, n * sizeof(float)), "mcMallocManaged");
    CheckMc(mcMallocManaged(&c, n * sizeof(float)), "mcMallocManaged");
    for (int i = 0; i < n; ++i) {
      a[i] = static_cast<float>(i);
      b[i] = 1.0f;
    }
  }
  ~VectorAddArrays() {
    mcFree(a);
    mcFree(b);
    mcFree(c);
  }
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
};

// Times `launch(a, b, c)` plus a synchronize per iteration over n-element
// arrays, checks the last element, and reports per `unit` against the
// native loop. `what` names the kernel in errors.
template <typename Launch>
void TimeVectorAdd(benchmark::State& state, int n, const char* what,
                   const char* unit, Launch launch) {
  VectorAddArrays arrays(n);
  float *a = arrays.a, *b = arrays.b, *c = arrays.c;
  const double native = mxcts::perf::NativeVectorAddNanosPerElement(a, b, c, n);
  mxcts::perf::KernelTimer timer;
  for (auto _ : state) {
    timer.Time([&] {
      launch(a, b, c);
      CheckMc(mcDeviceSynchronize(), what);
    });
  }
  if (c[n - 1] != static_cast<float>(n - 1) + 1.0f) {
    state.SkipWithError(
        (std::string(what) + " computed a wrong result").c_str());
  }
  mxcts::perf::ReportPerUnit(state, timer, n, native, unit, "native_loop");
}

void BM_VectorAddPerThread(benchmark::State& state) {
  const int n = 1 << 24;
  const int block = static_cast<int>(state.range(0));
  TimeVectorAdd(state, n, "VectorAdd", "thread",
                [&](const float* a, const float* b, float* c) {
                  VectorAdd<<<(n + block - 1) / block, block>>>(a, b, c, n);
                });
}
BENCHMARK(BM_VectorAddPerThread)
    ->Arg(256)
    ->Arg(1024)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_VectorAddGridStridePerElement(benchmark::State& state) {
  const int n = 1 << 20;
  TimeVectorAdd(state, n, "VectorAddGridStride", "element",
                [&](const float* a, const float* b, float* c) {
                  VectorAddGridStride<<<20, 1024>>>(a, b, c, n);
                });
}
BENCHMARK(BM_VectorAddGridStridePerElement)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
