// Copyright mxcts authors.
//
// Conformance: the block barrier __syncthreads() waits for every thread of
// the block, makes the block's global and shared writes visible to the
// whole block, orders hazards, can be used any number of times, and may sit
// in code under conditions that are uniform across the block
// (docs/spec/lang-synchronization.md, "The block barrier").
//
// Every kernel reads, after a barrier, values that threads later in the
// block's linear order wrote before it, into memory first filled with a
// sentinel: an implementation whose barrier did not wait, or did not make
// the writes visible, hands back the sentinel (on a sequential engine,
// always). Each test runs over every block shape of launch_shapes.h and a
// few grid shapes.

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/language/synchronization/device_indices.h"
#include "conformance/language/synchronization/launch_shapes.h"
#include "conformance/language/synchronization/managed_array.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::BlockShapes;
using ::mxcts::conformance::GlobalLinearThread;
using ::mxcts::conformance::GridShapes;
using ::mxcts::conformance::LinearBlock;
using ::mxcts::conformance::LinearThread;
using ::mxcts::conformance::ManagedArray;
using ::mxcts::conformance::Shape;
using ::mxcts::conformance::ThreadsPerBlock;

constexpr int kUnwritten = -1;
constexpr unsigned kMaxBlockThreads = 1024;

// The value thread `thread` of block `block` publishes: unique in the grid
// and never the sentinel.
__host__ __device__ int PublishedValue(unsigned block, unsigned thread) {
  return static_cast<int>(block * 4096 + thread + 1);
}

// What thread `thread` of an `n`-thread block reads after the barrier: its
// successor's, its mirror's and the last thread's values.
__host__ __device__ unsigned ReadSource(unsigned which, unsigned thread,
                                        unsigned n) {
  switch (which) {
    case 0:
      return (thread + 1) % n;
    case 1:
      return n - 1 - thread;
    default:
      return n - 1;
  }
}
constexpr unsigned kReadsPerThread = 3;

__global__ void ReadGlobalAfterBarrier(int* published, int* seen) {
  const unsigned n = ThreadsPerBlock();
  const unsigned t = LinearThread();
  int* block_values = published + LinearBlock() * n;
  block_values[t] = PublishedValue(LinearBlock(), t);
  __syncthreads();
  for (unsigned which = 0; which < kReadsPerThread; ++which) {
    seen[kReadsPerThread * GlobalLinearThread() + which] =
        block_values[ReadSource(which, t, n)];
  }
}

__global__ void ReadSharedAfterBarrier(int* seen) {
  __shared__ int staged[kMaxBlockThreads];
  const unsigned n = ThreadsPerBlock();
  const unsigned t = LinearThread();
  // Shared memory starts indeterminate: the first barrier makes the
  // sentinel visible, the second is the one under test.
  staged[t] = kUnwritten;
  __syncthreads();
  staged[t] = PublishedValue(LinearBlock(), t);
  __syncthreads();
  for (unsigned which = 0; which < kReadsPerThread; ++which) {
    seen[kReadsPerThread * GlobalLinearThread() + which] =
        staged[ReadSource(which, t, n)];
  }
}

// One shared cell passes through write-after-read, read-after-write and
// write-after-write hazards between the first and the last thread of the
// block, each separated by a barrier. `observed` gets, per thread, the cell
// read in phase 2 and in phase 5.
__global__ void HazardsAcrossBarriers(int* observed) {
  __shared__ int cell;
  const unsigned n = ThreadsPerBlock();
  const unsigned t = LinearThread();
  if (t == 0) cell = 10;  // phase 1: the first thread writes
  __syncthreads();
  const int read_after_write = cell;  // phase 2: everyone reads
  __syncthreads();
  if (t == n - 1) cell = 20;  // phase 3: write after the reads
  __syncthreads();
  if (t == 0) cell = 30;  // phase 4: write after write
  __syncthreads();
  observed[2 * GlobalLinearThread()] = read_after_write;
  observed[2 * GlobalLinearThread() + 1] = cell;  // phase 5
}

// Each thread publishes `value` and reads its mirror's value back; both
// barriers are reached by every thread of the block or by none.
__device__ int ExchangeWithMirror(int* staged, int value) {
  const unsigned t = LinearThread();
  staged[t] = value;
  __syncthreads();
  const int mirrored = staged[ThreadsPerBlock() - 1 - t];
  __syncthreads();
  return mirrored;
}

