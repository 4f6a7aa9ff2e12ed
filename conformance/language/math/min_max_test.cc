// Conformance: min and max (docs/spec/lang-math.md "min and max"): the
// integer pairings and their conversions, umin..ullmax, the floating-point
// forms with NaN, and the preference over std::min and std::max. Each case
// is checked in device code (one thread writes what it computed) and in
// host code, against values worked out by hand.

#include <mc_runtime.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "conformance/testing/spec.h"

namespace {

// What one device thread computed, one field per case.
struct MinMaxResults {
  int int_min, int_max;
  unsigned int mixed_min, mixed_max;
  long long ll_min, ll_max;
  unsigned long long ull_mixed_max;
  unsigned long ul_min;
  unsigned int umin_result, umax_result;
  long long llmin_result, llmax_result;
  unsigned long long ullmin_result, ullmax_result;
  float float_min, float_max, float_nan_min, float_nan_max;
  double double_min, mixed_float_double_max, mixed_double_float_min;
  int short_promoted_max;
};

__host__ __device__ void ComputeMinMax(MinMaxResults* r) {
  r->int_min = min(-7, 3);
  r->int_max = max(-7, 3);
  r->mixed_min = min(-1, 0u);  // -1 converts to 0xFFFFFFFF first
  r->mixed_max = max(5u, -1);
  r->ll_min = min(-(1LL << 40), 1LL);
  r->ll_max = max(-(1LL << 40), 1LL);
  r->ull_mixed_max = max(-1LL, 2ULL);
  r->ul_min = min(10UL, 4UL);
  r->umin_result = umin(7u, 0xFFFFFFFFu);
  r->umax_result = umax(7u, 0xFFFFFFFFu);
  r->llmin_result = llmin(-3LL, -4LL);
  r->llmax_result = llmax(-3LL, -4LL);
  r->ullmin_result = ullmin(1ULL << 63, 2ULL);
  r->ullmax_result = ullmax(1ULL << 63, 2ULL);
  r->float_min = min(1.5f, -2.25f);
  r->float_max = max(1.5f, -2.25f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  r->float_nan_min = min(nan, 4.0f);
  r->float_nan_max = max(-4.0f, nan);
  r->double_min = min(0.1, 0.2);
  r->mixed_float_double_max = max(0.5f, 0.75);
  r->mixed_double_float_min = min(0.75, 0.5f);
  const short a = -2, b = 9;
  r->short_promoted_max = max(a, b);
}

__global__ void ComputeMinMaxOnDevice(MinMaxResults* r) { ComputeMinMax(r); }

void ExpectHandWorkedValues(const MinMaxResults& r) {
  EXPECT_EQ(r.int_min, -7);
  EXPECT_EQ(r.int_max, 3);
  EXPECT_EQ(r.mixed_min, 0u);
  EXPECT_EQ(r.mixed_max, 0xFFFFFFFFu);
  EXPECT_EQ(r.ll_min, -(1LL << 40));
  EXPECT_EQ(r.ll_max, 1LL);
  EXPECT_EQ(r.ull_mixed_max, 0xFFFFFFFFFFFFFFFFULL);
  EXPECT_EQ(r.ul_min, 4UL);
  EXPECT_EQ(r.umin_result, 7u);
  EXPECT_EQ(r.umax_result, 0xFFFFFFFFu);
  EXPECT_EQ(r.llmin_result, -4LL);
  EXPECT_EQ(r.llmax_result, -3LL);
  EXPECT_EQ(r.ullmin_result, 2ULL);
  EXPECT_EQ(r.ullmax_result, 1ULL << 63);
  EXPECT_EQ(r.float_min, -2.25f);
  EXPECT_EQ(r.float_max, 1.5f);
  EXPECT_EQ(r.float_nan_min, 4.0f);
  EXPECT_EQ(r.float_nan_max, -4.0f);
  EXPECT_EQ(r.double_min, 0.1);
  EXPECT_EQ(r.mixed_float_double_max, 0.75);
  EXPECT_EQ(r.mixed_double_float_min, 0.5);
  EXPECT_EQ(r.short_promoted_max, 9);
}

TEST(MinMax, DeviceCodeComputesEveryPairing) {
  MX_SPEC("lang.math.minmax.integer", "lang.math.minmax.named-integer",
          "lang.math.minmax.floating");
  MinMaxResults* results = nullptr;
  ASSERT_EQ(mcMallocManaged(&results, sizeof(MinMaxResults)), mcSuccess);
  ComputeMinMaxOnDevice<<<1, 1>>>(results);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ExpectHandWorkedValues(*results);
  mcFree(results);
}

TEST(MinMax, HostCodeComputesEveryPairing) {
  MX_SPEC("lang.math.minmax.integer", "lang.math.minmax.named-integer",
          "lang.math.minmax.floating");
  MinMaxResults results{};
  ComputeMinMax(&results);
  ExpectHandWorkedValues(results);
}

TEST(MinMax, ResultTypesFollowTheConversions) {
  MX_SPEC("lang.math.minmax.integer", "lang.math.minmax.floating");
  EXPECT_TRUE((std::is_same<decltype(min(1, 2u)), unsigned int>::value));
  EXPECT_TRUE(
      (std::is_same<decltype(max(1LL, 2ULL)), unsigned long long>::value));
  EXPECT_TRUE((std::is_same<decltype(max(1.0f, 2.0)), double>::value));
  EXPECT_TRUE((std::is_same<decltype(max(1.0f, 2.0f)), float>::value));
  // Control: two ints stay int.
  EXPECT_TRUE((std::is_same<decltype(max(1, 2)), int>::value));
}

TEST(MinMax, UnqualifiedCallPrefersTheGlobalFunctions) {
  MX_SPEC("lang.math.minmax.preferred-over-std");
  using namespace std;  // NOLINT: the rule is about this very situation
  // The global functions return by value; std::min returns a reference.
  EXPECT_TRUE((std::is_same<decltype(min(3, 5)), int>::value));
  EXPECT_TRUE((std::is_same<decltype(max(2.0f, 1.0f)), float>::value));
  // Control: the std templates, named, are the reference-returning ones.
  EXPECT_TRUE((std::is_same<decltype(std::min(3, 5)), const int&>::value));
  EXPECT_EQ(min(3, 5), 3);
}

}  // namespace
