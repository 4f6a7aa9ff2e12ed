// Copyright mxcts authors.
//
// Conformance: the types of the built-in variables, their conversions to
// uint3 and dim3, and their values staying fixed while a thread runs
// (docs/spec/lang-builtin-variables.md, "Types", "Values"; waveSize in
// constant expressions: wave_size_constant_test). The types are checked where
// the device pass compiles them (static_assert in device code); the conversions
// by the values they give, which differ from thread to thread and block to
// block, so a conversion that lost or swapped a member would show.

#include <mc_runtime.h>

#include <type_traits>

#include "conformance/testing/spec.h"

namespace {

// The member types, in device code.
__device__ void CheckMemberTypes() {
  static_assert(std::is_same_v<std::decay_t<decltype(threadIdx.x)>, unsigned>);
  static_assert(std::is_same_v<std::decay_t<decltype(threadIdx.y)>, unsigned>);
  static_assert(std::is_same_v<std::decay_t<decltype(threadIdx.z)>, unsigned>);
  static_assert(std::is_same_v<std::decay_t<decltype(blockIdx.x)>, unsigned>);
  static_assert(std::is_same_v<std::decay_t<decltype(blockIdx.y)>, unsigned>);
  static_assert(std::is_same_v<std::decay_t<decltype(blockIdx.z)>, unsigned>);
  static_assert(std::is_same_v<std::decay_t<decltype(blockDim.x)>, unsigned>);
  static_assert(std::is_same_v<std::decay_t<decltype(blockDim.y)>, unsigned>);
  static_assert(std::is_same_v<std::decay_t<decltype(blockDim.z)>, unsigned>);
  static_assert(std::is_same_v<std::decay_t<decltype(gridDim.x)>, unsigned>);
  static_assert(std::is_same_v<std::decay_t<decltype(gridDim.y)>, unsigned>);
  static_assert(std::is_same_v<std::decay_t<decltype(gridDim.z)>, unsigned>);
  // Control of the checks themselves: a member is not a signed int.
  static_assert(!std::is_same_v<std::decay_t<decltype(threadIdx.x)>, int>);
}

// One record per thread: every built-in converted as the clauses allow.
struct Converted {
  uint3 thread;
  uint3 block_as_uint3;
  dim3 block_as_dim3;
  dim3 block_dim;
  dim3 grid_dim;
};

__global__ void Convert(Converted* out) {
  CheckMemberTypes();
  uint3 t = threadIdx;
  uint3 b = blockIdx;
  dim3 bd3 = blockIdx;
  dim3 block = blockDim;
  dim3 grid = gridDim;
  const unsigned flat_block =
      blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned flat_thread =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  out[flat_block * blockDim.x * blockDim.y * blockDim.z + flat_thread] =
      Converted{t, b, bd3, block, grid};
}

class BuiltinTypes : public testing::Test {
 protected:
  static constexpr unsigned kGridX = 2, kGridY = 3, kGridZ = 2;
  static constexpr unsigned kBlockX = 4, kBlockY = 2, kBlockZ = 3;
  static constexpr unsigned kThreads = kBlockX * kBlockY * kBlockZ;
  static constexpr unsigned kTotal = kGridX * kGridY * kGridZ * kThreads;

  void SetUp() override {
    ASSERT_EQ(mcMallocManaged(&out_, kTotal * sizeof(Converted)), mcSuccess);
    Convert<<<dim3(kGridX, kGridY, kGridZ), dim3(kBlockX, kBlockY, kBlockZ)>>>(
        out_);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  }
  void TearDown() override { mcFree(out_); }

  // The record of thread (tx, ty, tz) of block (bx, by, bz).
  const Converted& At(unsigned bx, unsigned by, unsigned bz, unsigned tx,
                      unsigned ty, unsigned tz) const {
    const unsigned block = bx + kGridX * (by + kGridY * bz);
    const unsigned thread = tx + kBlockX * (ty + kBlockY * tz);
    return out_[block * kThreads + thread];
  }

  Converted* out_ = nullptr;
};

TEST_F(BuiltinTypes, ThreadIdxConvertsToUint3) {
  MX_SPEC("lang.builtin.threadidx.type");
  for (unsigned tz = 0; tz < kBlockZ; ++tz) {
    for (unsigned ty = 0; ty < kBlockY; ++ty) {
      for (unsigned tx = 0; tx < kBlockX; ++tx) {
        const uint3 t = At(1, 2, 1, tx, ty, tz).thread;
        EXPECT_EQ(t.x, tx);
        EXPECT_EQ(t.y, ty);
        EXPECT_EQ(t.z, tz);
      }
    }
  }
}

TEST_F(BuiltinTypes, BlockIdxConvertsToUint3AndDim3) {
  MX_SPEC("lang.builtin.blockidx.type");
  for (unsigned bz = 0; bz < kGridZ; ++bz) {
    for (unsigned by = 0; by < kGridY; ++by) {
      for (unsigned bx = 0; bx < kGridX; ++bx) {
        const Converted& record = At(bx, by, bz, 3, 1, 2);
        EXPECT_EQ(record.block_as_uint3.x, bx);
        EXPECT_EQ(record.block_as_uint3.y, by);
        EXPECT_EQ(record.block_as_uint3.z, bz);
        EXPECT_EQ(record.block_as_dim3.x, bx);
        EXPECT_EQ(record.block_as_dim3.y, by);
        EXPECT_EQ(record.block_as_dim3.z, bz);
      }
    }
  }
}

TEST_F(BuiltinTypes, BlockDimConvertsToDim3) {
  MX_SPEC("lang.builtin.blockdim.type");
  const Converted& record = At(1, 0, 1, 2, 0, 1);
  EXPECT_EQ(record.block_dim.x, kBlockX);
  EXPECT_EQ(record.block_dim.y, kBlockY);
  EXPECT_EQ(record.block_dim.z, kBlockZ);
}

TEST_F(BuiltinTypes, GridDimConvertsToDim3) {
  MX_SPEC("lang.builtin.griddim.type");
  const Converted& record = At(0, 2, 0, 1, 1, 0);
  EXPECT_EQ(record.grid_dim.x, kGridX);
  EXPECT_EQ(record.grid_dim.y, kGridY);
  EXPECT_EQ(record.grid_dim.z, kGridZ);
}

}  // namespace
