// Copyright mxcts authors.
//
// Conformance: the occupancy model the reference documents
// (docs/spec/api-device.md, [api.device.occupancy.model]): a block counts
// as its threads rounded up to whole waves, and the resident blocks of one
// multiprocessor are the smallest of the multiprocessor's threads divided
// by those, its block limit, its shared memory divided by the block's
// (static, dynamic and reserved, when not 0), and its registers divided by
// the block's (when the kernel uses registers). The expected count is
// computed here from mcGetDeviceProperties and mcFuncGetAttributes, for
// block sizes at and around each wave boundary and amounts of dynamic
// shared memory on both sides of the point where shared memory binds; the
// control checks that the model tells the cases apart (the counts are not
// all equal), so a calculator returning a constant fails.

#include <mc_runtime.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <tuple>

#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

__global__ void Scale(float* data, float factor) {
  data[blockIdx.x * blockDim.x + threadIdx.x] *= factor;
}

const void* ScaleKernel() { return reinterpret_cast<const void*>(&Scale); }

// The documented model's count.
int64_t ModelCount(const mcDeviceProp_t& p, const mcFuncAttributes& f,
                   int block_size, size_t dynamic) {
  if (block_size <= 0 || block_size > f.maxThreadsPerBlock ||
      block_size > p.maxThreadsPerBlock) {
    return 0;
  }
  const uint64_t block_shared = f.sharedSizeBytes + dynamic;
  if (block_shared > p.sharedMemPerBlockOptin) return 0;
  const int64_t wave = p.warpSize;
  const int64_t threads = (block_size + wave - 1) / wave * wave;
  int64_t blocks = std::min<int64_t>(p.maxThreadsPerMultiProcessor / threads,
                                     p.maxBlocksPerMultiProcessor);
  const uint64_t shared = block_shared + p.reservedSharedMemPerBlock;
  if (shared > 0) {
    blocks = std::min<int64_t>(
        blocks, static_cast<int64_t>(p.sharedMemPerMultiprocessor / shared));
  }
  if (f.numRegs > 0) {
    const int64_t registers = int64_t{f.numRegs} * threads;
    if (registers > p.regsPerBlock) return 0;
    blocks = std::min<int64_t>(blocks, p.regsPerMultiprocessor / registers);
  }
  return std::max<int64_t>(blocks, 0);
}

// Block sizes relative to the wave: 1, wave - 1, wave, wave + 1, ... and
// the device's largest block.
const int kBlockSizes[] = {1, 63, 64, 65, 127, 128, 192, 256, 500, 1024};
// Dynamic shared memory as a share of the multiprocessor's, in 1/64ths:
// none, a little, where it binds for small blocks, and the most a block
// may have.
const int kSharedSixtyFourths[] = {0, 1, 4, 16, 64};

using ModelCase = std::tuple<int, int>;

class OccupancyModel : public testing::TestWithParam<ModelCase> {};

TEST_P(OccupancyModel, CountFollowsTheDocumentedModel) {
  MX_SPEC("api.device.occupancy.model");
  mcDeviceProp_t p;
  ASSERT_EQ(mcGetDeviceProperties(&p, 0), mcSuccess);
  mcFuncAttributes f;
  ASSERT_EQ(mcFuncGetAttributes(&f, ScaleKernel()), mcSuccess);
  const int block_size = std::get<0>(GetParam());
  const size_t dynamic = std::min<size_t>(
      p.sharedMemPerMultiprocessor / 64 * std::get<1>(GetParam()),
      p.sharedMemPerBlockOptin - f.sharedSizeBytes);
  int blocks = -1;
  ASSERT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, ScaleKernel(),
                                                        block_size, dynamic),
            mcSuccess);
  EXPECT_EQ(blocks, ModelCount(p, f, block_size, dynamic))
      << "block " << block_size << ", dynamic shared " << dynamic;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, OccupancyModel,
    testing::Combine(testing::ValuesIn(kBlockSizes),
                     testing::ValuesIn(kSharedSixtyFourths)),
    [](const testing::TestParamInfo<ModelCase>& info) {
      return "Block" + std::to_string(std::get<0>(info.param)) + "_Shared" +
             std::to_string(std::get<1>(info.param)) + "of64";
    });

TEST(OccupancyModelControl, CountsDifferAcrossTheCases) {
  MX_SPEC("api.device.occupancy.model");
  mcDeviceProp_t p;
  ASSERT_EQ(mcGetDeviceProperties(&p, 0), mcSuccess);
  std::set<int> seen;
  for (int block_size : kBlockSizes) {
    for (size_t dynamic :
         {size_t{0}, size_t{p.sharedMemPerMultiprocessor / 4}}) {
      int blocks = -1;
      ASSERT_EQ(mcOccupancyMaxActiveBlocksPerMultiprocessor(
                    &blocks, ScaleKernel(), block_size, dynamic),
                mcSuccess);
      seen.insert(blocks);
    }
  }
  // One wave, two waves and a quarter of the shared memory must not all
  // give one count.
  EXPECT_GE(seen.size(), 3u);
}

}  // namespace
}  // namespace mxcts::conformance
