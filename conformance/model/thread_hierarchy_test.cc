// Copyright mxcts authors.
//
// Conformance: the thread hierarchy of a launch (docs/spec/model.md,
// "Execution model"): a grid of Dg blocks, each of Db threads, every
// (blockIdx, threadIdx) pair taken by exactly one thread, and the linear
// thread and block ids.
//
// Every thread of a census grid computes its linear block and thread id by
// the clauses' formulas and records, in the slot those ids name, which
// indices and extents it saw. The host then checks that every slot was
// written exactly once per launch and by the thread whose indices the slot
// decodes to. The controls run the same census with a wrong formula (the
// y stride taken from the wrong extent), which the check must reject, so
// it is known to be able to fail.

#include <mc_runtime.h>

#include <ostream>
#include <string>

#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/printed_param_name.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// What one thread of a census saw.
struct Seen {
  uint3 block;
  uint3 thread;
  dim3 grid_dim;
  dim3 block_dim;
};

// [model.exec.linear-thread-id]; `wrong` strides y by blockDim.y instead.
__device__ unsigned LinearThreadId(bool wrong) {
  const unsigned y_stride = wrong ? blockDim.y : blockDim.x;
  return threadIdx.x + threadIdx.y * y_stride +
         threadIdx.z * blockDim.x * blockDim.y;
}

// [model.exec.linear-block-id]; `wrong` strides y by gridDim.y instead.
__device__ unsigned LinearBlockId(bool wrong) {
  const unsigned y_stride = wrong ? gridDim.y : gridDim.x;
  return blockIdx.x + blockIdx.y * y_stride +
         blockIdx.z * gridDim.x * gridDim.y;
}

__global__ void Census(bool wrong, unsigned slots, unsigned* hits, Seen* seen,
                       unsigned* strays) {
  const unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
  const unsigned slot =
      LinearBlockId(wrong) * per_block + LinearThreadId(wrong);
  if (slot >= slots) {
    atomicAdd(strays, 1u);
    return;
  }
  atomicAdd(&hits[slot], 1u);
  seen[slot] = {uint3{blockIdx.x, blockIdx.y, blockIdx.z},
                uint3{threadIdx.x, threadIdx.y, threadIdx.z},
                dim3(gridDim.x, gridDim.y, gridDim.z),
                dim3(blockDim.x, blockDim.y, blockDim.z)};
}

struct Launch {
  const char* name;
  dim3 grid;
  dim3 block;
  unsigned blocks() const { return grid.x * grid.y * grid.z; }
  unsigned threads_per_block() const { return block.x * block.y * block.z; }
  unsigned threads() const { return blocks() * threads_per_block(); }
};

void PrintTo(const Launch& launch, std::ostream* os) { *os << launch.name; }

