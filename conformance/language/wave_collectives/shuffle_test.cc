// Conformance: __shfl_sync, __shfl_up_sync, __shfl_down_sync,
// __shfl_xor_sync and the legacy mask-less forms
// (docs/spec/lang-wave-collectives.md "Shuffles").
//
// Every thread offers a value with its own bit pattern; the host computes,
// by the spec's rules, which lane each participating thread must receive
// from (or that it keeps its own value) and compares the bits. A result
// whose source lane does not take part is undefined and is not checked
// [lang.wave.shfl.inactive-source-undefined].

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/language/wave_collectives/wave_test_support.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using wave_test::FromBits;
using wave_test::kFullMask;
using wave_test::Managed;
using wave_test::Pattern;
using wave_test::Shape;
using wave_test::ToBits;
using wave_test::ValueType;

enum class Op { kIdx, kUp, kDown, kXor };

const char* OpName(Op op) {
  switch (op) {
    case Op::kIdx:
      return "Idx";
    case Op::kUp:
      return "Up";
    case Op::kDown:
      return "Down";
    case Op::kXor:
      return "Xor";
  }
  return "Unknown";
}

// The operand of `lane`: operand + step * lane, kept within 0..63 for XOR
// lane masks (the range in which the rule is stated).
__host__ __device__ inline int LaneOperand(int op, int operand, int step,
                                           unsigned lane) {
  const int arg = operand + step * static_cast<int>(lane);
  return op == static_cast<int>(Op::kXor) ? arg % 64 : arg;
}

// Each thread named in `mask` shuffles its value with `op` and the operand
// LaneOperand gives it. Threads outside the mask store their own value.
template <class T>
__global__ void ShuffleKernel(int op, unsigned long mask, int operand, int step,
                              int width, unsigned salt, T* out) {
  const unsigned id = wave_test::LinearId();
  const unsigned lane = wave_test::Lane();
  const T mine = FromBits<T>(Pattern(id, salt));
  if ((mask >> lane & 1ul) == 0) {
    out[id] = mine;
    return;
  }
  const int arg = LaneOperand(op, operand, step, lane);
  T result = mine;
  switch (static_cast<Op>(op)) {
    case Op::kIdx:
      result = __shfl_sync(mask, mine, arg, width);
      break;
    case Op::kUp:
      result = __shfl_up_sync(mask, mine, static_cast<unsigned>(arg), width);
      break;
    case Op::kDown:
      result = __shfl_down_sync(mask, mine, static_cast<unsigned>(arg), width);
      break;
    case Op::kXor:
      result = __shfl_xor_sync(mask, mine, arg, width);
      break;
  }
  out[id] = result;
}

// One shuffle launch and what the host expects of it.
struct ShuffleCase {
  Op op = Op::kIdx;
  Shape shape = {"Threads64", 64, 1, 1};
  unsigned long mask = kFullMask;
  int operand = 0;
  int step = 0;
  int width = 64;
  unsigned salt = 1;
};

struct Outcome {
  int checked = 0;     // results with a defined value
  int moved = 0;       // of those, values from another lane
  int mismatches = 0;  // of those, wrong
  std::string first_mismatch;
};

// The lane whose value `lane` receives by the spec's rules, or `lane` when
// it keeps its own. `operand` is non-negative.
unsigned ExpectedSource(Op op, unsigned lane, unsigned operand,
                        unsigned width) {
  const unsigned start = lane / width * width;
  const unsigned position = lane - start;
  switch (op) {
    case Op::kIdx:
      // [lang.wave.shfl.src-lane-modulo-width]
      return start + operand % width;
    case Op::kUp:
      // [lang.wave.shfl-up.out-of-range-returns-own]
      return operand > position ? lane : lane - operand;
    case Op::kDown:
      // [lang.wave.shfl-down.out-of-range-returns-own]
      return position + operand >= width ? lane : lane + operand;
    case Op::kXor: {
      // [lang.wave.shfl-xor.later-group-returns-own]
      const unsigned partner = lane ^ operand;
      return partner >= start + width ? lane : partner;
    }
  }
  return lane;
}

