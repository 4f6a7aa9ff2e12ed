// Conformance: dim3 (docs/spec/lang-vector-types.md, "dim3"): its members,
// the components that default to 1, the implicit conversions from integers,
// floating values and uint3 and back, and its use in device code.

#include <mc_runtime.h>

#include <cmath>
#include <type_traits>

#include "conformance/testing/spec.h"

namespace {

// The components of `d`, for one comparison.
struct Components {
  unsigned x, y, z;
  bool operator==(const Components& other) const {
    return x == other.x && y == other.y && z == other.z;
  }
};

Components Of(dim3 d) { return {d.x, d.y, d.z}; }

TEST(Dim3, ThreeUnsignedMembers) {
  MX_SPEC("lang.vector.dim3.members");
  EXPECT_TRUE((std::is_same_v<decltype(dim3::x), unsigned int>));
  EXPECT_TRUE((std::is_same_v<decltype(dim3::y), unsigned int>));
  EXPECT_TRUE((std::is_same_v<decltype(dim3::z), unsigned int>));
  EXPECT_EQ(sizeof(dim3), 12u);
}

TEST(Dim3, DefaultAndUnspecifiedComponentsAreOne) {
  MX_SPEC("lang.vector.dim3.default-is-one",
          "lang.vector.dim3.unspecified-components-one");
  EXPECT_EQ(Of(dim3()), (Components{1, 1, 1}));
  EXPECT_EQ(Of(dim3(5)), (Components{5, 1, 1}));
  EXPECT_EQ(Of(dim3(5, 6)), (Components{5, 6, 1}));
  EXPECT_EQ(Of(dim3(5, 6, 7)), (Components{5, 6, 7}));
  // Control: a given zero stays zero.
  EXPECT_EQ(Of(dim3(0, 0, 0)), (Components{0, 0, 0}));
}

TEST(Dim3, ConvertsImplicitlyFromIntegers) {
  MX_SPEC("lang.vector.dim3.implicit-from-integer");
  dim3 from_int = 300;
  EXPECT_EQ(Of(from_int), (Components{300, 1, 1}));
  long long wide = 9;
  EXPECT_EQ(Of(wide), (Components{9, 1, 1}));
  int negative = -1;
  dim3 wrapped = negative;
  EXPECT_EQ(wrapped.x, 4294967295u);
}

TEST(Dim3, ConvertsImplicitlyFromDoubleTruncating) {
  MX_SPEC("lang.vector.dim3.implicit-from-double");
  const int n = 1000;
  dim3 blocks = std::ceil(n / 256.0);
  EXPECT_EQ(Of(blocks), (Components{4, 1, 1}));
  dim3 truncated = 2.9;
  EXPECT_EQ(truncated.x, 2u);
}

TEST(Dim3, ConvertsFromAndToUint3) {
  MX_SPEC("lang.vector.dim3.from-uint3", "lang.vector.dim3.to-uint3");
  uint3 u = make_uint3(4, 0, 2);
  dim3 d = u;
  EXPECT_EQ(Of(d), (Components{4, 0, 2}));
  uint3 back = dim3(8, 9);
  EXPECT_EQ(back.x, 8u);
  EXPECT_EQ(back.y, 9u);
  EXPECT_EQ(back.z, 1u);
}

TEST(Dim3, MembersAndWholeValuesAssignable) {
  MX_SPEC("lang.vector.dim3.members-assignable");
  dim3 d(2, 3, 4);
  d.y = 40;
  EXPECT_EQ(Of(d), (Components{2, 40, 4}));
  dim3 copy = d;
  d = dim3(7);
  EXPECT_EQ(Of(copy), (Components{2, 40, 4}));
  EXPECT_EQ(Of(d), (Components{7, 1, 1}));
}

TEST(Dim3, ConstructorsAreConstexpr) {
  MX_SPEC("lang.vector.dim3.constexpr");
  constexpr dim3 tile(8, 8);
  static_assert(tile.x * tile.y * tile.z == 64, "a constant expression");
  constexpr dim3 line = 32;
  static_assert(line.y == 1, "a constant expression");
  EXPECT_EQ(Of(tile), (Components{8, 8, 1}));
}

__device__ unsigned Volume(dim3 d) { return d.x * d.y * d.z; }

__global__ void ReadExtents(dim3 given, unsigned* out) {
  dim3 local(2, 3);
  out[0] = Volume(given);
  out[1] = Volume(local);
  out[2] = Volume(blockDim);
}

TEST(Dim3, UsableInDeviceCode) {
  MX_SPEC("lang.vector.dim3.host-and-device");
  unsigned* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 3 * sizeof(unsigned)), mcSuccess);
  ReadExtents<<<1, dim3(2, 2)>>>(dim3(4, 5, 6), out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 120u);
  EXPECT_EQ(out[1], 6u);
  EXPECT_EQ(out[2], 4u);
  ASSERT_EQ(mcFree(out), mcSuccess);
}

}  // namespace
