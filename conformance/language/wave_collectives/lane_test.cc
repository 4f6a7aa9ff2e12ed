// Conformance: how waves are formed and the lane queries __lane_id() and
// __lanemask64_lt/le/eq/ge/gt() (docs/spec/lang-wave-collectives.md "Waves
// and lanes").

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/language/wave_collectives/wave_test_support.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using wave_test::Managed;
using wave_test::Shape;

enum class Query { kLaneId, kLt, kLe, kEq, kGe, kGt };

const char* QueryName(Query query) {
  switch (query) {
    case Query::kLaneId:
      return "LaneId";
    case Query::kLt:
      return "Lanemask64Lt";
    case Query::kLe:
      return "Lanemask64Le";
    case Query::kEq:
      return "Lanemask64Eq";
    case Query::kGe:
      return "Lanemask64Ge";
    case Query::kGt:
      return "Lanemask64Gt";
  }
  return "Unknown";
}

__global__ void QueryKernel(int query, unsigned long* out) {
  unsigned long value = 0;
  switch (static_cast<Query>(query)) {
    case Query::kLaneId:
      value = __lane_id();
      break;
    case Query::kLt:
      value = __lanemask64_lt();
      break;
    case Query::kLe:
      value = __lanemask64_le();
      break;
    case Query::kEq:
      value = __lanemask64_eq();
      break;
    case Query::kGe:
      value = __lanemask64_ge();
      break;
    case Query::kGt:
      value = __lanemask64_gt();
      break;
  }
  out[wave_test::LinearId()] = value;
}

// The expected answer of `query` for lane `lane`, bit by bit from the
// clauses' wording.
unsigned long Expected(Query query, unsigned lane) {
  if (query == Query::kLaneId) return lane;
  unsigned long mask = 0;
  for (unsigned i = 0; i < 64; ++i) {
    bool set = false;
    switch (query) {
      case Query::kLt:
        set = i < lane;
        break;
      case Query::kLe:
        set = i <= lane;
        break;
      case Query::kEq:
        set = i == lane;
        break;
      case Query::kGe:
        set = i >= lane;
        break;
      case Query::kGt:
        set = i > lane;
        break;
      case Query::kLaneId:
        break;
    }
    if (set) mask |= 1ul << i;
  }
  return mask;
}

using QueryParam = std::tuple<Shape, Query>;

class LaneQueries : public testing::TestWithParam<QueryParam> {};

TEST_P(LaneQueries, AnswerForTheLinearIdModulo64) {
  MX_SPEC("lang.wave.lane-id.value", "lang.wave.lanemask.lt",
          "lang.wave.lanemask.le", "lang.wave.lanemask.eq",
          "lang.wave.lanemask.ge", "lang.wave.lanemask.gt",
          "lang.wave.formation.lane-is-linear-id-mod-64",
          "lang.wave.formation.consecutive-linear-ids");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  const Shape shape = std::get<0>(GetParam());
  const Query query = std::get<1>(GetParam());
  Managed<unsigned long> out(shape.threads());
  QueryKernel<<<1, shape.dims()>>>(static_cast<int>(query), out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned id = 0; id < shape.threads(); ++id) {
    EXPECT_EQ(out[id], Expected(query, id % 64)) << "thread " << id;
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllShapes, LaneQueries,
    testing::Combine(testing::ValuesIn(wave_test::kShapes),
                     testing::Values(Query::kLaneId, Query::kLt, Query::kLe,
                                     Query::kEq, Query::kGe, Query::kGt)),
    [](const testing::TestParamInfo<QueryParam>& info) {
      return std::string(std::get<0>(info.param).name) +
             QueryName(std::get<1>(info.param));
    });

// Every thread records warpSize, waveSize and the wave and lane that
// 64-lane arithmetic on its linear id gives.
__global__ void WaveArithmetic(int* sizes, unsigned* waves, unsigned* lanes) {
  const unsigned id = wave_test::LinearId();
  sizes[2 * id] = warpSize;
  sizes[2 * id + 1] = waveSize;
  waves[id] = id / warpSize;
  lanes[id] = id % warpSize == __lane_id() ? 1 : 0;
}

TEST(WaveSize, IsSixtyFourInDeviceCode) {
  MX_SPEC("lang.wave.formation.wave-size-is-64",
          "lang.wave.legacy32.lane-arithmetic");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  const unsigned threads = 200;
  Managed<int> sizes(2 * threads);
  Managed<unsigned> waves(threads);
  Managed<unsigned> lanes(threads);
  WaveArithmetic<<<1, threads>>>(sizes.get(), waves.get(), lanes.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned id = 0; id < threads; ++id) {
    EXPECT_EQ(sizes[2 * id], 64) << id;
    EXPECT_EQ(sizes[2 * id + 1], 64) << id;
    EXPECT_EQ(waves[id], id / 64) << id;
    EXPECT_EQ(lanes[id], 1u) << "lane arithmetic, thread " << id;
  }
}

TEST(WaveSize, DevicePropertiesSaySixtyFour) {
  MX_SPEC("lang.wave.formation.wave-size-is-64");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  EXPECT_EQ(prop.warpSize, 64);
  EXPECT_EQ(prop.waveSize, 64);
}

// A ballot over a 2D block: the wave of thread (x, y) is its linear id / 64.
__global__ void BallotOfRow(unsigned long* out) {
  // Threads of row y = 1 vote yes; with blockDim.x == 48, they are linear
  // ids 48..95: lanes 48..63 of wave 0 and lanes 0..31 of wave 1.
  out[wave_test::LinearId()] = __ballot_sync(~0ul, threadIdx.y == 1);
}

TEST(WaveFormation, TwoDimensionalBlocksAreCutByLinearId) {
  MX_SPEC("lang.wave.formation.consecutive-linear-ids",
          "lang.wave.formation.partial-last-wave");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  Managed<unsigned long> out(48 * 3);
  BallotOfRow<<<1, dim3(48, 3)>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned id = 0; id < 64; ++id) {
    EXPECT_EQ(out[id], 0xffff000000000000ul) << id;
  }
  for (unsigned id = 64; id < 128; ++id) {
    EXPECT_EQ(out[id], 0x00000000fffffffful) << id;
  }
  for (unsigned id = 128; id < 144; ++id) EXPECT_EQ(out[id], 0ul) << id;
}

}  // namespace