template <class T>
Outcome RunShuffleOf(const ShuffleCase& c) {
  Outcome outcome;
  const unsigned threads = c.shape.threads();
  Managed<T> out(threads, 0x5a);
  ShuffleKernel<T><<<1, c.shape.dims()>>>(static_cast<int>(c.op), c.mask,
                                          c.operand, c.step, c.width, c.salt,
                                          out.get());
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  const unsigned long long value_mask =
      sizeof(T) == 8 ? ~0ull : (1ull << (8 * sizeof(T))) - 1;
  for (unsigned id = 0; id < threads; ++id) {
    const unsigned lane = id % wave_test::kWaveLanes;
    const unsigned long taking_part = c.mask & c.shape.ExistingLanesOf(id);
    if ((taking_part >> lane & 1ul) == 0) continue;
    const int operand =
        LaneOperand(static_cast<int>(c.op), c.operand, c.step, lane);
    const unsigned source =
        ExpectedSource(c.op, lane, static_cast<unsigned>(operand),
                       static_cast<unsigned>(c.width));
    if (source != lane && (source >= wave_test::kWaveLanes ||
                           (taking_part >> source & 1ul) == 0)) {
      continue;  // [lang.wave.shfl.inactive-source-undefined]
    }
    ++outcome.checked;
    if (source != lane) ++outcome.moved;
    const unsigned source_id = id - lane + source;
    const unsigned long long expected = Pattern(source_id, c.salt) & value_mask;
    const unsigned long long actual = ToBits(out[id]);
    if (actual != expected) {
      if (outcome.mismatches++ == 0) {
        outcome.first_mismatch =
            "thread " + std::to_string(id) + " expected the value of thread " +
            std::to_string(source_id) + ": bits " + std::to_string(expected) +
            ", got " + std::to_string(actual);
      }
    }
  }
  return outcome;
}

Outcome RunShuffle(ValueType type, const ShuffleCase& c) {
  switch (type) {
    case ValueType::kInt:
      return RunShuffleOf<int>(c);
    case ValueType::kUnsigned:
      return RunShuffleOf<unsigned>(c);
    case ValueType::kLong:
      return RunShuffleOf<long>(c);
    case ValueType::kUnsignedLong:
      return RunShuffleOf<unsigned long>(c);
    case ValueType::kLongLong:
      return RunShuffleOf<long long>(c);
    case ValueType::kUnsignedLongLong:
      return RunShuffleOf<unsigned long long>(c);
    case ValueType::kFloat:
      return RunShuffleOf<float>(c);
    case ValueType::kDouble:
      return RunShuffleOf<double>(c);
    case ValueType::kHalf:
      return RunShuffleOf<__half>(c);
    case ValueType::kHalf2:
      return RunShuffleOf<__half2>(c);
    case ValueType::kBfloat16:
      return RunShuffleOf<__maca_bfloat16>(c);
    case ValueType::kBfloat162:
      return RunShuffleOf<__maca_bfloat162>(c);
  }
  return Outcome();
}

void ExpectCorrect(const Outcome& outcome, bool expect_moves) {
  EXPECT_EQ(outcome.mismatches, 0) << outcome.first_mismatch;
  EXPECT_GT(outcome.checked, 0) << "no result was checked";
  if (expect_moves) {
    EXPECT_GT(outcome.moved, 0) << "no value moved";
  }
}

// ---------------------------------------------------------------------------
// Every type with every shuffle, over one full wave.
// ---------------------------------------------------------------------------

class ShuffleTypes : public testing::TestWithParam<std::tuple<ValueType, Op>> {
};

TEST_P(ShuffleTypes, MovesTheSourceLanesBits) {
  MX_SPEC("lang.wave.shfl.integer-types", "lang.wave.shfl.floating-types",
          "lang.wave.shfl.half-types", "lang.wave.shfl.bfloat16-types",
          "lang.wave.shfl.returns-source-lane-value",
          "lang.wave.shfl-up.returns-lower-lane",
          "lang.wave.shfl-down.returns-higher-lane",
          "lang.wave.shfl-xor.returns-butterfly-partner");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  ShuffleCase c;
  c.op = std::get<1>(GetParam());
  switch (c.op) {
    case Op::kIdx:  // Lane i reads lane 63 - i: the wave reversed.
      c.operand = 63;
      c.step = -1;
      break;
    case Op::kUp:
      c.operand = 3;
      break;
    case Op::kDown:
      c.operand = 5;
      break;
    case Op::kXor:
      c.operand = 33;
      break;
  }
  ExpectCorrect(RunShuffle(std::get<0>(GetParam()), c), true);
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, ShuffleTypes,
    testing::Combine(testing::ValuesIn(wave_test::kShuffleTypes),
                     testing::Values(Op::kIdx, Op::kUp, Op::kDown, Op::kXor)),
    [](const testing::TestParamInfo<std::tuple<ValueType, Op>>& info) {
      return std::string(wave_test::TypeName(std::get<0>(info.param))) +
             OpName(std::get<1>(info.param));
    });

