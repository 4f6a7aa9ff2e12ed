// Copyright mxcts authors.
//
// Conformance: operators on the built-in vector types
// (docs/spec/lang-vector-types.md,
// lang.vector.members.operators-implementation-defined). Whether they exist
// is implementation-defined; the backend states it in its capability
// manifest (vector_operators). This file compiles either way, finding each
// operator by overload resolution: the declared operators must be exactly
// what the manifest claims, in host and device code alike. The control
// shows that the detection sees an operator where one is declared.

#include <mc_runtime.h>

#include <type_traits>
#include <utility>

#include "conformance/testing/claimed.h"
#include "conformance/testing/spec.h"

namespace {

template <typename T, typename = void>
struct HasPlus : std::false_type {};
template <typename T>
struct HasPlus<T, std::void_t<decltype(std::declval<T>() + std::declval<T>())>>
    : std::true_type {};

template <typename T, typename = void>
struct HasEqual : std::false_type {};
template <typename T>
struct HasEqual<T,
                std::void_t<decltype(std::declval<T>() == std::declval<T>())>>
    : std::true_type {};

template <typename T, typename = void>
struct HasPlusAssign : std::false_type {};
template <typename T>
struct HasPlusAssign<
    T, std::void_t<decltype(std::declval<T&>() += std::declval<T>())>>
    : std::true_type {};

// How many of the three operators T has (0 to 3).
template <typename T>
constexpr int OperatorCount() {
  return HasPlus<T>::value + HasEqual<T>::value + HasPlusAssign<T>::value;
}

// Each type's count, as device code sees the declarations.
__global__ void DeviceCounts(int* out) {
  out[0] = OperatorCount<float4>();
  out[1] = OperatorCount<int2>();
  out[2] = OperatorCount<double2>();
  out[3] = OperatorCount<uchar3>();
  out[4] = OperatorCount<float1>();
}

TEST(VectorOperators, DeclaredExactlyAsTheManifestClaims) {
  MX_SPEC("lang.vector.members.operators-implementation-defined");
  const int host[5] = {OperatorCount<float4>(), OperatorCount<int2>(),
                       OperatorCount<double2>(), OperatorCount<uchar3>(),
                       OperatorCount<float1>()};
  int* device = nullptr;
  ASSERT_EQ(mcMallocManaged(&device, sizeof(host)), mcSuccess);
  DeviceCounts<<<1, 1>>>(device);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  const bool claimed = mxcts::conformance::Claimed("vector_operators");
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(host[i], claimed ? 3 : 0) << "type " << i << " in host code";
    EXPECT_EQ(device[i], host[i]) << "type " << i << " in device code";
  }
  EXPECT_EQ(mcFree(device), mcSuccess);
}

// A vector-like type of the test's own with the three operators.
struct WithOperators {
  float x, y;
};
[[maybe_unused]] WithOperators operator+(WithOperators a, WithOperators b) {
  return {a.x + b.x, a.y + b.y};
}
[[maybe_unused]] bool operator==(WithOperators a, WithOperators b) {
  return a.x == b.x && a.y == b.y;
}
[[maybe_unused]] WithOperators& operator+=(WithOperators& a, WithOperators b) {
  return a = a + b;
}

TEST(VectorOperatorsControl, DetectionSeesDeclaredOperators) {
  MX_SPEC("lang.vector.members.operators-implementation-defined");
  EXPECT_EQ(OperatorCount<WithOperators>(), 3);
  EXPECT_EQ(OperatorCount<int>(), 3);
  struct Bare {
    int x;
  };
  EXPECT_EQ(OperatorCount<Bare>(), 0);
}

}  // namespace
