// Conformance: the fast single-precision intrinsics (__expf, __logf,
// __sinf, __powf, __fdividef, ...) and __saturatef (docs/spec/lang-math.md
// "Fast intrinsics").
//
// Each accuracy case evaluates an intrinsic at 256 points of a range on the
// device and checks every result against the host's long double function
// with the bound the reference documents for that range
// (reference/include/mcr/detail/device_math_fast.h): in ulp, possibly
// growing with the argument, or absolute.

#include <mc_runtime.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <string>

#include "conformance/language/math/math_testing.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::math_testing::Describe;
using ::mxcts::math_testing::SameValue;
using ::mxcts::math_testing::UlpError;

enum class Fast {
  kExp,
  kExp10,
  kLog,
  kLog2,
  kLog10,
  kSin,
  kCos,
  kSincosSin,
  kSincosCos,
  kTan,
  kPow,
  kFdividef,
};

__device__ float EvaluateFast(Fast f, float x, float y) {
  float s = 0, c = 0;
  switch (f) {
    case Fast::kExp:
      return __expf(x);
    case Fast::kExp10:
      return __exp10f(x);
    case Fast::kLog:
      return __logf(x);
    case Fast::kLog2:
      return __log2f(x);
    case Fast::kLog10:
      return __log10f(x);
    case Fast::kSin:
      return __sinf(x);
    case Fast::kCos:
      return __cosf(x);
    case Fast::kSincosSin:
      __sincosf(x, &s, &c);
      return s;
    case Fast::kSincosCos:
      __sincosf(x, &s, &c);
      return c;
    case Fast::kTan:
      return __tanf(x);
    case Fast::kPow:
      return __powf(x, y);
    case Fast::kFdividef:
      return __fdividef(x, y);
  }
  return 0;
}

long double Reference(Fast f, long double x, long double y) {
  switch (f) {
    case Fast::kExp:
      return expl(x);
    case Fast::kExp10:
      return exp10l(x);
    case Fast::kLog:
      return logl(x);
    case Fast::kLog2:
      return log2l(x);
    case Fast::kLog10:
      return log10l(x);
    case Fast::kSin:
    case Fast::kSincosSin:
      return sinl(x);
    case Fast::kCos:
    case Fast::kSincosCos:
      return cosl(x);
    case Fast::kTan:
      return tanl(x);
    case Fast::kPow:
      return powl(x, y);
    case Fast::kFdividef:
      return x / y;
  }
  return 0;
}

__global__ void FastKernel(Fast f, const float* x, const float* y, float* out,
                           int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = EvaluateFast(f, x[i], y[i]);
}

void OnDevice(Fast f, const float* x, const float* y, float* out, int n) {
  float *dx, *dy, *dout;
  ASSERT_EQ(mcMallocManaged(&dx, n * sizeof(float)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&dy, n * sizeof(float)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&dout, n * sizeof(float)), mcSuccess);
  for (int i = 0; i < n; ++i) dx[i] = x[i], dy[i] = y[i];
  FastKernel<<<(n + 63) / 64, 64>>>(f, dx, dy, dout, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) out[i] = dout[i];
  mcFree(dx);
  mcFree(dy);
  mcFree(dout);
}

// How a bound is stated: a fixed number of ulp plus a multiple of |x| (or
// of |y log2 x| for __powf), or an absolute error.
enum class BoundKind { kUlp, kUlpGrowingWithX, kUlpGrowingWithPow, kAbsolute };

struct FastAccuracy {
  const char* label;
  Fast f;
  float low, high;    // x in [low, high]
  float low2, high2;  // y in [low2, high2]
  BoundKind kind;
  double base;    // ulp, or the absolute error
  double growth;  // ulp per unit of |x| (or |y log2 x|)
};

std::ostream& operator<<(std::ostream& os, const FastAccuracy& a) {
  return os << a.label;
}

class FastIntrinsicBound : public ::testing::TestWithParam<FastAccuracy> {};