// ---------------------------------------------------------------------------
// Every width, with operands at the edges of the width group (0, 1, N-1, N)
// and lane-dependent source lanes, over two waves.
// ---------------------------------------------------------------------------

enum class OperandKind { kZero, kOne, kWidthMinusOne, kWidth, kLaneDependent };

const char* OperandKindName(OperandKind kind) {
  switch (kind) {
    case OperandKind::kZero:
      return "Zero";
    case OperandKind::kOne:
      return "One";
    case OperandKind::kWidthMinusOne:
      return "WidthMinusOne";
    case OperandKind::kWidth:
      return "Width";
    case OperandKind::kLaneDependent:
      return "LaneDependent";
  }
  return "Unknown";
}

using WidthParam = std::tuple<Op, int, OperandKind>;

class ShuffleWidths : public testing::TestWithParam<WidthParam> {};

TEST_P(ShuffleWidths, StaysInsideTheWidthGroup) {
  MX_SPEC("lang.wave.shfl.width-partitions-wave",
          "lang.wave.shfl.src-lane-modulo-width",
          "lang.wave.shfl-up.out-of-range-returns-own",
          "lang.wave.shfl-down.out-of-range-returns-own",
          "lang.wave.shfl-xor.later-group-returns-own");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  ShuffleCase c;
  c.op = std::get<0>(GetParam());
  c.width = std::get<1>(GetParam());
  c.shape = {"Threads128", 128, 1, 1};
  switch (std::get<2>(GetParam())) {
    case OperandKind::kZero:
      c.operand = 0;
      break;
    case OperandKind::kOne:
      c.operand = 1;
      break;
    case OperandKind::kWidthMinusOne:
      c.operand = c.width - 1;
      break;
    case OperandKind::kWidth:
      c.operand = c.width;
      break;
    case OperandKind::kLaneDependent:  // sources in and beyond the group
      c.operand = 3;
      c.step = 5;
      break;
  }
  ExpectCorrect(RunShuffle(ValueType::kInt, c), false);
}

std::string WidthParamName(const testing::TestParamInfo<WidthParam>& info) {
  return std::string(OpName(std::get<0>(info.param))) + "Width" +
         std::to_string(std::get<1>(info.param)) +
         OperandKindName(std::get<2>(info.param));
}

INSTANTIATE_TEST_SUITE_P(
    IdxAndXor, ShuffleWidths,
    testing::Combine(testing::Values(Op::kIdx, Op::kXor),
                     testing::Values(1, 2, 4, 8, 16, 32, 64),
                     testing::Values(OperandKind::kOne,
                                     OperandKind::kWidthMinusOne,
                                     OperandKind::kWidth,
                                     OperandKind::kLaneDependent)),
    WidthParamName);

INSTANTIATE_TEST_SUITE_P(
    UpAndDown, ShuffleWidths,
    testing::Combine(testing::Values(Op::kUp, Op::kDown),
                     testing::Values(1, 2, 4, 8, 16, 32, 64),
                     testing::Values(OperandKind::kZero, OperandKind::kOne,
                                     OperandKind::kWidthMinusOne,
                                     OperandKind::kWidth)),
    WidthParamName);

// ---------------------------------------------------------------------------
// Partial masks: the lanes outside the mask neither wait nor give values.
// ---------------------------------------------------------------------------

// The distance between a mask's neighbouring lanes, so that shuffles by it
// stay among named lanes: 1 for contiguous masks.
int MaskStride(unsigned long mask) {
  int first = __builtin_ctzl(mask);
  unsigned long rest = mask & (mask - 1);
  return rest == 0 ? 0 : __builtin_ctzl(rest) - first;
}

