// Copyright mxcts authors.
//
// Conformance: device printf formats every conversion specification the
// spec lists exactly as the host printf does, and returns the number of
// arguments after the format (docs/spec/lang-device-services.md, "Device
// printf").
//
// Each case is one printf call in a __host__ __device__ function, so the
// same source line is compiled for the device (device printf) and for the
// host (the host C library's printf). The test runs it on one device
// thread, synchronizes, and compares the captured standard output with what
// the host call prints. The cases walk the conversions c d i o u x X p e E
// f F g G a A s %%, the flags - + space # 0, widths and precisions written
// out and given as *, the length modifiers hh h l ll, and the boundary
// values of each integer type.

#include <limits.h>
#include <math.h>
#include <mc_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "conformance/language/synchronization/managed_array.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::ManagedArray;

// X(name, format, arguments...): every case, one printf call each.
#define MX_PRINTF_CASES(X)                                                     \
  X(CharPlain, "[%c]\n", 'A')                                                  \
  X(CharWidth, "[%3c]\n", 'q')                                                 \
  X(CharLeftJustified, "[%-3c]\n", 'z')                                        \
  X(DecimalZero, "[%d]\n", 0)                                                  \
  X(DecimalNegative, "[%d]\n", -42)                                            \
  X(DecimalIntMin, "[%d]\n", INT_MIN)                                          \
  X(DecimalIntMax, "[%d]\n", INT_MAX)                                          \
  X(DecimalPlusFlag, "[%+d] [%+d]\n", 5, -5)                                   \
  X(DecimalSpaceFlag, "[% d] [% d]\n", 5, -5)                                  \
  X(DecimalZeroPadded, "[%05d]\n", -42)                                        \
  X(DecimalLeftJustified, "[%-6d]\n", 42)                                      \
  X(DecimalPrecision, "[%.4d] [%.0d]\n", 7, 0)                                 \
  X(DecimalStarWidth, "[%*d]\n", 8, 123)                                       \
  X(DecimalNegativeStarWidth, "[%*d]\n", -8, 123)                              \
  X(DecimalStarPrecision, "[%.*d]\n", 5, 42)                                   \
  X(DecimalStarWidthAndPrecision, "[%*.*d]\n", 7, 3, 9)                        \
  X(IntegerI, "[%i] [%+i]\n", -17, 0)                                          \
  X(ShortHd, "[%hd]\n", static_cast<short>(-1234))                             \
  X(ShortHdTruncates, "[%hd]\n", 70000)                                        \
  X(ShortHu, "[%hu]\n", static_cast<unsigned short>(65535))                    \
  X(CharHhd, "[%hhd]\n", static_cast<signed char>(-5))                         \
  X(CharHhx, "[%hhx]\n", static_cast<unsigned char>(0xab))                     \
  X(LongLd, "[%ld]\n", -9000000000L)                                           \
  X(LongLuMax, "[%lu]\n", ULONG_MAX)                                           \
  X(LongLx, "[%lx]\n", 0xdeadbeefcafeUL)                                       \
  X(LongLongMin, "[%lld]\n", LLONG_MIN)                                        \
  X(LongLongMax, "[%lld]\n", LLONG_MAX)                                        \
  X(LongLongUnsignedMax, "[%llu]\n", ULLONG_MAX)                               \
  X(LongLongHexUpper, "[%llX]\n", 0x0123456789abcdefULL)                       \
  X(LongLongOctal, "[%llo]\n", 01234567012345670ULL)                           \
  X(OctalPlain, "[%o]\n", 8u)                                                  \
  X(OctalAlternate, "[%#o] [%#o]\n", 8u, 0u)                                   \
  X(UnsignedMax, "[%u]\n", UINT_MAX)                                           \
  X(UnsignedZero, "[%u]\n", 0u)                                                \
  X(HexLower, "[%x]\n", 255u)                                                  \
  X(HexAlternate, "[%#x] [%#x]\n", 255u, 0u)                                   \
  X(HexZeroPadded, "[%08x]\n", 0xbeefu)                                        \
  X(HexUpper, "[%X] [%#X]\n", 0xabcdefu, 0xabcdefu)                            \
  X(PointerValue, "[%p]\n", reinterpret_cast<void*>(0x1234))                   \
  X(PointerNull, "[%p]\n", static_cast<void*>(nullptr))                        \
  X(PointerWidth, "[%24p]\n", reinterpret_cast<void*>(0xfeed))                 \
  X(ExponentLower, "[%e]\n", 12345.678)                                        \
  X(ExponentPrecision, "[%.2e]\n", -0.000123)                                  \
  X(ExponentUpper, "[%E]\n", 1e300)                                            \
  X(ExponentPlusZero, "[%+e]\n", 0.0)                                          \
  X(FixedPlain, "[%f]\n", 3.14159265358979)                                    \
  X(FixedNegativeZero, "[%f]\n", -0.0)                                         \
  X(FixedRoundsHalfToEven, "[%.0f] [%.0f]\n", 2.5, 3.5)                        \
  X(FixedAlternateKeepsPoint, "[%#.0f]\n", 2.0)                                \
  X(FixedWidthPrecision, "[%10.3f] [%-10.3f]\n", -1.5, 1.5)                    \
  X(FixedZeroPadded, "[%+012.4f]\n", 3.25)                                     \
  X(FixedFloatPromoted, "[%.10f]\n", 0.1f)                                     \
  X(FixedLarge, "[%f]\n", 1e20)                                                \
  X(FixedInfinity, "[%f] [%F]\n", static_cast<double>(INFINITY),               \
    -static_cast<double>(INFINITY))                                            \
  X(FixedNan, "[%f] [%F]\n", static_cast<double>(NAN),                         \
    static_cast<double>(NAN))                                                  \
  X(GeneralSmall, "[%g]\n", 0.0001)                                            \
  X(GeneralSwitchesToExponent, "[%g] [%g]\n", 123456789.0, 0.00001)            \
  X(GeneralAlternate, "[%#g]\n", 1.0)                                          \
  X(GeneralUpper, "[%G]\n", 1e-10)                                             \
  X(GeneralPrecision, "[%.3g]\n", 3.14159)                                     \
  X(HexFloatLower, "[%a]\n", 1.0)                                              \
  X(HexFloatUpper, "[%A]\n", -0.5)                                             \
  X(HexFloatPrecision, "[%.2a]\n", 3.14159)                                    \
  X(StringPlain, "[%s]\n", "hello")                                            \
  X(StringEmpty, "[%s]\n", "")                                                 \
  X(StringWidth, "[%10s] [%-10s]\n", "right", "left")                          \
  X(StringPrecision, "[%.3s]\n", "truncate")                                   \
  X(StringStarPrecision, "[%.*s]\n", 2, "abc")                                 \
  X(PercentLiteral, "[100%%]\n")                                               \
  X(PercentAfterConversion, "[%5.1f%%]\n", 99.5)                               \
  X(NoConversions, "plain text\n")                                             \
  X(NoNewline, "[no newline]")                                                 \
  X(Mixed, "[%d %s %c %.2f %x %p]\n", -1, "mix", 'm', 2.75, 0x10u,             \
    reinterpret_cast<void*>(0x20))                                             \
  X(ThirtyTwoArguments,                                                        \
    "[%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d "                        \
    "%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d]\n",                      \
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, \
    22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32)

