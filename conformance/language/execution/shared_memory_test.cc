// Conformance: __shared__ variables, static and dynamic, and __syncthreads
// as the barrier that makes their writes visible to the block
// (docs/spec/lang-variable-spaces.md "__shared__",
// docs/spec/lang-synchronization.md).

#include <mc_runtime.h>

#include <cstdint>

#include "conformance/testing/spec.h"

namespace {

constexpr int kBlock = 256;

// Each block reverses its slice of `data` through a shared array.
__global__ void ReverseInBlock(int* data) {
  __shared__ int staged[kBlock];
  const int base = blockIdx.x * kBlock;
  staged[threadIdx.x] = data[base + threadIdx.x];
  __syncthreads();
  data[base + threadIdx.x] = staged[kBlock - 1 - threadIdx.x];
}

// Tree reduction of each block's slice into sums[blockIdx.x].
__global__ void SumPerBlock(const int* data, int* sums) {
  __shared__ int partial[kBlock];
  partial[threadIdx.x] = data[blockIdx.x * kBlock + threadIdx.x];
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) {
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}

// Namespace-scope shared variable, one instance per block.
__shared__ int block_counter_slot[1];

__global__ void OneInstancePerBlock(int* seen) {
  if (threadIdx.x == 0) block_counter_slot[0] = 100 + blockIdx.x;
  __syncthreads();
  seen[blockIdx.x * blockDim.x + threadIdx.x] = block_counter_slot[0];
}

__global__ void DisjointStatics(int* out) {
  __shared__ int first[4];
  __shared__ int second[4];
  if (threadIdx.x < 4) {
    first[threadIdx.x] = 1;
    second[threadIdx.x] = 2;
  }
  __syncthreads();
  if (threadIdx.x < 4)
    out[threadIdx.x] = first[threadIdx.x] * 10 + second[threadIdx.x];
}

__global__ void ExternArraysShareAddress(std::uintptr_t* addresses) {
  extern __shared__ int as_ints[];
  extern __shared__ double as_doubles[];
  __shared__ int static_word;
  if (threadIdx.x == 0) {
    static_word = 1;
    addresses[0] = reinterpret_cast<std::uintptr_t>(as_ints);
    addresses[1] = reinterpret_cast<std::uintptr_t>(as_doubles);
    addresses[2] = reinterpret_cast<std::uintptr_t>(&static_word);
  }
}

TEST(SharedMemory, StaticArrayServesTheWholeBlock) {
  MX_SPEC("lang.variable.shared.one-instance-per-block",
          "lang.sync.syncthreads.waits-for-whole-block",
          "lang.sync.syncthreads.global-and-shared-visible");
  const int blocks = 4;
  int* data = nullptr;
  ASSERT_EQ(mcMallocManaged(&data, blocks * kBlock * sizeof(int)), mcSuccess);
  for (int i = 0; i < blocks * kBlock; ++i) data[i] = i;
  ReverseInBlock<<<blocks, kBlock>>>(data);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < kBlock; ++t) {
      ASSERT_EQ(data[b * kBlock + t], b * kBlock + (kBlock - 1 - t));
    }
  }
  mcFree(data);
}

TEST(SharedMemory, ReductionWithRepeatedBarriers) {
  MX_SPEC("lang.sync.syncthreads.repeated-use",
          "lang.sync.syncthreads.uniform-condition-allowed",
          "lang.sync.syncthreads.orders-hazards");
  const int blocks = 3;
  int* data = nullptr;
  int* sums = nullptr;
  ASSERT_EQ(mcMallocManaged(&data, blocks * kBlock * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&sums, blocks * sizeof(int)), mcSuccess);
  for (int i = 0; i < blocks * kBlock; ++i) data[i] = i % 7;
  SumPerBlock<<<blocks, kBlock>>>(data, sums);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int b = 0; b < blocks; ++b) {
    int expected = 0;
    for (int t = 0; t < kBlock; ++t) expected += (b * kBlock + t) % 7;
    EXPECT_EQ(sums[b], expected) << "block " << b;
  }
  mcFree(data);
  mcFree(sums);
}

TEST(SharedMemory, NamespaceScopeVariableHasOneInstancePerBlock) {
  MX_SPEC("lang.variable.shared.function-or-namespace-scope",
          "lang.variable.shared.one-instance-per-block");
  const int blocks = 3, threads = 8;
  int* seen = nullptr;
  ASSERT_EQ(mcMallocManaged(&seen, blocks * threads * sizeof(int)), mcSuccess);
  OneInstancePerBlock<<<blocks, threads>>>(seen);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) EXPECT_EQ(seen[b * threads + t], 100 + b);
  mcFree(seen);
}

TEST(SharedMemory, DistinctStaticVariablesAreDisjoint) {
  MX_SPEC("lang.variable.shared.static-variables-disjoint");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 4 * sizeof(int)), mcSuccess);
  DisjointStatics<<<1, 4>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], 12);
  mcFree(out);
}

TEST(SharedMemory, ExternArraysStartAtOneAddressApartFromStatics) {
  MX_SPEC("lang.variable.shared.extern-arrays-same-address",
          "lang.variable.shared.extern-disjoint-from-static",
          "lang.variable.shared.extern-sized-by-ns");
  std::uintptr_t* addresses = nullptr;
  ASSERT_EQ(mcMallocManaged(&addresses, 3 * sizeof(std::uintptr_t)), mcSuccess);
  const size_t dynamic_bytes = 64;
  ExternArraysShareAddress<<<1, 1, dynamic_bytes>>>(addresses);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(addresses[0], addresses[1]);
  // The static word lies outside [dynamic, dynamic + Ns).
  EXPECT_TRUE(addresses[2] + sizeof(int) <= addresses[0] ||
              addresses[2] >= addresses[0] + dynamic_bytes);
  mcFree(addresses);
}

}  // namespace