using MaskParam = std::tuple<wave_test::NamedMask, Op>;

class ShuffleMasks : public testing::TestWithParam<MaskParam> {};

TEST_P(ShuffleMasks, OnlyNamedLanesTakePart) {
  MX_SPEC("lang.wave.mask.is-64-bit", "lang.wave.mask.waits-for-named-lanes",
          "lang.wave.shfl.returns-source-lane-value",
          "lang.wave.shfl-up.returns-lower-lane",
          "lang.wave.shfl-down.returns-higher-lane",
          "lang.wave.shfl-xor.returns-butterfly-partner");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  ShuffleCase c;
  c.mask = std::get<0>(GetParam()).mask;
  c.op = std::get<1>(GetParam());
  const int stride = MaskStride(c.mask);
  const int highest = 63 - __builtin_clzl(c.mask);
  switch (c.op) {
    case Op::kIdx:  // every lane reads the highest named lane
      c.operand = highest;
      break;
    case Op::kUp:
    case Op::kDown:
    case Op::kXor:
      c.operand = stride;
      break;
  }
  // Single-lane masks move nothing; the others must.
  ExpectCorrect(RunShuffle(ValueType::kUnsignedLongLong, c),
                __builtin_popcountl(c.mask) > 1 && stride < 64);
}

INSTANTIATE_TEST_SUITE_P(AllMasks, ShuffleMasks,
                         testing::Combine(testing::ValuesIn(wave_test::kMasks),
                                          testing::Values(Op::kIdx, Op::kUp,
                                                          Op::kDown, Op::kXor)),
                         [](const testing::TestParamInfo<MaskParam>& info) {
                           return std::string(std::get<0>(info.param).name) +
                                  OpName(std::get<1>(info.param));
                         });

// ---------------------------------------------------------------------------
// Block shapes: waves are cut from linear thread ids, partial last waves
// included.
// ---------------------------------------------------------------------------

using ShapeParam = std::tuple<Shape, Op>;

class ShuffleShapes : public testing::TestWithParam<ShapeParam> {};

TEST_P(ShuffleShapes, EachWaveShufflesWithinItself) {
  MX_SPEC("lang.wave.formation.consecutive-linear-ids",
          "lang.wave.formation.lane-is-linear-id-mod-64",
          "lang.wave.formation.partial-last-wave",
          "lang.wave.mask.absent-lanes-count-as-exited",
          "lang.wave.shfl.broadcast");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  ShuffleCase c;
  c.shape = std::get<0>(GetParam());
  c.op = std::get<1>(GetParam());
  c.operand = c.op == Op::kIdx ? 0 : 1;  // broadcast lane 0; neighbours
  ExpectCorrect(RunShuffle(ValueType::kInt, c), c.shape.threads() > 1);
}

INSTANTIATE_TEST_SUITE_P(AllShapes, ShuffleShapes,
                         testing::Combine(testing::ValuesIn(wave_test::kShapes),
                                          testing::Values(Op::kIdx, Op::kDown,
                                                          Op::kXor)),
                         [](const testing::TestParamInfo<ShapeParam>& info) {
                           return std::string(std::get<0>(info.param).name) +
                                  OpName(std::get<1>(info.param));
                         });

// ---------------------------------------------------------------------------
// Butterfly reduction over 64 lanes.
// ---------------------------------------------------------------------------

template <class T>
__global__ void ButterflySum(T* out) {
  const unsigned id = wave_test::LinearId();
  T v = static_cast<T>(id % 1000 + 1);
  for (int offset = 32; offset > 0; offset >>= 1) {
    v += __shfl_xor_sync(kFullMask, v, offset);
  }
  out[id] = v;
}

template <class T>
void CheckButterfly() {
  constexpr unsigned kThreads = 192;
  Managed<T> out(kThreads);
  ButterflySum<T><<<1, kThreads>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned wave = 0; wave < kThreads / 64; ++wave) {
    T expected = 0;
    for (unsigned id = wave * 64; id < wave * 64 + 64; ++id) {
      expected += static_cast<T>(id % 1000 + 1);
    }
    for (unsigned id = wave * 64; id < wave * 64 + 64; ++id) {
      EXPECT_EQ(out[id], expected) << "thread " << id;
    }
  }
}