enum PrintfCase {
#define MX_CASE_ENUMERATOR(name, ...) k##name,
  MX_PRINTF_CASES(MX_CASE_ENUMERATOR)
#undef MX_CASE_ENUMERATOR
      kCaseCount
};

const char* CaseName(int which) {
  switch (which) {
#define MX_CASE_NAME(name, ...) \
  case k##name:                 \
    return #name;
    MX_PRINTF_CASES(MX_CASE_NAME)
#undef MX_CASE_NAME
  }
  return "Unknown";
}

// The number of arguments after the format of a case.
template <typename... Arguments>
constexpr int ArgumentsAfterFormat(const char*, const Arguments&...) {
  return static_cast<int>(sizeof...(Arguments));
}

int ExpectedReturn(int which) {
  switch (which) {
#define MX_CASE_RETURN(name, ...) \
  case k##name:                   \
    return ArgumentsAfterFormat(__VA_ARGS__);
    MX_PRINTF_CASES(MX_CASE_RETURN)
#undef MX_CASE_RETURN
  }
  return -100;
}

// The one call of case `which`: device printf on the device, the host's
// printf on the host.
__host__ __device__ int PrintCase(int which) {
  switch (which) {
#define MX_CASE_CALL(name, ...) \
  case k##name:                 \
    return printf(__VA_ARGS__);
    MX_PRINTF_CASES(MX_CASE_CALL)
#undef MX_CASE_CALL
  }
  return -100;
}

__global__ void PrintOneCase(int which, int* result) {
  *result = PrintCase(which);
}

// What the host's printf writes for case `which`.
std::string HostOutput(int which) {
  std::fflush(stdout);
  ::testing::internal::CaptureStdout();
  (void)PrintCase(which);
  std::fflush(stdout);
  return ::testing::internal::GetCapturedStdout();
}

class DevicePrintfFormatTest : public ::testing::TestWithParam<int> {};

