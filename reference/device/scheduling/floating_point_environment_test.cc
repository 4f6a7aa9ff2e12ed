// Copyright mxcts authors.
//
// The grid's floating-point environment and the host's afterwards, read
// back through the C library (fegetexcept, fetestexcept, fegetenv), which
// is the meaning GridFloatingPointEnvironment must keep.

#include "reference/device/scheduling/floating_point_environment.h"

#include <fenv.h>

#include "gtest/gtest.h"

namespace mxcts::device_internal {
namespace {

constexpr int kNumeric = FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW;

// Raises the SSE division-by-zero flag (masked: no signal). The volatile
// result keeps the division from being dropped.
void DivideSseByZero() {
  volatile float zero = 0.0f;
  volatile float result = 1.0f / zero;
  (void)result;
}

// Raises the x87 division-by-zero flag (long double runs on the x87 unit).
void DivideX87ByZero() {
  volatile long double zero = 0.0L;
  volatile long double result = 1.0L / zero;
  (void)result;
}

// The parts of the environment a program can observe.
struct Observed {
  int unmasked;
  int raised;
  fenv_t environment;
};

Observed Observe() {
  Observed observed{fegetexcept(), fetestexcept(FE_ALL_EXCEPT), {}};
  fegetenv(&observed.environment);
  return observed;
}

void ExpectSameControl(const fenv_t& a, const fenv_t& b) {
#if defined(__x86_64__)
  EXPECT_EQ(a.__control_word, b.__control_word);
  EXPECT_EQ(a.__mxcsr, b.__mxcsr);
  EXPECT_EQ(a.__status_word & FE_ALL_EXCEPT, b.__status_word & FE_ALL_EXCEPT);
#endif
}

class FloatingPointEnvironment : public testing::Test {
 protected:
  void SetUp() override { fegetenv(&saved_); }
  void TearDown() override { fesetenv(&saved_); }
  fenv_t saved_;
};

TEST_F(FloatingPointEnvironment, GridStartsMaskedWithClearFlags) {
  feenableexcept(FE_DIVBYZERO);
  feraiseexcept(FE_INEXACT);
  GridFloatingPointEnvironment grid(0);
  EXPECT_EQ(fegetexcept(), 0);
  EXPECT_EQ(fetestexcept(FE_ALL_EXCEPT), 0);
}

TEST_F(FloatingPointEnvironment, PolicyTwoUnmasksItsExceptions) {
  GridFloatingPointEnvironment grid(kNumeric);
  EXPECT_EQ(fegetexcept(), kNumeric);
}

TEST_F(FloatingPointEnvironment, HostControlAndFlagsComeBack) {
  feenableexcept(FE_OVERFLOW);
  fesetround(FE_DOWNWARD);
  feraiseexcept(FE_INEXACT | FE_UNDERFLOW);
  const Observed before = Observe();
  {
    GridFloatingPointEnvironment grid(kNumeric);
    fesetround(FE_TONEAREST);
  }
  const Observed after = Observe();
  EXPECT_EQ(after.unmasked, FE_OVERFLOW);
  EXPECT_EQ(after.raised, before.raised);
  EXPECT_EQ(fegetround(), FE_DOWNWARD);
  ExpectSameControl(after.environment, before.environment);
}

TEST_F(FloatingPointEnvironment, FlagsRaisedByTheGridDoNotReachTheHost) {
  feclearexcept(FE_ALL_EXCEPT);
  {
    GridFloatingPointEnvironment grid(0);
    DivideSseByZero();
    DivideX87ByZero();
    // Control: the grid did raise them.
    EXPECT_NE(fetestexcept(FE_DIVBYZERO), 0);
  }
  EXPECT_EQ(fetestexcept(FE_ALL_EXCEPT), 0);
}

TEST_F(FloatingPointEnvironment, HostX87FlagsComeBack) {
  feclearexcept(FE_ALL_EXCEPT);
  DivideX87ByZero();
  const Observed before = Observe();
  ASSERT_NE(before.raised & FE_DIVBYZERO, 0);
  {
    GridFloatingPointEnvironment grid(0);
    EXPECT_EQ(fetestexcept(FE_ALL_EXCEPT), 0);
  }
  const Observed after = Observe();
  EXPECT_EQ(after.raised, before.raised);
  ExpectSameControl(after.environment, before.environment);
}

}  // namespace
}  // namespace mxcts::device_internal