TEST_P(FastIntrinsicBound, EverySampledResultIsWithinDocumentedBound) {
  MX_SPEC("lang.math.fast.intrinsics-available",
          "lang.math.fast.fdividef-large-divisor");
  const FastAccuracy& a = GetParam();
  constexpr int kSamples = 256;
  float x[kSamples], y[kSamples], got[kSamples];
  for (int i = 0; i < kSamples; ++i) {
    const double t = (i + std::fmod(i * 0.6180339887498949, 1.0)) / kSamples;
    x[i] = static_cast<float>(a.low + (a.high - a.low) * t);
    y[i] = static_cast<float>(a.high2 - (a.high2 - a.low2) * t * t);
  }
  OnDevice(a.f, x, y, got, kSamples);
  for (int i = 0; i < kSamples; ++i) {
    const long double exact = Reference(a.f, x[i], y[i]);
    bool within = false;
    double error = 0, allowed = 0;
    switch (a.kind) {
      case BoundKind::kAbsolute:
        error = static_cast<double>(std::fabs(got[i] - exact));
        allowed = a.base;
        break;
      case BoundKind::kUlp:
        error = static_cast<double>(UlpError(got[i], exact));
        allowed = a.base;
        break;
      case BoundKind::kUlpGrowingWithX:
        error = static_cast<double>(UlpError(got[i], exact));
        allowed = a.base + std::floor(std::fabs(a.growth * x[i]));
        break;
      case BoundKind::kUlpGrowingWithPow:
        error = static_cast<double>(UlpError(got[i], exact));
        allowed =
            a.base + std::floor(std::fabs(a.growth * y[i] * std::log2(x[i])));
        break;
    }
    // n ulp: at most n values away from the correctly rounded result.
    if (a.kind != BoundKind::kAbsolute) allowed += 0.5;
    within = error <= allowed;
    EXPECT_TRUE(within) << a.label << " at x = " << Describe(x[i])
                        << ", y = " << Describe(y[i]) << ": got "
                        << Describe(got[i]) << ", error " << error
                        << " > allowed " << allowed;
    if (!within) break;
  }
}

const double kPi = 3.14159265358979323846;

INSTANTIATE_TEST_SUITE_P(
    FastIntrinsics, FastIntrinsicBound,
    ::testing::Values(
        FastAccuracy{"expf_small", Fast::kExp, -2, 2, 0, 0,
                     BoundKind::kUlpGrowingWithX, 2, 1.173},
        FastAccuracy{"expf_wide", Fast::kExp, -80, 80, 0, 0,
                     BoundKind::kUlpGrowingWithX, 2, 1.173},
        FastAccuracy{"exp10f", Fast::kExp10, -30, 30, 0, 0,
                     BoundKind::kUlpGrowingWithX, 2, 2.97},
        FastAccuracy{"logf_near_one", Fast::kLog, 0.5f, 2, 0, 0,
                     BoundKind::kAbsolute, 0x1.7p-22, 0},  // 2^-21.41
        FastAccuracy{"logf_wide", Fast::kLog, 2, 1e30f, 0, 0, BoundKind::kUlp,
                     3, 0},
        FastAccuracy{"log2f_near_one", Fast::kLog2, 0.5f, 2, 0, 0,
                     BoundKind::kAbsolute, 0x1p-22, 0},
        FastAccuracy{"log2f_wide", Fast::kLog2, 1e-30f, 0.5f, 0, 0,
                     BoundKind::kUlp, 2, 0},
        FastAccuracy{"log10f_near_one", Fast::kLog10, 0.5f, 2, 0, 0,
                     BoundKind::kAbsolute, 0x1p-24, 0},
        FastAccuracy{"log10f_wide", Fast::kLog10, 2, 1e30f, 0, 0,
                     BoundKind::kUlp, 3, 0},
        FastAccuracy{"sinf", Fast::kSin, -kPi, kPi, 0, 0, BoundKind::kAbsolute,
                     0x1.7p-22, 0},  // 2^-21.41
        FastAccuracy{"cosf", Fast::kCos, -kPi, kPi, 0, 0, BoundKind::kAbsolute,
                     0x1.b3p-22, 0},  // 2^-21.19
        FastAccuracy{"sincosf_sine", Fast::kSincosSin, -kPi, kPi, 0, 0,
                     BoundKind::kAbsolute, 0x1.7p-22, 0},
        FastAccuracy{"sincosf_cosine", Fast::kSincosCos, -kPi, kPi, 0, 0,
                     BoundKind::kAbsolute, 0x1.b3p-22, 0},
        FastAccuracy{"tanf", Fast::kTan, -kPi / 4, kPi / 4, 0, 0,
                     BoundKind::kAbsolute, 0x1p-20, 0},
        FastAccuracy{"powf", Fast::kPow, 0.01f, 10, -15, 15,
                     BoundKind::kUlpGrowingWithPow, 2, 1.173},
        FastAccuracy{"fdividef", Fast::kFdividef, -1, 1, 0x1p-126f, 0x1p126f,
                     BoundKind::kUlp, 2, 0}),
    [](const ::testing::TestParamInfo<FastAccuracy>& info) {
      return std::string(info.param.label);
    });

