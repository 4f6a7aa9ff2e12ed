// Copyright mxcts authors.
//
// Conformance: the built-in variables keep their values while a thread
// runs (docs/spec/lang-builtin-variables.md,
// lang.builtin.values-constant-during-thread). Each thread reads them at
// the start, then again after the points where an implementation switches
// between threads (block barriers, a wave collective, a device function
// call, an atomic), and compares. Run also in the engine's shuffled order,
// in which threads are resumed in a permuted order. The control compares
// the reading of a neighbouring thread, which must differ.

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace {

struct Snapshot {
  unsigned values[13];
};

__device__ Snapshot Take() {
  return Snapshot{{threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x,
                   blockIdx.y, blockIdx.z, blockDim.x, blockDim.y, blockDim.z,
                   gridDim.x, gridDim.y, gridDim.z,
                   static_cast<unsigned>(waveSize)}};
}

__device__ bool Same(const Snapshot& a, const Snapshot& b) {
  for (int i = 0; i < 13; ++i) {
    if (a.values[i] != b.values[i]) return false;
  }
  return true;
}

__device__ __noinline__ Snapshot TakeDeeper(int depth) {
  return depth == 0 ? Take() : TakeDeeper(depth - 1);
}

// changed[i] counts the threads whose reading changed at point i;
// neighbour_differs counts the threads whose reading differs from the
// thread before them in the block (all but thread 0 of each block).
__global__ void Reread(unsigned* changed, unsigned* neighbour_differs,
                       unsigned* counter) {
  __shared__ Snapshot all[128];
  const Snapshot first = Take();
  const unsigned me =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  all[me] = first;
  __syncthreads();
  if (!Same(first, Take())) atomicAdd(&changed[0], 1u);
  if (me > 0 && !Same(all[me - 1], first)) {
    atomicAdd(neighbour_differs, 1u);
  }
  __syncwarp(__activemask());
  if (!Same(first, Take())) atomicAdd(&changed[1], 1u);
  if (!Same(first, TakeDeeper(5))) atomicAdd(&changed[2], 1u);
  atomicAdd(counter, 1u);
  if (!Same(first, Take())) atomicAdd(&changed[3], 1u);
  for (int i = 0; i < 3; ++i) __syncthreads();
  if (!Same(first, Take())) atomicAdd(&changed[4], 1u);
}

TEST(BuiltinValues, StayTheSameWhileAThreadRuns) {
  MX_SPEC("lang.builtin.values-constant-during-thread");
  unsigned* counts = nullptr;
  ASSERT_EQ(mcMallocManaged(&counts, 8 * sizeof(unsigned)), mcSuccess);
  for (int i = 0; i < 8; ++i) counts[i] = 0;
  const dim3 grid(3, 2, 2);
  const dim3 block(16, 4, 2);
  Reread<<<grid, block>>>(counts, counts + 5, counts + 6);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int point = 0; point < 5; ++point) {
    EXPECT_EQ(counts[point], 0u)
        << "threads whose values changed at point " << point;
  }
  const unsigned blocks = 3 * 2 * 2;
  const unsigned threads = blocks * 16 * 4 * 2;
  // Control: the comparison tells threads apart.
  EXPECT_EQ(counts[5], threads - blocks);
  EXPECT_EQ(counts[6], threads);
  mcFree(counts);
}

}  // namespace