bool Same(dim3 a, dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

std::string Text(dim3 v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," +
         std::to_string(v.z) + ")";
}

// Decodes `linear` into an index inside `extent` (x fastest).
uint3 Decode(unsigned linear, dim3 extent) {
  return {linear % extent.x, linear / extent.x % extent.y,
          linear / (extent.x * extent.y)};
}

// Runs `launches` census launches of `launch` and returns what is wrong
// with the result ("" if every slot was taken `expected` times, by the
// thread whose indices it decodes to, which saw the launch's extents).
std::string RunCensus(const Launch& launch, bool wrong, int launches,
                      int expected) {
  const unsigned slots = launch.threads();
  ManagedBuffer<unsigned> hits(slots, 0);
  ManagedBuffer<Seen> seen(slots, 0xff);
  ManagedBuffer<unsigned> strays(1, 0);
  if (hits.get() == nullptr || seen.get() == nullptr ||
      strays.get() == nullptr) {
    return "allocation failed";
  }
  for (int i = 0; i < launches; ++i) {
    Census<<<launch.grid, launch.block>>>(wrong, slots, hits.get(), seen.get(),
                                          strays.get());
  }
  if (mcDeviceSynchronize() != mcSuccess) return "the census failed";
  std::string problems;
  if (strays[0] != 0) {
    problems += std::to_string(strays[0]) + " ids out of range; ";
  }
  int reported = 0;
  for (unsigned slot = 0; slot < slots && reported < 5; ++slot) {
    const Seen& s = seen[slot];
    const uint3 block = Decode(slot / launch.threads_per_block(), launch.grid);
    const uint3 thread =
        Decode(slot % launch.threads_per_block(), launch.block);
    std::string wrong_here;
    if (hits[slot] != static_cast<unsigned>(expected)) {
      wrong_here += " taken " + std::to_string(hits[slot]) + " times;";
    } else if (!Same(dim3(s.block.x, s.block.y, s.block.z),
                     dim3(block.x, block.y, block.z)) ||
               !Same(dim3(s.thread.x, s.thread.y, s.thread.z),
                     dim3(thread.x, thread.y, thread.z))) {
      wrong_here += " taken by block " +
                    Text(dim3(s.block.x, s.block.y, s.block.z)) + " thread " +
                    Text(dim3(s.thread.x, s.thread.y, s.thread.z)) + ";";
    } else if (!Same(s.grid_dim, launch.grid) ||
               !Same(s.block_dim, launch.block)) {
      wrong_here += " saw gridDim " + Text(s.grid_dim) + " blockDim " +
                    Text(s.block_dim) + ";";
    }
    if (!wrong_here.empty()) {
      problems += "slot " + std::to_string(slot) + wrong_here + " ";
      ++reported;
    }
  }
  return problems;
}

class ThreadHierarchy : public testing::TestWithParam<Launch> {};

TEST_P(ThreadHierarchy, EveryBlockAndThreadIndexPairRunsOnce) {
  MX_SPEC("model.exec.grid-of-blocks", "model.exec.block-of-threads",
          "model.exec.thread-identified-by-block-and-thread-index",
          "model.exec.linear-thread-id", "model.exec.linear-block-id");
  EXPECT_EQ(RunCensus(GetParam(), /*wrong=*/false, 1, 1), "");
}

TEST_P(ThreadHierarchy, EachLaunchRunsTheBodyOncePerThread) {
  MX_SPEC("model.program.kernel-is-entry-point", "model.exec.grid-of-blocks",
          "model.exec.block-of-threads");
  EXPECT_EQ(RunCensus(GetParam(), /*wrong=*/false, 3, 3), "");
}

// Shapes where x and y extents differ in the grid and in the block, so the
// wrong strides collide.
class ThreadHierarchyControl : public testing::TestWithParam<Launch> {};

TEST_P(ThreadHierarchyControl, WrongLinearFormulaIsCaught) {
  MX_SPEC("model.exec.linear-thread-id", "model.exec.linear-block-id");
  EXPECT_NE(RunCensus(GetParam(), /*wrong=*/true, 1, 1), "");
}

TEST_P(ThreadHierarchyControl, SecondRunOfTheBodyIsCaught) {
  MX_SPEC("model.program.kernel-is-entry-point");
  EXPECT_NE(RunCensus(GetParam(), /*wrong=*/false, 2, 1).find("taken 2 times"),
            std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ThreadHierarchy,
    testing::Values(Launch{"OneThread", dim3(1), dim3(1)},
                    Launch{"OneDimensional", dim3(5), dim3(70)},
                    Launch{"TwoDimensional", dim3(3, 4), dim3(8, 5)},
                    Launch{"ThreeDimensional", dim3(2, 3, 4), dim3(4, 3, 5)},
                    Launch{"OnlyZ", dim3(1, 1, 3), dim3(1, 1, 6)},
                    Launch{"OnlyY", dim3(1, 4, 1), dim3(1, 9, 1)},
                    Launch{"FullBlock", dim3(2, 1, 1), dim3(16, 8, 8)},
                    Launch{"OddExtents", dim3(3, 5, 2), dim3(3, 7, 3)}),
    PrintedParamName());

INSTANTIATE_TEST_SUITE_P(
    Shapes, ThreadHierarchyControl,
    testing::Values(Launch{"TwoDimensional", dim3(3, 4), dim3(8, 5)},
                    Launch{"ThreeDimensional", dim3(2, 3, 4), dim3(4, 3, 5)},
                    Launch{"OddExtents", dim3(3, 5, 2), dim3(3, 7, 3)}),
    PrintedParamName());

// --- Dimensions not given are 1. ---

__global__ void RecordExtents(dim3* out) {
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0 &&
      blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0) {
    out[0] = dim3(gridDim.x, gridDim.y, gridDim.z);
    out[1] = dim3(blockDim.x, blockDim.y, blockDim.z);
  }
}

TEST(UnusedDimensions, IntegerConfigurationIsOneDimensional) {
  MX_SPEC("model.exec.unused-dimensions-are-one");
  ManagedBuffer<dim3> out(2, 0xff);
  const int blocks = 6;
  const int threads = 33;
  RecordExtents<<<blocks, threads>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_TRUE(Same(out[0], dim3(6, 1, 1))) << Text(out[0]);
  EXPECT_TRUE(Same(out[1], dim3(33, 1, 1))) << Text(out[1]);
}

TEST(UnusedDimensions, TwoDimensionalConfigurationHasZOne) {
  MX_SPEC("model.exec.unused-dimensions-are-one");
  ManagedBuffer<dim3> out(2, 0xff);
  RecordExtents<<<dim3(3, 2), dim3(4, 5)>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_TRUE(Same(out[0], dim3(3, 2, 1))) << Text(out[0]);
  EXPECT_TRUE(Same(out[1], dim3(4, 5, 1))) << Text(out[1]);
}

TEST(UnusedDimensions, ControlGivenDimensionsAreKept) {
  MX_SPEC("model.exec.unused-dimensions-are-one");
  ManagedBuffer<dim3> out(2, 0xff);
  RecordExtents<<<dim3(6, 2, 3), dim3(33, 2, 2)>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_FALSE(Same(out[0], dim3(6, 1, 1))) << Text(out[0]);
  EXPECT_TRUE(Same(out[0], dim3(6, 2, 3))) << Text(out[0]);
  EXPECT_TRUE(Same(out[1], dim3(33, 2, 2))) << Text(out[1]);
}

}  // namespace
}  // namespace mxcts::conformance