// The value ExchangeWithMirror hands thread `t` of an `n`-thread block in
// round `round` below.
__host__ __device__ int RoundValue(unsigned t, unsigned round) {
  return static_cast<int>(t * 3 + round + 1);
}

// Barriers under a kernel argument, a block-uniform loop trip count (block
// b runs b + 1 rounds) and a condition on the block's shape, all inside a
// called function.
__global__ void BarriersUnderUniformConditions(bool argument_flag, int* sums) {
  __shared__ int staged[kMaxBlockThreads];
  int sum = 0;
  if (argument_flag) sum += ExchangeWithMirror(staged, RoundValue(0, 100));
  for (unsigned round = 0; round <= LinearBlock(); ++round) {
    sum += ExchangeWithMirror(staged, RoundValue(LinearThread(), round));
  }
  if (blockDim.y > 1) {
    sum += ExchangeWithMirror(staged, RoundValue(LinearThread(), 200));
  }
  sums[GlobalLinearThread()] = sum;
}

// Each round passes every thread's token to its predecessor: after `rounds`
// rounds thread t holds (t + rounds) mod n. The read of a round and the
// write of the next are separated by barriers, so every phase must pair the
// n-th call of each thread.
__global__ void RotateTokens(int rounds, int* tokens) {
  __shared__ int ring[kMaxBlockThreads];
  const unsigned n = ThreadsPerBlock();
  const unsigned t = LinearThread();
  ring[t] = static_cast<int>(t);
  for (int round = 0; round < rounds; ++round) {
    __syncthreads();
    const int next = ring[(t + 1) % n];
    __syncthreads();
    ring[t] = next;
  }
  __syncthreads();
  tokens[GlobalLinearThread()] = ring[t];
}

dim3 ToDim3(const Shape& shape) { return dim3(shape.x, shape.y, shape.z); }

// Parameters: the block shape and the grid shape.
class SyncthreadsTest
    : public ::testing::TestWithParam<std::tuple<Shape, Shape>> {
 protected:
  Shape block() const { return std::get<0>(GetParam()); }
  Shape grid() const { return std::get<1>(GetParam()); }
  unsigned threads() const { return block().count(); }
  unsigned blocks() const { return grid().count(); }
};

TEST_P(SyncthreadsTest, GlobalWritesOfTheWholeBlockVisibleAfterBarrier) {
  MX_SPEC("lang.sync.syncthreads.waits-for-whole-block",
          "lang.sync.syncthreads.global-and-shared-visible");
  const unsigned n = threads();
  ManagedArray<int> published(blocks() * n, kUnwritten);
  ManagedArray<int> seen(blocks() * n * kReadsPerThread, kUnwritten);
  ASSERT_TRUE(published.ok() && seen.ok());
  ReadGlobalAfterBarrier<<<ToDim3(grid()), ToDim3(block())>>>(published.data(),
                                                              seen.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned b = 0; b < blocks(); ++b) {
    for (unsigned t = 0; t < n; ++t) {
      for (unsigned which = 0; which < kReadsPerThread; ++which) {
        ASSERT_EQ(seen[kReadsPerThread * (b * n + t) + which],
                  PublishedValue(b, ReadSource(which, t, n)))
            << "block " << b << " thread " << t << " read " << which;
      }
    }
  }
}

TEST_P(SyncthreadsTest, SharedWritesOfTheWholeBlockVisibleAfterBarrier) {
  MX_SPEC("lang.sync.syncthreads.waits-for-whole-block",
          "lang.sync.syncthreads.global-and-shared-visible");
  const unsigned n = threads();
  ManagedArray<int> seen(blocks() * n * kReadsPerThread, kUnwritten);
  ASSERT_TRUE(seen.ok());
  ReadSharedAfterBarrier<<<ToDim3(grid()), ToDim3(block())>>>(seen.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned b = 0; b < blocks(); ++b) {
    for (unsigned t = 0; t < n; ++t) {
      for (unsigned which = 0; which < kReadsPerThread; ++which) {
        ASSERT_EQ(seen[kReadsPerThread * (b * n + t) + which],
                  PublishedValue(b, ReadSource(which, t, n)))
            << "block " << b << " thread " << t << " read " << which;
      }
    }
  }
}