TEST_P(DevicePrintfFormatTest, PrintsWhatTheHostPrintfPrints) {
  MX_SPEC("lang.printf.format.supported-conversions",
          "lang.printf.call.available-in-device-code",
          "lang.printf.call.output-on-host-stdout",
          "lang.printf.format.float-arguments-promoted",
          "lang.printf.format.argument-limit",
          "lang.printf.order.call-output-not-interleaved");
  MX_REQUIRE_CAPABILITY("printf");
  const int which = GetParam();
  ManagedArray<int> result(1, -100);
  ASSERT_TRUE(result.ok());
  std::fflush(stdout);
  ::testing::internal::CaptureStdout();
  PrintOneCase<<<1, 1>>>(which, result.data());
  const mcError_t synchronized = mcDeviceSynchronize();
  std::fflush(stdout);
  const std::string device_output = ::testing::internal::GetCapturedStdout();
  ASSERT_EQ(synchronized, mcSuccess);
  const std::string host_output = HostOutput(which);
  // Control: the host printed something, so an empty device output fails.
  ASSERT_FALSE(host_output.empty());
  EXPECT_EQ(device_output, host_output);
}

TEST_P(DevicePrintfFormatTest, ReturnsTheNumberOfArguments) {
  MX_SPEC("lang.printf.return.argument-count",
          "lang.printf.return.zero-without-arguments");
  MX_REQUIRE_CAPABILITY("printf");
  const int which = GetParam();
  ManagedArray<int> result(1, -100);
  ASSERT_TRUE(result.ok());
  std::fflush(stdout);
  ::testing::internal::CaptureStdout();
  PrintOneCase<<<1, 1>>>(which, result.data());
  const mcError_t synchronized = mcDeviceSynchronize();
  std::fflush(stdout);
  (void)::testing::internal::GetCapturedStdout();
  ASSERT_EQ(synchronized, mcSuccess);
  EXPECT_EQ(result[0], ExpectedReturn(which));
}

INSTANTIATE_TEST_SUITE_P(Conversions, DevicePrintfFormatTest,
                         ::testing::Range(0, static_cast<int>(kCaseCount)),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(CaseName(info.param));
                         });

// --- Outside the supported set, and a null format. ---

// Conversions whose output is implementation-defined, each followed by a
// marker that shows the kernel went on.
__global__ void PrintOtherConversions(int* markers) {
  printf("[%Lf]\n", 1.5L);
  markers[0] = 1;
  printf("[%ls]\n", L"wide");
  markers[1] = 1;
  printf("[%zu %jd %td]\n", static_cast<size_t>(7), static_cast<intmax_t>(-8),
         static_cast<ptrdiff_t>(9));
  markers[2] = 1;
  printf("after\n");
  markers[3] = 1;
}

TEST(DevicePrintfOtherConversions, DoNotStopTheKernel) {
  MX_SPEC("lang.printf.format.other-conversions");
  MX_REQUIRE_CAPABILITY("printf");
  ManagedArray<int> markers(4, 0);
  ASSERT_TRUE(markers.ok());
  std::fflush(stdout);
  ::testing::internal::CaptureStdout();
  PrintOtherConversions<<<1, 1>>>(markers.data());
  const mcError_t synchronized = mcDeviceSynchronize();
  std::fflush(stdout);
  const std::string output = ::testing::internal::GetCapturedStdout();
  ASSERT_EQ(synchronized, mcSuccess);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(markers[i], 1) << "marker " << i;
  // Whatever the other conversions printed, the last call's text is whole.
  EXPECT_NE(output.find("after\n"), std::string::npos) << output;
}

__global__ void PrintWithFormat(const char* format, int* results) {
  results[0] = printf(format, 1);
  results[1] = printf("control %d\n", 2);
}

TEST(DevicePrintfNullFormat, PrintsNothingAndReturnsMinusOne) {
  MX_SPEC("lang.printf.return.null-format-is-negative");
  MX_REQUIRE_CAPABILITY("printf");
  ManagedArray<int> results(2, -100);
  ASSERT_TRUE(results.ok());
  std::fflush(stdout);
  ::testing::internal::CaptureStdout();
  PrintWithFormat<<<1, 1>>>(nullptr, results.data());
  const mcError_t synchronized = mcDeviceSynchronize();
  std::fflush(stdout);
  const std::string output = ::testing::internal::GetCapturedStdout();
  ASSERT_EQ(synchronized, mcSuccess);
  EXPECT_EQ(results[0], -1);
  // Control: the call after it prints and returns its argument count.
  EXPECT_EQ(results[1], 1);
  EXPECT_EQ(output, "control 2\n");
}

}  // namespace