class Butterfly : public testing::TestWithParam<ValueType> {};

TEST_P(Butterfly, LeavesTheWaveSumInEveryLane) {
  MX_SPEC("lang.wave.shfl-xor.butterfly-reduction",
          "lang.wave.legacy32.lane-arithmetic");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  switch (GetParam()) {
    case ValueType::kInt:
      return CheckButterfly<int>();
    case ValueType::kUnsigned:
      return CheckButterfly<unsigned>();
    case ValueType::kLong:
      return CheckButterfly<long>();
    case ValueType::kUnsignedLong:
      return CheckButterfly<unsigned long>();
    case ValueType::kLongLong:
      return CheckButterfly<long long>();
    case ValueType::kUnsignedLongLong:
      return CheckButterfly<unsigned long long>();
    case ValueType::kFloat:  // small integers: every sum is exact
      return CheckButterfly<float>();
    case ValueType::kDouble:
      return CheckButterfly<double>();
    default:
      FAIL() << "no butterfly for this type";
  }
}

INSTANTIATE_TEST_SUITE_P(ArithmeticTypes, Butterfly,
                         testing::ValuesIn(wave_test::kMatchTypes),
                         wave_test::ParamName());

// A butterfly that starts at offset 16, as 32-lane code does, leaves each
// lane with the sum of its own 32-lane half only.
__global__ void ButterflyFrom16(int* out) {
  int v = static_cast<int>(wave_test::LinearId());
  for (int offset = 16; offset > 0; offset >>= 1) {
    v += __shfl_xor_sync(kFullMask, v, offset);
  }
  out[wave_test::LinearId()] = v;
}

TEST(Butterfly, StartingAtSixteenSumsOnlyHalfTheWave) {
  MX_SPEC("lang.wave.legacy32.lane-arithmetic");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  Managed<int> out(64);
  ButterflyFrom16<<<1, 64>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int id = 0; id < 64; ++id) {
    EXPECT_EQ(out[id], id < 32 ? 496 : 1520) << id;  // 0+..+31, 32+..+63
  }
}

// ---------------------------------------------------------------------------
// The legacy mask-less forms and the default width.
// ---------------------------------------------------------------------------

__global__ void LegacyShuffle(int op, int* out) {
  const int id = static_cast<int>(wave_test::LinearId());
  const int v = id * 3 + 1;
  switch (static_cast<Op>(op)) {
    case Op::kIdx:
      out[id] = __shfl(v, 7);
      break;
    case Op::kUp:
      out[id] = __shfl_up(v, 2);
      break;
    case Op::kDown:
      out[id] = __shfl_down(v, 2, 16);
      break;
    case Op::kXor:
      out[id] = __shfl_xor(v, 5);
      break;
  }
}

class LegacyShuffles : public testing::TestWithParam<Op> {};

TEST_P(LegacyShuffles, BehaveAsTheFullMaskForm) {
  MX_SPEC("lang.wave.shfl-xor.legacy-maskless-form");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  const Op op = GetParam();
  Managed<int> out(128);
  LegacyShuffle<<<1, 128>>>(static_cast<int>(op), out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned id = 0; id < 128; ++id) {
    const unsigned lane = id % 64;
    unsigned source = lane;
    switch (op) {
      case Op::kIdx:
        source = ExpectedSource(op, lane, 7, 64);
        break;
      case Op::kUp:
        source = ExpectedSource(op, lane, 2, 64);
        break;
      case Op::kDown:
        source = ExpectedSource(op, lane, 2, 16);
        break;
      case Op::kXor:
        source = ExpectedSource(op, lane, 5, 64);
        break;
    }
    EXPECT_EQ(out[id], static_cast<int>((id - lane + source) * 3 + 1)) << id;
  }
}

INSTANTIATE_TEST_SUITE_P(AllForms, LegacyShuffles,
                         testing::Values(Op::kIdx, Op::kUp, Op::kDown,
                                         Op::kXor),
                         [](const testing::TestParamInfo<Op>& info) {
                           return std::string(OpName(info.param));
                         });

__global__ void DefaultWidth(int* out) {
  const int id = static_cast<int>(wave_test::LinearId());
  out[id] = __shfl_down_sync(kFullMask, id, 40);
}

