// Conformance: the built-in vector types (docs/spec/lang-vector-types.md):
// the 48 types, their component types and members, layout, size and
// alignment (the spec's table, written out here, not derived), brace
// initialization, the make_<type> functions, and the same types and values
// in device code.

#include <mc_runtime.h>

#include <cstddef>
#include <type_traits>

#include "conformance/testing/spec.h"

namespace {

// Member detection: whether V has a member y, z or w.
template <typename V, typename = void>
struct HasY : std::false_type {};
template <typename V>
struct HasY<V, std::void_t<decltype(std::declval<V>().y)>> : std::true_type {};
template <typename V, typename = void>
struct HasZ : std::false_type {};
template <typename V>
struct HasZ<V, std::void_t<decltype(std::declval<V>().z)>> : std::true_type {};
template <typename V, typename = void>
struct HasW : std::false_type {};
template <typename V>
struct HasW<V, std::void_t<decltype(std::declval<V>().w)>> : std::true_type {};

// The members V has, as a count (1 to 4), from detection alone.
template <typename V>
constexpr int MemberCount() {
  return 1 + HasY<V>::value + HasZ<V>::value + HasW<V>::value;
}

// Checks the one- to four-component types of one family: component type
// T, members, size N * sizeof(T), and the alignments of the spec's table.
template <typename T, typename V1, typename V2, typename V3, typename V4>
void ExpectFamily(std::size_t align1, std::size_t align2, std::size_t align3,
                  std::size_t align4) {
  EXPECT_TRUE((std::is_same_v<decltype(V1::x), T>));
  EXPECT_TRUE((std::is_same_v<decltype(V4::w), T>));
  EXPECT_EQ(MemberCount<V1>(), 1);
  EXPECT_EQ(MemberCount<V2>(), 2);
  EXPECT_EQ(MemberCount<V3>(), 3);
  EXPECT_EQ(MemberCount<V4>(), 4);
  EXPECT_EQ(sizeof(V1), 1 * sizeof(T));
  EXPECT_EQ(sizeof(V2), 2 * sizeof(T));
  EXPECT_EQ(sizeof(V3), 3 * sizeof(T));
  EXPECT_EQ(sizeof(V4), 4 * sizeof(T));
  EXPECT_EQ(alignof(V1), align1);
  EXPECT_EQ(alignof(V2), align2);
  EXPECT_EQ(alignof(V3), align3);
  EXPECT_EQ(alignof(V4), align4);
}

TEST(VectorTypes, CharFamily) {
  MX_SPEC("lang.vector.align.char-family", "lang.vector.types.all-defined",
          "lang.vector.types.component-types", "lang.vector.members.size");
  ExpectFamily<signed char, char1, char2, char3, char4>(1, 2, 1, 4);
  ExpectFamily<unsigned char, uchar1, uchar2, uchar3, uchar4>(1, 2, 1, 4);
}

TEST(VectorTypes, ShortFamily) {
  MX_SPEC("lang.vector.align.short-family", "lang.vector.types.all-defined",
          "lang.vector.types.component-types", "lang.vector.members.size");
  ExpectFamily<short, short1, short2, short3, short4>(2, 4, 2, 8);
  ExpectFamily<unsigned short, ushort1, ushort2, ushort3, ushort4>(2, 4, 2, 8);
}

TEST(VectorTypes, IntFamily) {
  MX_SPEC("lang.vector.align.int-family", "lang.vector.types.all-defined",
          "lang.vector.types.component-types", "lang.vector.members.size");
  ExpectFamily<int, int1, int2, int3, int4>(4, 8, 4, 16);
  ExpectFamily<unsigned int, uint1, uint2, uint3, uint4>(4, 8, 4, 16);
}

TEST(VectorTypes, LongFamily) {
  MX_SPEC("lang.vector.align.long-family", "lang.vector.types.all-defined",
          "lang.vector.types.component-types", "lang.vector.members.size");
  if (sizeof(long) == sizeof(int)) {
    ExpectFamily<long, long1, long2, long3, long4>(4, 8, 4, 16);
    ExpectFamily<unsigned long, ulong1, ulong2, ulong3, ulong4>(4, 8, 4, 16);
  } else {
    ExpectFamily<long, long1, long2, long3, long4>(8, 16, 8, 16);
    ExpectFamily<unsigned long, ulong1, ulong2, ulong3, ulong4>(8, 16, 8, 16);
  }
}

TEST(VectorTypes, LongLongFamily) {
  MX_SPEC("lang.vector.align.longlong-family", "lang.vector.types.all-defined",
          "lang.vector.types.component-types", "lang.vector.members.size");
  ExpectFamily<long long, longlong1, longlong2, longlong3, longlong4>(8, 16, 8,
                                                                      16);
  ExpectFamily<unsigned long long, ulonglong1, ulonglong2, ulonglong3,
               ulonglong4>(8, 16, 8, 16);
}

TEST(VectorTypes, FloatFamily) {
  MX_SPEC("lang.vector.align.float-family", "lang.vector.types.all-defined",
          "lang.vector.types.component-types", "lang.vector.members.size");
  ExpectFamily<float, float1, float2, float3, float4>(4, 8, 4, 16);
}

TEST(VectorTypes, DoubleFamily) {
  MX_SPEC("lang.vector.align.double-family", "lang.vector.types.all-defined",
          "lang.vector.types.component-types", "lang.vector.members.size");
  ExpectFamily<double, double1, double2, double3, double4>(8, 16, 8, 16);
}

// Control: a plain struct of two floats is aligned as a float, so the
// checks above tell the vector types' alignment from the default one.
TEST(VectorTypes, ControlPlainStructKeepsComponentAlignment) {
  MX_SPEC("lang.vector.align.float-family");
  struct PlainFloat2 {
    float x, y;
  };
  EXPECT_EQ(alignof(PlainFloat2), alignof(float));
  EXPECT_NE(alignof(PlainFloat2), alignof(float2));
}

TEST(VectorMembers, NamedInOrderWithoutPadding) {
  MX_SPEC("lang.vector.members.layout-in-order",
          "lang.vector.members.one-component",
          "lang.vector.members.two-components",
          "lang.vector.members.three-components",
          "lang.vector.members.four-components");
  EXPECT_EQ(offsetof(double4, x), 0u);
  EXPECT_EQ(offsetof(double4, y), 1 * sizeof(double));
  EXPECT_EQ(offsetof(double4, z), 2 * sizeof(double));
  EXPECT_EQ(offsetof(double4, w), 3 * sizeof(double));
  EXPECT_EQ(offsetof(uchar3, z), 2u);
  EXPECT_EQ(offsetof(short2, y), sizeof(short));
  EXPECT_FALSE(HasY<float1>::value);
  EXPECT_FALSE(HasZ<int2>::value);
  EXPECT_FALSE(HasW<int3>::value);
  // Control: the detection sees members that exist.
  EXPECT_TRUE(HasW<int4>::value);
  EXPECT_TRUE(HasZ<int3>::value);
}

TEST(VectorMembers, BraceAndValueInitialization) {
  MX_SPEC("lang.vector.members.brace-initialization");
  int3 v = {1, 2, 3};
  EXPECT_EQ(v.x, 1);
  EXPECT_EQ(v.y, 2);
  EXPECT_EQ(v.z, 3);
  float4 zero{};
  EXPECT_EQ(zero.x, 0.0f);
  EXPECT_EQ(zero.y, 0.0f);
  EXPECT_EQ(zero.z, 0.0f);
  EXPECT_EQ(zero.w, 0.0f);
}

TEST(VectorMake, ComponentsInOrderAndConverted) {
  MX_SPEC("lang.vector.make.one-per-type",
          "lang.vector.make.components-in-order",
          "lang.vector.make.argument-conversion");
  int2 a = make_int2(3, 4);
  EXPECT_EQ(a.x, 3);
  EXPECT_EQ(a.y, 4);
  ulonglong4 b = make_ulonglong4(1, 2, 3, 1ULL << 40);
  EXPECT_EQ(b.w, 1ULL << 40);
  EXPECT_EQ(b.z, 3u);
  EXPECT_TRUE((std::is_same_v<decltype(make_double3(1, 2, 3)), double3>));
  float2 f = make_float2(1, 2);
  EXPECT_EQ(f.x, 1.0f);
  EXPECT_EQ(f.y, 2.0f);
  int wide = 257;  // converted as in an ordinary call: modulo 256
  EXPECT_EQ(make_uchar1(wide).x, 1);
  EXPECT_EQ(make_char4(-1, 0, 0, 0).x, -1);
}

// Builds vectors in device code from `seed` and records the layout device
// code sees.
struct DeviceView {
  float4 made_float;
  int3 made_int;
  ulonglong2 made_wide;
  char2 made_char;
  double3 passed_back;
  unsigned long long sizes[4];
  unsigned long long alignments[4];
};

__device__ double3 Scaled(double3 v, double by) {
  return make_double3(v.x * by, v.y * by, v.z * by);
}

__global__ void BuildOnDevice(int seed, double3 passed, DeviceView* out) {
  out->made_float = make_float4(seed, seed + 0.5f, -seed, 0.25f);
  out->made_int = make_int3(seed, seed * 2, seed * 3);
  out->made_wide = make_ulonglong2(seed, 1ULL << 50);
  out->made_char = make_char2(seed, -seed);
  out->passed_back = Scaled(passed, 2.0);
  out->sizes[0] = sizeof(float4);
  out->sizes[1] = sizeof(int3);
  out->sizes[2] = sizeof(ulonglong2);
  out->sizes[3] = sizeof(char2);
  out->alignments[0] = alignof(float4);
  out->alignments[1] = alignof(int3);
  out->alignments[2] = alignof(ulonglong2);
  out->alignments[3] = alignof(char2);
}

TEST(VectorTypesOnDevice, SameValuesAndLayoutAsHostCode) {
  MX_SPEC("lang.vector.types.host-and-device",
          "lang.vector.make.host-and-device",
          "lang.vector.align.same-on-host-and-device",
          "lang.vector.types.are-structs");
  DeviceView* view = nullptr;
  ASSERT_EQ(mcMalloc(&view, sizeof(DeviceView)), mcSuccess);
  const int seed = 7;
  BuildOnDevice<<<1, 1>>>(seed, make_double3(1.5, -2, 4), view);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  DeviceView got;
  ASSERT_EQ(mcMemcpy(&got, view, sizeof got, mcMemcpyDeviceToHost), mcSuccess);
  ASSERT_EQ(mcFree(view), mcSuccess);

  const float4 f = make_float4(seed, seed + 0.5f, -seed, 0.25f);
  EXPECT_EQ(got.made_float.x, f.x);
  EXPECT_EQ(got.made_float.y, f.y);
  EXPECT_EQ(got.made_float.z, f.z);
  EXPECT_EQ(got.made_float.w, f.w);
  EXPECT_EQ(got.made_int.z, 21);
  EXPECT_EQ(got.made_wide.x, 7u);
  EXPECT_EQ(got.made_wide.y, 1ULL << 50);
  EXPECT_EQ(got.made_char.y, -7);
  EXPECT_EQ(got.passed_back.x, 3.0);
  EXPECT_EQ(got.passed_back.y, -4.0);
  EXPECT_EQ(got.passed_back.z, 8.0);
  EXPECT_EQ(got.sizes[0], sizeof(float4));
  EXPECT_EQ(got.sizes[1], sizeof(int3));
  EXPECT_EQ(got.sizes[2], sizeof(ulonglong2));
  EXPECT_EQ(got.sizes[3], sizeof(char2));
  EXPECT_EQ(got.alignments[0], alignof(float4));
  EXPECT_EQ(got.alignments[1], alignof(int3));
  EXPECT_EQ(got.alignments[2], alignof(ulonglong2));
  EXPECT_EQ(got.alignments[3], alignof(char2));
}

// Vectors in every place the implementation puts them: shared and device
// variables, a local array, a kernel parameter; each address's remainder
// by the type's alignment.
__device__ double2 device_pair[3];

__global__ void RecordRemainders(float4 parameter, unsigned long long* out) {
  __shared__ char pad;
  __shared__ float4 shared_quad[2];
  ulonglong2 local[2] = {make_ulonglong2(1, 2), make_ulonglong2(3, 4)};
  pad = 1;
  out[0] =
      reinterpret_cast<unsigned long long>(&shared_quad[1]) % alignof(float4);
  out[1] =
      reinterpret_cast<unsigned long long>(&device_pair[1]) % alignof(double2);
  out[2] =
      reinterpret_cast<unsigned long long>(&local[1]) % alignof(ulonglong2);
  out[3] = reinterpret_cast<unsigned long long>(&parameter) % alignof(float4);
  out[4] = static_cast<unsigned long long>(pad + local[0].x + parameter.x);
  // Control: the same check on an address 4 bytes off.
  out[5] = (reinterpret_cast<unsigned long long>(&shared_quad[1]) + 4) %
           alignof(float4);
}

TEST(VectorTypesOnDevice, ObjectsAreAligned) {
  MX_SPEC("lang.vector.align.objects-aligned");
  unsigned long long* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 6 * sizeof(unsigned long long)), mcSuccess);
  RecordRemainders<<<1, 1>>>(make_float4(1, 2, 3, 4), out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 0u);
  EXPECT_EQ(out[1], 0u);
  EXPECT_EQ(out[2], 0u);
  EXPECT_EQ(out[3], 0u);
  EXPECT_EQ(out[4], 3u);  // the values were really used
  EXPECT_EQ(out[5], 4u);
  ASSERT_EQ(mcFree(out), mcSuccess);
}

}  // namespace