TEST_P(SyncthreadsTest, BarriersOrderHazardsOnOneSharedCell) {
  MX_SPEC("lang.sync.syncthreads.orders-hazards",
          "lang.sync.syncthreads.repeated-use");
  const unsigned n = threads();
  ManagedArray<int> observed(blocks() * n * 2, kUnwritten);
  ASSERT_TRUE(observed.ok());
  HazardsAcrossBarriers<<<ToDim3(grid()), ToDim3(block())>>>(observed.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned i = 0; i < blocks() * n; ++i) {
    // The read of phase 2 saw phase 1's write, not phase 3's (a one-thread
    // block writes 20 after its own read too), and phase 4's write is last.
    ASSERT_EQ(observed[2 * i], 10) << "thread " << i;
    ASSERT_EQ(observed[2 * i + 1], 30) << "thread " << i;
  }
}

TEST_P(SyncthreadsTest, BarriersUnderBlockUniformConditions) {
  MX_SPEC("lang.sync.syncthreads.uniform-condition-allowed",
          "lang.sync.syncthreads.repeated-use",
          "lang.sync.syncthreads.block-scope-only");
  const unsigned n = threads();
  const bool two_dimensional = block().y > 1;
  for (const bool flag : {false, true}) {
    ManagedArray<int> sums(blocks() * n, kUnwritten);
    ASSERT_TRUE(sums.ok());
    BarriersUnderUniformConditions<<<ToDim3(grid()), ToDim3(block())>>>(
        flag, sums.data());
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    for (unsigned b = 0; b < blocks(); ++b) {
      for (unsigned t = 0; t < n; ++t) {
        const unsigned mirror = n - 1 - t;
        int expected = flag ? RoundValue(0, 100) : 0;
        for (unsigned round = 0; round <= b; ++round) {
          expected += RoundValue(mirror, round);
        }
        if (two_dimensional) expected += RoundValue(mirror, 200);
        ASSERT_EQ(sums[b * n + t], expected)
            << "flag " << flag << " block " << b << " thread " << t;
      }
    }
  }
}

TEST_P(SyncthreadsTest, TokensRotateOncePerPhasePair) {
  MX_SPEC("lang.sync.syncthreads.repeated-use",
          "lang.sync.syncthreads.orders-hazards");
  const unsigned n = threads();
  constexpr int kRounds = 5;
  ManagedArray<int> tokens(blocks() * n, kUnwritten);
  ASSERT_TRUE(tokens.ok());
  RotateTokens<<<ToDim3(grid()), ToDim3(block())>>>(kRounds, tokens.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned b = 0; b < blocks(); ++b) {
    for (unsigned t = 0; t < n; ++t) {
      ASSERT_EQ(tokens[b * n + t], static_cast<int>((t + kRounds) % n))
          << "block " << b << " thread " << t;
    }
  }
}

std::string LaunchParamName(
    const ::testing::TestParamInfo<std::tuple<Shape, Shape>>& info) {
  return "block_" + std::get<0>(info.param).Name() + "_grid_" +
         std::get<1>(info.param).Name();
}

INSTANTIATE_TEST_SUITE_P(Shapes, SyncthreadsTest,
                         ::testing::Combine(::testing::ValuesIn(BlockShapes()),
                                            ::testing::ValuesIn(GridShapes())),
                         LaunchParamName);

// Parameters: the number of rotation rounds (2 barriers each) and the block
// size.
class SyncthreadsRoundsTest
    : public ::testing::TestWithParam<std::tuple<int, unsigned>> {};

TEST_P(SyncthreadsRoundsTest, EachCallCompletesOnePhase) {
  MX_SPEC("lang.sync.syncthreads.repeated-use");
  const int rounds = std::get<0>(GetParam());
  const unsigned n = std::get<1>(GetParam());
  ManagedArray<int> tokens(n, kUnwritten);
  ASSERT_TRUE(tokens.ok());
  RotateTokens<<<1, n>>>(rounds, tokens.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned t = 0; t < n; ++t) {
    ASSERT_EQ(tokens[t], static_cast<int>((t + rounds) % n)) << "thread " << t;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Rounds, SyncthreadsRoundsTest,
    ::testing::Combine(::testing::Values(0, 1, 2, 63, 64, 65),
                       ::testing::Values(2u, 64u, 65u, 1024u)),
    [](const ::testing::TestParamInfo<std::tuple<int, unsigned>>& info) {
      return "rounds" + std::to_string(std::get<0>(info.param)) + "_threads" +
             std::to_string(std::get<1>(info.param));
    });

}  // namespace
