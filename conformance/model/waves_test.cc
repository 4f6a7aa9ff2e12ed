// Copyright mxcts authors.
//
// Conformance: how a block is cut into waves (docs/spec/model.md,
// "Execution model"): 64 threads a wave, consecutive linear thread ids, a
// partial last wave, never threads of two blocks in one wave.
//
// Every thread of a wave census asks, from converged code at the start of
// the kernel, which lanes are active with it (__activemask) and, through a
// shuffle from lane 0, which thread of which block leads its wave. The
// host derives the expected answer from the block shape and a wave width;
// the controls check the same results against a width of 32, which the
// check must reject, so it is known to be able to fail.

#include <mc_runtime.h>

#include <ostream>
#include <set>
#include <string>
#include <tuple>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/printed_param_name.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

struct WaveSeen {
  unsigned long long active;  // __activemask()
  unsigned leader;            // linear thread id of lane 0 of the wave
  unsigned leader_block;      // linear block id of lane 0 of the wave
  unsigned lane;              // __lane_id()
};

__device__ unsigned LinearThread() {
  return threadIdx.x + threadIdx.y * blockDim.x +
         threadIdx.z * blockDim.x * blockDim.y;
}

__device__ unsigned LinearBlock() {
  return blockIdx.x + blockIdx.y * gridDim.x +
         blockIdx.z * gridDim.x * gridDim.y;
}

__global__ void WaveCensus(WaveSeen* out) {
  const unsigned long long active = __activemask();
  const unsigned id = LinearThread();
  const unsigned block = LinearBlock();
  const unsigned leader = __shfl_sync(active, id, 0);
  const unsigned leader_block = __shfl_sync(active, block, 0);
  const unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
  out[block * per_block + id] = {active, leader, leader_block, __lane_id()};
}

struct Shape {
  const char* name;
  dim3 block;
  unsigned threads() const { return block.x * block.y * block.z; }
};

void PrintTo(const Shape& shape, std::ostream* os) { *os << shape.name; }

constexpr unsigned kBlocks = 3;

// What is wrong with `seen` (kBlocks blocks of `shape`) if waves are
// `width` threads wide ("" if nothing).
std::string CheckWaves(const Shape& shape, const WaveSeen* seen,
                       unsigned width) {
  const unsigned threads = shape.threads();
  std::string problems;
  int reported = 0;
  for (unsigned block = 0; block < kBlocks; ++block) {
    std::set<unsigned> leaders;
    for (unsigned id = 0; id < threads && reported < 5; ++id) {
      const WaveSeen& s = seen[block * threads + id];
      const unsigned wave = id / width;
      const unsigned members =
          threads - wave * width < width ? threads - wave * width : width;
      const unsigned long long expected_active =
          members == 64 ? ~0ull : (1ull << members) - 1;
      leaders.insert(s.leader);
      std::string wrong;
      if (s.leader != wave * width) {
        wrong += " wave led by thread " + std::to_string(s.leader) + ";";
      }
      if (s.leader_block != block) {
        wrong += " wave led from block " + std::to_string(s.leader_block) + ";";
      }
      if (s.active != expected_active) {
        wrong += " active lanes " + std::to_string(s.active) + ";";
      }
      if (s.lane != id % width) {
        wrong += " lane " + std::to_string(s.lane) + ";";
      }
      if (!wrong.empty()) {
        problems += "block " + std::to_string(block) + " thread " +
                    std::to_string(id) + ":" + wrong + " ";
        ++reported;
      }
    }
    if (leaders.size() != (threads + width - 1) / width) {
      problems += "block " + std::to_string(block) + " has " +
                  std::to_string(leaders.size()) + " waves; ";
    }
  }
  return problems;
}

class Waves : public testing::TestWithParam<Shape> {
 protected:
  // Runs the census over kBlocks blocks of the parameter's shape.
  void RunCensus() {
    WaveCensus<<<kBlocks, GetParam().block>>>(seen_.get());
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  }
  ManagedBuffer<WaveSeen> seen_{kBlocks * GetParam().threads(), 0xff};
};

TEST_P(Waves, ConsecutiveLinearIdsFormWavesOf64) {
  MX_SPEC("model.exec.waves-are-consecutive-linear-ids",
          "model.exec.wave-size-is-64", "model.exec.partial-last-wave",
          "model.exec.waves-never-span-blocks");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  RunCensus();
  EXPECT_EQ(CheckWaves(GetParam(), seen_.get(), 64), "");
}

// Shapes of more than 32 threads, where waves of 32 would differ.
class WavesControl : public Waves {};

TEST_P(WavesControl, WavesOf32AreRejected) {
  MX_SPEC("model.exec.waves-are-consecutive-linear-ids",
          "model.exec.wave-size-is-64");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  RunCensus();
  EXPECT_NE(CheckWaves(GetParam(), seen_.get(), 32), "");
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, Waves,
    testing::Values(Shape{"Block1", dim3(1)}, Shape{"Block33", dim3(33)},
                    Shape{"Block63", dim3(63)}, Shape{"Block64", dim3(64)},
                    Shape{"Block65", dim3(65)}, Shape{"Block96", dim3(96)},
                    Shape{"Block128", dim3(128)}, Shape{"Block200", dim3(200)},
                    Shape{"Block1024", dim3(1024)},
                    Shape{"Block10x10", dim3(10, 10)},
                    Shape{"Block4x4x4", dim3(4, 4, 4)},
                    Shape{"Block8x8x3", dim3(8, 8, 3)},
                    Shape{"Block33x3x2", dim3(33, 3, 2)},
                    Shape{"Block1x1x100", dim3(1, 1, 100)}),
    PrintedParamName());

INSTANTIATE_TEST_SUITE_P(Shapes, WavesControl,
                         testing::Values(Shape{"Block33", dim3(33)},
                                         Shape{"Block64", dim3(64)},
                                         Shape{"Block96", dim3(96)},
                                         Shape{"Block8x8x3", dim3(8, 8, 3)}),
                         PrintedParamName());

// --- The wave size as device code and the device properties see it. ---

__global__ void RecordWaveSize(int* out) {
  out[0] = warpSize;
  out[1] = waveSize;
}

TEST(WaveSize, DeviceCodeSeesSixtyFour) {
  MX_SPEC("model.exec.wave-size-is-64");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);
  ManagedBuffer<int> out(2, 0xff);
  RecordWaveSize<<<1, 1>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 64);
  EXPECT_EQ(out[1], 64);
}

TEST(WaveSize, EveryDeviceReportsSixtyFour) {
  MX_SPEC("model.exec.wave-size-is-64");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  ASSERT_GT(count, 0);
  for (int device = 0; device < count; ++device) {
    mcDeviceProp_t prop{};
    ASSERT_EQ(mcGetDeviceProperties(&prop, device), mcSuccess);
    EXPECT_EQ(prop.warpSize, 64) << "device " << device;
    EXPECT_EQ(prop.waveSize, 64) << "device " << device;
  }
}

}  // namespace
}  // namespace mxcts::conformance