TEST(ShuffleWidth, DefaultIsTheWholeWave) {
  MX_SPEC("lang.wave.shfl.width-default-is-wave",
          "lang.wave.formation.wave-size-is-64");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  Managed<int> out(64);
  DefaultWidth<<<1, 64>>>(out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // Lanes below 24 read 40 lanes higher: only a 64-lane group has them.
  for (int id = 0; id < 64; ++id) EXPECT_EQ(out[id], id < 24 ? id + 40 : id);
}

// ---------------------------------------------------------------------------
// Floating values keep every bit; pairs move as one unit.
// ---------------------------------------------------------------------------

template <class T, class Bits>
__global__ void RotateSpecials(const Bits* in, Bits* out, int count) {
  const int lane = static_cast<int>(wave_test::Lane());
  T value;
  __builtin_memcpy(&value, &in[lane % count], sizeof(T));
  const T moved = __shfl_sync(kFullMask, value, (lane + 1) % 64);
  __builtin_memcpy(&out[lane], &moved, sizeof(T));
}

template <class T, class Bits>
void CheckSpecials(const Bits* specials, int count) {
  Managed<Bits> in(count);
  Managed<Bits> out(64);
  for (int i = 0; i < count; ++i) in[i] = specials[i];
  RotateSpecials<T, Bits><<<1, 64>>>(in.get(), out.get(), count);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int lane = 0; lane < 64; ++lane) {
    EXPECT_EQ(out[lane], specials[(lane + 1) % 64 % count]) << lane;
  }
}

TEST(ShuffleFloating, FloatBitsIncludingNanPayloadsSurvive) {
  MX_SPEC("lang.wave.shfl.floating-types");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  // Quiet and signalling NaNs with payloads, -0, +0, the smallest
  // subnormal, infinities, an ordinary value.
  const unsigned specials[] = {0x7fc12345u, 0x7f800001u, 0xffa0beefu,
                               0x80000000u, 0x00000000u, 0x00000001u,
                               0x7f800000u, 0xff800000u, 0x3fa00000u};
  CheckSpecials<float, unsigned>(specials, 9);
}

TEST(ShuffleFloating, DoubleBitsIncludingNanPayloadsSurvive) {
  MX_SPEC("lang.wave.shfl.floating-types");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  const unsigned long long specials[] = {
      0x7ff8000000abcdefull, 0x7ff0000000000001ull, 0xfff4000012345678ull,
      0x8000000000000000ull, 0x0000000000000000ull, 0x0000000000000001ull,
      0x7ff0000000000000ull, 0xfff0000000000000ull, 0x3ff4000000000000ull};
  CheckSpecials<double, unsigned long long>(specials, 9);
}

template <class Pair>
__global__ void ShufflePairUp(const unsigned* in, unsigned* out) {
  const int lane = static_cast<int>(wave_test::Lane());
  Pair value;
  __builtin_memcpy(&value, &in[lane], sizeof(Pair));
  const Pair moved = __shfl_up_sync(kFullMask, value, 1u, 16);
  __builtin_memcpy(&out[lane], &moved, sizeof(Pair));
}

template <class Pair>
void CheckPairMovesAsUnit() {
  Managed<unsigned> in(64);
  Managed<unsigned> out(64);
  // Low half: the lane; high half: 0x8000 | lane (distinct halves).
  for (unsigned lane = 0; lane < 64; ++lane) {
    in[lane] = lane | (0x8000u | lane) << 16;
  }
  ShufflePairUp<Pair><<<1, 64>>>(in.get(), out.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned lane = 0; lane < 64; ++lane) {
    const unsigned source = lane % 16 == 0 ? lane : lane - 1;
    EXPECT_EQ(out[lane], in[source]) << lane;
  }
}

TEST(ShufflePairs, Half2MovesBothHalvesFromOneLane) {
  MX_SPEC("lang.wave.shfl.half-types");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  CheckPairMovesAsUnit<__half2>();
}

TEST(ShufflePairs, Bfloat162MovesBothHalvesFromOneLane) {
  MX_SPEC("lang.wave.shfl.bfloat16-types");
  MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", 64);  // 64-lane waves
  CheckPairMovesAsUnit<__maca_bfloat162>();
}

}  // namespace
