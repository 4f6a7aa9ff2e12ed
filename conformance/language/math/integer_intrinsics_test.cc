// Conformance: the integer intrinsics (docs/spec/lang-math.md "Integer
// intrinsics"): __popc, __clz, __ffs, __brev, __mul24, __mulhi, __sad,
// __byte_perm, __funnelshift_*, __hadd and their variants.
//
// This source includes nothing of the runtime but mc_runtime.h (which mxcc
// also includes implicitly): the intrinsics must be there without
// maca_fp16.h or any other header. Each case runs one device thread and
// compares its result with a value worked out by hand.

#include <mc_runtime.h>

#include <climits>
#include <cstdint>
#include <ostream>
#include <string>

#include "conformance/testing/spec.h"

namespace {

enum class IntOp {
  kPopc,
  kPopcll,
  kClz,
  kClzll,
  kFfs,
  kFfsll,
  kBrev,
  kBrevll,
  kMul24,
  kUmul24,
  kMulhi,
  kUmulhi,
  kMul64hi,
  kUmul64hi,
  kSad,
  kUsad,
  kBytePerm,
  kFunnelshiftL,
  kFunnelshiftLc,
  kFunnelshiftR,
  kFunnelshiftRc,
  kHadd,
  kRhadd,
  kUhadd,
  kUrhadd,
};

// One call: the intrinsic, up to three operands (converted to its parameter
// types) and the expected result (its bits, zero-extended).
struct IntCase {
  const char* label;
  IntOp op;
  std::uint64_t a, b, c;
  std::uint64_t expected;
};

std::ostream& operator<<(std::ostream& os, const IntCase& c) {
  return os << c.label;
}

std::string CaseName(const ::testing::TestParamInfo<IntCase>& info) {
  return info.param.label;
}

// The result of `op` on the operands, as 64 bits (signed results are
// sign-extended, then reinterpreted).
__device__ std::uint64_t Evaluate(IntOp op, std::uint64_t a, std::uint64_t b,
                                  std::uint64_t c) {
  const auto i32 = [](std::uint64_t v) { return static_cast<int>(v); };
  const auto u32 = [](std::uint64_t v) { return static_cast<unsigned>(v); };
  const auto wide = [](long long v) { return static_cast<std::uint64_t>(v); };
  switch (op) {
    case IntOp::kPopc:
      return __popc(u32(a));
    case IntOp::kPopcll:
      return __popcll(a);
    case IntOp::kClz:
      return __clz(i32(a));
    case IntOp::kClzll:
      return __clzll(static_cast<long long>(a));
    case IntOp::kFfs:
      return __ffs(i32(a));
    case IntOp::kFfsll:
      return __ffsll(static_cast<long long>(a));
    case IntOp::kBrev:
      return __brev(u32(a));
    case IntOp::kBrevll:
      return __brevll(a);
    case IntOp::kMul24:
      return wide(__mul24(i32(a), i32(b)));
    case IntOp::kUmul24:
      return __umul24(u32(a), u32(b));
    case IntOp::kMulhi:
      return wide(__mulhi(i32(a), i32(b)));
    case IntOp::kUmulhi:
      return __umulhi(u32(a), u32(b));
    case IntOp::kMul64hi:
      return wide(
          __mul64hi(static_cast<long long>(a), static_cast<long long>(b)));
    case IntOp::kUmul64hi:
      return __umul64hi(a, b);
    case IntOp::kSad:
      return __sad(i32(a), i32(b), u32(c));
    case IntOp::kUsad:
      return __usad(u32(a), u32(b), u32(c));
    case IntOp::kBytePerm:
      return __byte_perm(u32(a), u32(b), u32(c));
    case IntOp::kFunnelshiftL:
      return __funnelshift_l(u32(a), u32(b), u32(c));
    case IntOp::kFunnelshiftLc:
      return __funnelshift_lc(u32(a), u32(b), u32(c));
    case IntOp::kFunnelshiftR:
      return __funnelshift_r(u32(a), u32(b), u32(c));
    case IntOp::kFunnelshiftRc:
      return __funnelshift_rc(u32(a), u32(b), u32(c));
    case IntOp::kHadd:
      return wide(__hadd(i32(a), i32(b)));
    case IntOp::kRhadd:
      return wide(__rhadd(i32(a), i32(b)));
    case IntOp::kUhadd:
      return __uhadd(u32(a), u32(b));
    case IntOp::kUrhadd:
      return __urhadd(u32(a), u32(b));
  }
  return 0xDEADull;
}

__global__ void EvaluateKernel(IntOp op, std::uint64_t a, std::uint64_t b,
                               std::uint64_t c, std::uint64_t* result) {
  *result = Evaluate(op, a, b, c);
}

// Every thread of several blocks evaluates the same call.
__global__ void EvaluateEverywhere(IntOp op, std::uint64_t a, std::uint64_t b,
                                   std::uint64_t c, std::uint64_t* results) {
  results[blockIdx.x * blockDim.x + threadIdx.x] = Evaluate(op, a, b, c);
}

std::uint64_t OnDevice(IntOp op, std::uint64_t a, std::uint64_t b = 0,
                       std::uint64_t c = 0) {
  std::uint64_t* result = nullptr;
  EXPECT_EQ(mcMallocManaged(&result, sizeof(*result)), mcSuccess);
  *result = 0xBADBADull;
  EvaluateKernel<<<1, 1>>>(op, a, b, c, result);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  const std::uint64_t value = *result;
  mcFree(result);
  return value;
}

// A negative 32-bit value as the zero-extended 64 bits of its sign
// extension (how Evaluate returns int results).
constexpr std::uint64_t S(long long v) { return static_cast<std::uint64_t>(v); }
constexpr std::uint64_t kIntMin = S(INT_MIN);
constexpr std::uint64_t kAllOnes = ~0ull;

class IntegerIntrinsic : public ::testing::TestWithParam<IntCase> {
 protected:
  void Check() {
    const IntCase& c = GetParam();
    EXPECT_EQ(OnDevice(c.op, c.a, c.b, c.c), c.expected) << c.label;
  }
};

// ---------------------------------------------------------------------------

class Popc : public IntegerIntrinsic {};
TEST_P(Popc, CountsSetBits) {
  MX_SPEC("lang.math.int.popc");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    IntegerIntrinsics, Popc,
    ::testing::Values(
        IntCase{"popc_zero", IntOp::kPopc, 0, 0, 0, 0},
        IntCase{"popc_one", IntOp::kPopc, 1, 0, 0, 1},
        IntCase{"popc_all_ones", IntOp::kPopc, 0xFFFFFFFFu, 0, 0, 32},
        IntCase{"popc_int_min", IntOp::kPopc, 0x80000000u, 0, 0, 1},
        IntCase{"popc_alternating", IntOp::kPopc, 0xAAAAAAAAu, 0, 0, 16},
        IntCase{"popc_ignores_high_word", IntOp::kPopc, 0xFFFF00000000000Full,
                0, 0, 4},
        IntCase{"popcll_zero", IntOp::kPopcll, 0, 0, 0, 0},
        IntCase{"popcll_all_ones", IntOp::kPopcll, kAllOnes, 0, 0, 64},
        IntCase{"popcll_top_bit", IntOp::kPopcll, 1ull << 63, 0, 0, 1},
        IntCase{"popcll_both_words", IntOp::kPopcll, 0x0000000F0000000Full, 0,
                0, 8}),
    CaseName);

class Clz : public IntegerIntrinsic {};
TEST_P(Clz, CountsLeadingZeros) {
  MX_SPEC("lang.math.int.clz");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    IntegerIntrinsics, Clz,
    ::testing::Values(
        IntCase{"clz_zero", IntOp::kClz, 0, 0, 0, 32},
        IntCase{"clz_one", IntOp::kClz, 1, 0, 0, 31},
        IntCase{"clz_negative", IntOp::kClz, S(-1), 0, 0, 0},
        IntCase{"clz_int_max", IntOp::kClz, INT_MAX, 0, 0, 1},
        IntCase{"clz_2_pow_24", IntOp::kClz, 1u << 24, 0, 0, 7},
        IntCase{"clzll_zero", IntOp::kClzll, 0, 0, 0, 64},
        IntCase{"clzll_one", IntOp::kClzll, 1, 0, 0, 63},
        IntCase{"clzll_2_pow_32", IntOp::kClzll, 1ull << 32, 0, 0, 31},
        IntCase{"clzll_negative", IntOp::kClzll, kAllOnes, 0, 0, 0}),
    CaseName);

class Ffs : public IntegerIntrinsic {};
TEST_P(Ffs, FindsLowestSetBitOneBased) {
  MX_SPEC("lang.math.int.ffs");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    IntegerIntrinsics, Ffs,
    ::testing::Values(
        IntCase{"ffs_zero", IntOp::kFfs, 0, 0, 0, 0},
        IntCase{"ffs_one", IntOp::kFfs, 1, 0, 0, 1},
        IntCase{"ffs_0x18", IntOp::kFfs, 0x18, 0, 0, 4},
        IntCase{"ffs_int_min", IntOp::kFfs, kIntMin, 0, 0, 32},
        IntCase{"ffs_minus_one", IntOp::kFfs, S(-1), 0, 0, 1},
        IntCase{"ffsll_zero", IntOp::kFfsll, 0, 0, 0, 0},
        IntCase{"ffsll_2_pow_40", IntOp::kFfsll, 1ull << 40, 0, 0, 41},
        IntCase{"ffsll_top_bit", IntOp::kFfsll, 1ull << 63, 0, 0, 64}),
    CaseName);

class Brev : public IntegerIntrinsic {};
TEST_P(Brev, ReversesBits) {
  MX_SPEC("lang.math.int.brev");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    IntegerIntrinsics, Brev,
    ::testing::Values(
        IntCase{"brev_zero", IntOp::kBrev, 0, 0, 0, 0},
        IntCase{"brev_one", IntOp::kBrev, 1, 0, 0, 0x80000000u},
        IntCase{"brev_pattern", IntOp::kBrev, 0x12345678u, 0, 0, 0x1E6A2C48u},
        IntCase{"brev_all_ones", IntOp::kBrev, 0xFFFFFFFFu, 0, 0, 0xFFFFFFFFu},
        IntCase{"brevll_one", IntOp::kBrevll, 1, 0, 0, 1ull << 63},
        IntCase{"brevll_pattern", IntOp::kBrevll, 0x0123456789ABCDEFull, 0, 0,
                0xF7B3D591E6A2C480ull},
        IntCase{"brevll_low_word", IntOp::kBrevll, 0xFFFFFFFFull, 0, 0,
                0xFFFFFFFF00000000ull}),
    CaseName);

class Mul24 : public IntegerIntrinsic {};
TEST_P(Mul24, MultipliesLow24Bits) {
  MX_SPEC("lang.math.int.mul24");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    IntegerIntrinsics, Mul24,
    ::testing::Values(
        IntCase{"mul24_small", IntOp::kMul24, 1000, 2000, 0, 2000000},
        IntCase{"mul24_negative", IntOp::kMul24, S(-3), 7, 0, S(-21)},
        // High 8 bits ignored: 0x01000005 acts as 5.
        IntCase{"mul24_ignores_high_bits", IntOp::kMul24, 0x01000005, 3, 0, 15},
        // 0x800000 is -2^23 as a signed 24-bit value.
        IntCase{"mul24_sign_bit_23", IntOp::kMul24, 0x800000, 2, 0,
                S(-(1 << 24))},
        // (2^23 - 1)^2 keeps its low 32 bits: 0x3FFFFF000001 -> 0xFF000001.
        IntCase{"mul24_low_32_bits", IntOp::kMul24, 0x7FFFFF, 0x7FFFFF, 0,
                S(static_cast<int>(0xFF000001u))},
        IntCase{"umul24_max", IntOp::kUmul24, 0xFFFFFF, 0xFFFFFF, 0,
                0xFE000001u},
        IntCase{"umul24_ignores_high_bits", IntOp::kUmul24, 0xFF000002u,
                0xAB000003u, 0, 6}),
    CaseName);

class Mulhi : public IntegerIntrinsic {};
TEST_P(Mulhi, ReturnsHighHalfOfProduct) {
  MX_SPEC("lang.math.int.mulhi");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    IntegerIntrinsics, Mulhi,
    ::testing::Values(
        IntCase{"mulhi_small", IntOp::kMulhi, 3, 5, 0, 0},
        IntCase{"mulhi_2_pow_16_squared", IntOp::kMulhi, 1 << 16, 1 << 16, 0,
                1},
        IntCase{"mulhi_negative", IntOp::kMulhi, S(-1), 1, 0, S(-1)},
        IntCase{"mulhi_int_min_squared", IntOp::kMulhi, kIntMin, kIntMin, 0,
                1u << 30},
        IntCase{"umulhi_max", IntOp::kUmulhi, 0xFFFFFFFFu, 0xFFFFFFFFu, 0,
                0xFFFFFFFEu},
        IntCase{"mul64hi_2_pow_32_squared", IntOp::kMul64hi, 1ull << 32,
                1ull << 32, 0, 1},
        IntCase{"mul64hi_negative", IntOp::kMul64hi, S(-2), 3, 0, S(-1)},
        IntCase{"mul64hi_llong_min_squared", IntOp::kMul64hi, 1ull << 63,
                1ull << 63, 0, 1ull << 62},
        IntCase{"umul64hi_max", IntOp::kUmul64hi, kAllOnes, kAllOnes, 0,
                kAllOnes - 1}),
    CaseName);

class Sad : public IntegerIntrinsic {};
TEST_P(Sad, AddsAbsoluteDifference) {
  MX_SPEC("lang.math.int.sad");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    IntegerIntrinsics, Sad,
    ::testing::Values(
        IntCase{"sad_positive", IntOp::kSad, 10, 3, 100, 107},
        IntCase{"sad_reversed", IntOp::kSad, 3, 10, 100, 107},
        // |INT_MAX - INT_MIN| = 2^32 - 1 does not overflow the difference.
        IntCase{"sad_extremes", IntOp::kSad, INT_MAX, kIntMin, 0, 0xFFFFFFFFu},
        IntCase{"sad_negative_operands", IntOp::kSad, S(-5), S(-9), 1, 5},
        IntCase{"usad_basic", IntOp::kUsad, 3, 10, 1, 8},
        IntCase{"usad_extremes", IntOp::kUsad, 0, 0xFFFFFFFFu, 0, 0xFFFFFFFFu}),
    CaseName);

class BytePerm : public IntegerIntrinsic {};
TEST_P(BytePerm, SelectsBytes) {
  MX_SPEC("lang.math.int.byte-perm");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    IntegerIntrinsics, BytePerm,
    ::testing::Values(IntCase{"identity_x", IntOp::kBytePerm, 0x33221100u,
                              0x77665544u, 0x3210, 0x33221100u},
                      IntCase{"all_from_y", IntOp::kBytePerm, 0x33221100u,
                              0x77665544u, 0x7654, 0x77665544u},
                      IntCase{"byte_swap", IntOp::kBytePerm, 0x33221100u,
                              0x77665544u, 0x0123, 0x00112233u},
                      IntCase{"interleave", IntOp::kBytePerm, 0x33221100u,
                              0x77665544u, 0x5140, 0x55114400u},
                      // Only the low 3 bits of each selector nibble count.
                      IntCase{"fourth_selector_bit_ignored", IntOp::kBytePerm,
                              0x33221100u, 0x77665544u, 0xBA98, 0x33221100u},
                      IntCase{"broadcast", IntOp::kBytePerm, 0x33221100u,
                              0x77665544u, 0x6666, 0x66666666u}),
    CaseName);

class Funnelshift : public IntegerIntrinsic {};
TEST_P(Funnelshift, ShiftsConcatenation) {
  MX_SPEC("lang.math.int.funnelshift");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    IntegerIntrinsics, Funnelshift,
    ::testing::Values(IntCase{"l_by_8", IntOp::kFunnelshiftL, 0xAABBCCDDu,
                              0x11223344u, 8, 0x223344AAu},
                      IntCase{"l_by_0", IntOp::kFunnelshiftL, 0xAABBCCDDu,
                              0x11223344u, 0, 0x11223344u},
                      IntCase{"l_wraps_shift_40", IntOp::kFunnelshiftL,
                              0xAABBCCDDu, 0x11223344u, 40, 0x223344AAu},
                      IntCase{"lc_clamps_shift_40", IntOp::kFunnelshiftLc,
                              0xAABBCCDDu, 0x11223344u, 40, 0xAABBCCDDu},
                      IntCase{"lc_by_8", IntOp::kFunnelshiftLc, 0xAABBCCDDu,
                              0x11223344u, 8, 0x223344AAu},
                      IntCase{"r_by_8", IntOp::kFunnelshiftR, 0xAABBCCDDu,
                              0x11223344u, 8, 0x44AABBCCu},
                      IntCase{"r_wraps_shift_33", IntOp::kFunnelshiftR,
                              0xAABBCCDDu, 0x11223344u, 33, 0x555DE66Eu},
                      IntCase{"rc_clamps_shift_33", IntOp::kFunnelshiftRc,
                              0xAABBCCDDu, 0x11223344u, 33, 0x11223344u},
                      IntCase{"rc_by_32", IntOp::kFunnelshiftRc, 0xAABBCCDDu,
                              0x11223344u, 32, 0x11223344u}),
    CaseName);

class HalvingAdd : public IntegerIntrinsic {};
TEST_P(HalvingAdd, AveragesWithoutOverflow) {
  MX_SPEC("lang.math.int.hadd");
  Check();
}
INSTANTIATE_TEST_SUITE_P(
    IntegerIntrinsics, HalvingAdd,
    ::testing::Values(
        IntCase{"hadd_small", IntOp::kHadd, 3, 4, 0, 3},
        IntCase{"hadd_int_max", IntOp::kHadd, INT_MAX, INT_MAX, 0, INT_MAX},
        IntCase{"hadd_negative_floors", IntOp::kHadd, S(-3), 0, 0, S(-2)},
        IntCase{"rhadd_small", IntOp::kRhadd, 3, 4, 0, 4},
        IntCase{"rhadd_int_max", IntOp::kRhadd, INT_MAX, INT_MAX - 1, 0,
                INT_MAX},
        IntCase{"rhadd_int_min", IntOp::kRhadd, kIntMin, kIntMin, 0, kIntMin},
        IntCase{"uhadd_max", IntOp::kUhadd, 0xFFFFFFFFu, 0xFFFFFFFFu, 0,
                0xFFFFFFFFu},
        IntCase{"uhadd_odd", IntOp::kUhadd, 0xFFFFFFFFu, 0, 0, 0x7FFFFFFFu},
        IntCase{"urhadd_odd", IntOp::kUrhadd, 0xFFFFFFFFu, 0, 0, 0x80000000u},
        IntCase{"urhadd_max", IntOp::kUrhadd, 0xFFFFFFFFu, 0xFFFFFFFEu, 0,
                0xFFFFFFFFu}),
    CaseName);

// ---------------------------------------------------------------------------
// Controls and determinism.
// ---------------------------------------------------------------------------

TEST(IntegerIntrinsics, Mul24DiffersFromFullProductWhenHighBitsAreSet) {
  MX_SPEC("lang.math.int.mul24");
  // Control: operands that fit in 24 bits give the plain product...
  EXPECT_EQ(OnDevice(IntOp::kUmul24, 0x123456, 0x10), 0x1234560u);
  // ...and setting bit 24 changes the plain product but not __umul24's.
  EXPECT_EQ(OnDevice(IntOp::kUmul24, 0x1123456, 0x10), 0x1234560u);
  EXPECT_NE(0x1123456u * 0x10u, 0x1234560u);
}

TEST(IntegerIntrinsics, ClampedAndWrappedFunnelShiftsDiffer) {
  MX_SPEC("lang.math.int.funnelshift");
  // Below 32 the two forms agree; at 36 `& 31` gives 4 and min() gives 32.
  EXPECT_EQ(OnDevice(IntOp::kFunnelshiftL, 1, 2, 4),
            OnDevice(IntOp::kFunnelshiftLc, 1, 2, 4));
  EXPECT_NE(OnDevice(IntOp::kFunnelshiftL, 1, 2, 36),
            OnDevice(IntOp::kFunnelshiftLc, 1, 2, 36));
}

TEST(IntegerIntrinsics, SameArgumentsGiveSameResultInEveryThread) {
  MX_SPEC("lang.math.accuracy.deterministic");
  const int blocks = 3, threads = 128;
  std::uint64_t* results = nullptr;
  ASSERT_EQ(mcMallocManaged(&results, blocks * threads * sizeof(*results)),
            mcSuccess);
  for (IntOp op : {IntOp::kBrevll, IntOp::kUmul64hi, IntOp::kBytePerm}) {
    EvaluateEverywhere<<<blocks, threads>>>(
        op, 0x0123456789ABCDEFull, 0xFEDCBA9876543210ull, 0x4725, results);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    for (int i = 1; i < blocks * threads; ++i) {
      ASSERT_EQ(results[i], results[0]) << "thread " << i;
    }
  }
  mcFree(results);
}

}  // namespace