// ---------------------------------------------------------------------------
// __fdividef beyond 2^126 and __saturatef. Exact expectations.
// ---------------------------------------------------------------------------

struct Special {
  const char* label;
  float x, y;
  float expected;  // compared bitwise; NaN matches any NaN
};

std::ostream& operator<<(std::ostream& os, const Special& s) {
  return os << s.label;
}

__global__ void FdividefKernel(float x, float y, float* out) {
  *out = __fdividef(x, y);
}
__global__ void SaturatefKernel(float x, float* out) { *out = __saturatef(x); }

float FdividefOnDevice(float x, float y) {
  float* out = nullptr;
  EXPECT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  FdividefKernel<<<1, 1>>>(x, y, out);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  const float value = *out;
  mcFree(out);
  return value;
}

constexpr float kNanF = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfF = std::numeric_limits<float>::infinity();

class FdividefLargeDivisor : public ::testing::TestWithParam<Special> {};

TEST_P(FdividefLargeDivisor, GivesZeroOrNan) {
  MX_SPEC("lang.math.fast.fdividef-large-divisor");
  const Special& s = GetParam();
  const float got = FdividefOnDevice(s.x, s.y);
  if (s.expected == 0) {
    EXPECT_EQ(got, 0.0f) << s.label << ": got " << Describe(got);
  } else {
    EXPECT_TRUE(SameValue(got, s.expected))
        << s.label << ": got " << Describe(got);
  }
}

INSTANTIATE_TEST_SUITE_P(
    FastIntrinsics, FdividefLargeDivisor,
    ::testing::Values(
        Special{"one_over_2_pow_127", 1.0f, 0x1p127f, 0.0f},
        Special{"large_over_2_pow_127", 1e30f, 0x1p127f, 0.0f},
        Special{"negative_over_flt_max", -3.0f, -FLT_MAX, 0.0f},
        Special{"inf_over_2_pow_127", kInfF, 0x1p127f, kNanF},
        // Controls: just below 2^126 the quotient is approximated.
        Special{"control_2_pow_125", 1.0f, 0x1p125f, 0x1p-125f},
        Special{"control_ordinary", 3.0f, 4.0f, 0.75f}),
    [](const ::testing::TestParamInfo<Special>& info) {
      return std::string(info.param.label);
    });

class Saturatef : public ::testing::TestWithParam<Special> {};

TEST_P(Saturatef, ClampsToZeroOne) {
  MX_SPEC("lang.math.fast.saturatef-clamps");
  const Special& s = GetParam();
  float* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(*out)), mcSuccess);
  SaturatefKernel<<<1, 1>>>(s.x, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_TRUE(SameValue(*out, s.expected))
      << s.label << ": got " << Describe(*out);
  mcFree(out);
}

INSTANTIATE_TEST_SUITE_P(
    FastIntrinsics, Saturatef,
    ::testing::Values(Special{"inside", 0.375f, 0, 0.375f},
                      Special{"negative", -2.0f, 0, 0.0f},
                      Special{"above_one", 1.5f, 0, 1.0f},
                      Special{"one", 1.0f, 0, 1.0f},
                      Special{"zero", 0.0f, 0, 0.0f},
                      Special{"minus_zero_gives_plus_zero", -0.0f, 0, 0.0f},
                      Special{"nan_gives_plus_zero", kNanF, 0, 0.0f},
                      Special{"inf", kInfF, 0, 1.0f},
                      Special{"minus_inf", -kInfF, 0, 0.0f}),
    [](const ::testing::TestParamInfo<Special>& info) {
      return std::string(info.param.label);
    });

// Without any option, expf keeps its library bound (2 ulp) even where
// __expf's documented bound is far looser (at x = 80, 95 ulp).
__global__ void LibraryExpKernel(const float* x, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = expf(x[i]);
}

TEST(FastIntrinsics, LibraryFunctionsKeepTheirAccuracyWithoutFastMath) {
  MX_SPEC("lang.math.fast.fast-math-option",
          "lang.math.accuracy.documented-ulp-bounds");
  constexpr int n = 128;
  float *x, *out;
  ASSERT_EQ(mcMallocManaged(&x, n * sizeof(float)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&out, n * sizeof(float)), mcSuccess);
  for (int i = 0; i < n; ++i) x[i] = 60.0f + i * (28.0f / n);
  LibraryExpKernel<<<2, 64>>>(x, out, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) {
    EXPECT_LE(static_cast<double>(UlpError(out[i], expl(x[i]))), 2.5)
        << "expf(" << x[i] << ")";
  }
  mcFree(x);
  mcFree(out);
}

}  // namespace
