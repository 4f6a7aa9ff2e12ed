// Conformance: arithmetic with an explicit rounding mode (__fadd_rz,
// __fmul_ru, __fmaf_rd, __fsqrt_rn, __dadd_*, __fma_*, ...) and its
// independence from contraction (docs/spec/lang-math.md "Explicitly rounded
// arithmetic and conversions").
//
// The expected value of each case is the host's own IEEE 754 operation
// under fesetround, on volatile operands; the device library computes it
// in integer arithmetic, so the two are independent. Cases cover ties,
// overflow to infinity or the largest finite value, subnormal results,
// exact zero sums and invalid operations.

#include <mc_runtime.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>

#include "conformance/language/math/math_testing.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::math_testing::Describe;
using ::mxcts::math_testing::Mode;
using ::mxcts::math_testing::ModeName;
using ::mxcts::math_testing::SameValue;
using ::mxcts::math_testing::UnderMode;

constexpr Mode kModes[] = {Mode::kRn, Mode::kRz, Mode::kRu, Mode::kRd};

enum class Op { kAdd, kSub, kMul, kDiv, kRcp, kSqrt, kFma };

const char* OpName(Op op) {
  static const char* const kNames[] = {"add", "sub",  "mul", "div",
                                       "rcp", "sqrt", "fma"};
  return kNames[static_cast<int>(op)];
}

template <class T>
struct Operands {
  const char* label;
  T x, y, z;
};

#define MC_PICK(prefix, mode, ...)                  \
  ((mode) == Mode::kRn   ? prefix##_rn(__VA_ARGS__) \
   : (mode) == Mode::kRz ? prefix##_rz(__VA_ARGS__) \
   : (mode) == Mode::kRu ? prefix##_ru(__VA_ARGS__) \
                         : prefix##_rd(__VA_ARGS__))

__device__ float DeviceFloat(Op op, Mode mode, float x, float y, float z) {
  switch (op) {
    case Op::kAdd:
      return MC_PICK(__fadd, mode, x, y);
    case Op::kSub:
      return MC_PICK(__fsub, mode, x, y);
    case Op::kMul:
      return MC_PICK(__fmul, mode, x, y);
    case Op::kDiv:
      return MC_PICK(__fdiv, mode, x, y);
    case Op::kRcp:
      return MC_PICK(__frcp, mode, x);
    case Op::kSqrt:
      return MC_PICK(__fsqrt, mode, x);
    case Op::kFma:
      return MC_PICK(__fmaf, mode, x, y, z);
  }
  return 0;
}

__device__ double DeviceDouble(Op op, Mode mode, double x, double y, double z) {
  switch (op) {
    case Op::kAdd:
      return MC_PICK(__dadd, mode, x, y);
    case Op::kSub:
      return MC_PICK(__dsub, mode, x, y);
    case Op::kMul:
      return MC_PICK(__dmul, mode, x, y);
    case Op::kDiv:
      return MC_PICK(__ddiv, mode, x, y);
    case Op::kRcp:
      return MC_PICK(__drcp, mode, x);
    case Op::kSqrt:
      return MC_PICK(__dsqrt, mode, x);
    case Op::kFma:
      return MC_PICK(__fma, mode, x, y, z);
  }
  return 0;
}

#undef MC_PICK

// Element i of the outputs is op(x[i], y[i], z[i]) in `mode`.
template <class T>
__global__ void EvaluateKernel(Op op, Mode mode, const T* x, const T* y,
                               const T* z, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if constexpr (sizeof(T) == sizeof(float)) {
    out[i] = DeviceFloat(op, mode, x[i], y[i], z[i]);
  } else {
    out[i] = DeviceDouble(op, mode, x[i], y[i], z[i]);
  }
}

// The host's operation under `mode`.
template <class T>
T Expected(Op op, Mode mode, T x, T y, T z) {
  volatile T vx = x, vy = y, vz = z;
  return UnderMode(mode, [&]() -> T {
    volatile T r = 0;
    switch (op) {
      case Op::kAdd:
        r = vx + vy;
        break;
      case Op::kSub:
        r = vx - vy;
        break;
      case Op::kMul:
        r = vx * vy;
        break;
      case Op::kDiv:
        r = vx / vy;
        break;
      case Op::kRcp:
        r = T(1) / vx;
        break;
      case Op::kSqrt:
        r = std::sqrt(static_cast<T>(vx));
        break;
      case Op::kFma:
        r = std::fma(static_cast<T>(vx), static_cast<T>(vy),
                     static_cast<T>(vz));
        break;
    }
    return r;
  });
}

// Runs `n` cases of `op` in `mode` on the device.
template <class T>
void OnDevice(Op op, Mode mode, const T* x, const T* y, const T* z, T* out,
              int n) {
  T *dx, *dy, *dz, *dout;
  ASSERT_EQ(mcMallocManaged(&dx, n * sizeof(T)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&dy, n * sizeof(T)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&dz, n * sizeof(T)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&dout, n * sizeof(T)), mcSuccess);
  for (int i = 0; i < n; ++i) dx[i] = x[i], dy[i] = y[i], dz[i] = z[i];
  EvaluateKernel<T><<<(n + 127) / 128, 128>>>(op, mode, dx, dy, dz, dout, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) out[i] = dout[i];
  mcFree(dx);
  mcFree(dy);
  mcFree(dz);
  mcFree(dout);
}

template <class T>
void CheckCase(Op op, Mode mode, const Operands<T>& c) {
  T got = 0;
  OnDevice(op, mode, &c.x, &c.y, &c.z, &got, 1);
  const T expected = Expected(op, mode, c.x, c.y, c.z);
  EXPECT_TRUE(SameValue(got, expected))
      << OpName(op) << "_" << ModeName(mode) << "(" << Describe(c.x) << ", "
      << Describe(c.y) << ", " << Describe(c.z) << "): got " << Describe(got)
      << ", expected " << Describe(expected);
}

constexpr float kFloatInf = std::numeric_limits<float>::infinity();
constexpr double kDoubleInf = std::numeric_limits<double>::infinity();

const Operands<float> kFloatOperands[] = {
    {"ordinary", 1.0f, 3.0f, 0.1f},
    {"tie", 1.0f, 0x1p-24f, 0x1p-24f},
    {"tie_odd", 0x1.000002p0f, 0x1p-24f, -0x1p-24f},
    {"far_apart", 1.0f, -0x1p-40f, 0x1p-70f},
    {"negative", -2.5f, 7.0f, -0x1p-30f},
    {"overflow", FLT_MAX, FLT_MAX, FLT_MAX},
    {"negative_overflow", -FLT_MAX, 3.0f, -FLT_MAX},
    {"subnormal", 0x1p-126f, 0x1.8p-1f, -0x1p-149f},
    {"cancel", 1.5f, 1.5f, -2.25f},
    {"minus_zero", -0.0f, -0.0f, 0.0f},
    {"inf", kFloatInf, 2.0f, -kFloatInf},
    {"nan", std::numeric_limits<float>::quiet_NaN(), 1.0f, 1.0f},
};

const Operands<double> kDoubleOperands[] = {
    {"ordinary", 1.0, 3.0, 0.1},
    {"tie", 1.0, 0x1p-53, 0x1p-53},
    {"far_apart", 1.0, -0x1p-80, 0x1p-200},
    {"negative", -2.5, 7.0, -0x1p-60},
    {"overflow", DBL_MAX, DBL_MAX, DBL_MAX},
    {"subnormal", 0x1p-1022, 0x1.8p-1, -0x1p-1074},
    {"cancel", 1.5, 1.5, -2.25},
    {"minus_zero", -0.0, -0.0, 0.0},
    {"inf", kDoubleInf, 2.0, -kDoubleInf},
    {"nan", std::numeric_limits<double>::quiet_NaN(), 1.0, 1.0},
};

constexpr Op kOps[] = {Op::kAdd, Op::kSub,  Op::kMul, Op::kDiv,
                       Op::kRcp, Op::kSqrt, Op::kFma};

template <class T>
using Param = std::tuple<Op, Mode, Operands<T>>;

template <class T>
std::string ParamName(const ::testing::TestParamInfo<Param<T>>& info) {
  return std::string(OpName(std::get<0>(info.param))) + "_" +
         ModeName(std::get<1>(info.param)) + "_" +
         std::get<2>(info.param).label;
}

class FloatRounded : public ::testing::TestWithParam<Param<float>> {};

TEST_P(FloatRounded, MatchesHostInSameMode) {
  MX_SPEC("lang.math.rounded.float-arithmetic");
  const auto [op, mode, operands] = GetParam();
  CheckCase(op, mode, operands);
}

INSTANTIATE_TEST_SUITE_P(
    RoundedArithmetic, FloatRounded,
    ::testing::Combine(::testing::ValuesIn(kOps), ::testing::ValuesIn(kModes),
                       ::testing::ValuesIn(kFloatOperands)),
    ParamName<float>);

class DoubleRounded : public ::testing::TestWithParam<Param<double>> {};

TEST_P(DoubleRounded, MatchesHostInSameMode) {
  MX_SPEC("lang.math.rounded.float-arithmetic");
  const auto [op, mode, operands] = GetParam();
  CheckCase(op, mode, operands);
}

INSTANTIATE_TEST_SUITE_P(
    RoundedArithmetic, DoubleRounded,
    ::testing::Combine(::testing::ValuesIn(kOps), ::testing::ValuesIn(kModes),
                       ::testing::ValuesIn(kDoubleOperands)),
    ParamName<double>);

// Random operands of every magnitude: bit patterns from a fixed linear
// congruential sequence, so every run checks the same values.
template <class T>
class RandomOperands {
 public:
  T Next() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    std::uint64_t bits = state_ >> (64 - 8 * sizeof(T));
    T value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }

 private:
  std::uint64_t state_ = 0x853c49e6748fea9bull;
};

template <class T>
void CheckRandom(Op op, Mode mode) {
  constexpr int kCount = 2000;
  static T x[kCount], y[kCount], z[kCount], got[kCount];
  RandomOperands<T> random;
  for (int i = 0; i < kCount; ++i) {
    x[i] = random.Next();
    y[i] = random.Next();
    z[i] = random.Next();
    // Every fourth case makes x * y and z comparable, so that the fused
    // multiply-add cancels.
    if (i % 4 == 0) z[i] = -x[i] * y[i];
  }
  OnDevice(op, mode, x, y, z, got, kCount);
  int failures = 0;
  for (int i = 0; i < kCount; ++i) {
    const T expected = Expected(op, mode, x[i], y[i], z[i]);
    if (!SameValue(got[i], expected) && ++failures <= 5) {
      ADD_FAILURE() << OpName(op) << "_" << ModeName(mode) << "("
                    << Describe(x[i]) << ", " << Describe(y[i]) << ", "
                    << Describe(z[i]) << "): got " << Describe(got[i])
                    << ", expected " << Describe(expected);
    }
  }
  EXPECT_EQ(failures, 0);
}

using SweepParam = std::tuple<Op, Mode>;

std::string SweepName(const ::testing::TestParamInfo<SweepParam>& info) {
  return std::string(OpName(std::get<0>(info.param))) + "_" +
         ModeName(std::get<1>(info.param));
}

class RandomSweep : public ::testing::TestWithParam<SweepParam> {};

TEST_P(RandomSweep, FloatAndDoubleMatchHost) {
  MX_SPEC("lang.math.rounded.float-arithmetic");
  const auto [op, mode] = GetParam();
  CheckRandom<float>(op, mode);
  CheckRandom<double>(op, mode);
}

INSTANTIATE_TEST_SUITE_P(RoundedArithmetic, RandomSweep,
                         ::testing::Combine(::testing::ValuesIn(kOps),
                                            ::testing::ValuesIn(kModes)),
                         SweepName);

// ---------------------------------------------------------------------------
// Controls.
// ---------------------------------------------------------------------------

__global__ void ModeControlKernel(float* out) {
  out[0] = __fadd_rz(1.0f, 0x1p-30f);
  out[1] = __fadd_ru(1.0f, 0x1p-30f);
  out[2] = __fadd_rd(-1.0f, -0x1p-30f);
  out[3] = __fadd_rn(1.0f, 0x1p-30f);
}

TEST(RoundedArithmetic, DirectedModesMoveOffTheNearestValue) {
  MX_SPEC("lang.math.rounded.float-arithmetic");
  float* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 4 * sizeof(*out)), mcSuccess);
  ModeControlKernel<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 0x1.000002p0f);
  EXPECT_EQ(out[2], -0x1.000002p0f);
  EXPECT_EQ(out[3], 1.0f);
  mcFree(out);
}

// a * b + c where the product's rounding matters: a = b = 1 + 2^-12, so
// a * b = 1 + 2^-11 + 2^-24 exactly, which rounds (ties to even) to
// 1 + 2^-11; with c = -(1 + 2^-11) the separately rounded result is 0 and
// the fused one 2^-24.
__global__ void ContractionKernel(float a, float b, float c, float* out) {
  out[0] = __fadd_rn(__fmul_rn(a, b), c);
  out[1] = fmaf(a, b, c);
  out[2] = __fmaf_rn(a, b, c);
}

TEST(RoundedArithmetic, RoundedMultiplyAndAddAreNeverFused) {
  MX_SPEC("lang.math.rounded.never-contracted",
          "lang.math.exact.fma-single-rounding");
  float* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 3 * sizeof(*out)), mcSuccess);
  const float a = 1.0f + 0x1p-12f;
  ContractionKernel<<<1, 1>>>(a, a, -(1.0f + 0x1p-11f), out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 0.0f);
  // Control: the fused forms keep the low product bit.
  EXPECT_EQ(out[1], 0x1p-24f);
  EXPECT_EQ(out[2], 0x1p-24f);
  mcFree(out);
}

__global__ void DoubleContractionKernel(double a, double c, double* out) {
  out[0] = __dadd_rn(__dmul_rn(a, a), c);
  out[1] = fma(a, a, c);
}

TEST(RoundedArithmetic, DoubleRoundedMultiplyAndAddAreNeverFused) {
  MX_SPEC("lang.math.rounded.never-contracted",
          "lang.math.exact.fma-single-rounding");
  double* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 2 * sizeof(*out)), mcSuccess);
  DoubleContractionKernel<<<1, 1>>>(1.0 + 0x1p-27, -(1.0 + 0x1p-26), out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 0.0);
  EXPECT_EQ(out[1], 0x1p-54);
  mcFree(out);
}

}  // namespace
