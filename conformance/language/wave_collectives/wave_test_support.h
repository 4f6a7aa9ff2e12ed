// Conformance: what the wave collective tests share
// (docs/spec/lang-wave-collectives.md): the block shapes and masks they are
// parameterized over, the value types of the shuffles and matches, per-thread
// values with distinct bit patterns, managed result arrays, and the host's
// view of waves (which lanes exist, which a mask names).
//
// Kernels store each thread's result at its linear thread id, so the host
// checks thread `id` knowing its wave (id / 64) and lane (id % 64).
//
//   for (const wave_test::Shape& shape : wave_test::kShapes) ...
//   wave_test::Managed<int> out(shape.threads());
//   Kernel<<<1, shape.dims()>>>(out.get());

#ifndef MXCTS_CONFORMANCE_LANGUAGE_WAVE_COLLECTIVES_WAVE_TEST_SUPPORT_H_
#define MXCTS_CONFORMANCE_LANGUAGE_WAVE_COLLECTIVES_WAVE_TEST_SUPPORT_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <cstddef>
#include <cstring>
#include <string>

#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/printed_param_name.h"

namespace wave_test {

// The chapter's shapes and masks are those of MXMACA's 64-lane wave, so
// every test requires wave_size 64 (MX_REQUIRE_CAPABILITY_AT_LEAST); a
// backend whose waves have other widths reports the chapter unsupported.
constexpr unsigned kWaveLanes = 64;
constexpr unsigned long kFullMask = ~0ul;

// A block shape; the tests cover one wave, its N-1 and N+1 neighbours, two
// waves, the largest block, a 32-thread partial wave, and 2D and 3D blocks.
struct Shape {
  const char* name;
  unsigned x, y, z;

  dim3 dims() const { return dim3(x, y, z); }
  unsigned threads() const { return x * y * z; }
  // The number of lanes that exist in the wave of thread `id`.
  unsigned LanesInWaveOf(unsigned id) const {
    const unsigned first = id / kWaveLanes * kWaveLanes;
    return threads() - first < kWaveLanes ? threads() - first : kWaveLanes;
  }
  // The lanes that exist in the wave of thread `id`, as a mask.
  unsigned long ExistingLanesOf(unsigned id) const {
    const unsigned lanes = LanesInWaveOf(id);
    return lanes == kWaveLanes ? kFullMask : (1ul << lanes) - 1;
  }
};

constexpr Shape kShapes[] = {
    {"Threads64", 64, 1, 1},     {"Threads63", 63, 1, 1},
    {"Threads65", 65, 1, 1},     {"Threads128", 128, 1, 1},
    {"Threads1024", 1024, 1, 1}, {"Threads96", 96, 1, 1},
    {"Block8x8", 8, 8, 1},       {"Block13x5", 13, 5, 1},
    {"Block16x8x2", 16, 8, 2},   {"Block10x10x3", 10, 10, 3},
    {"Block32x32", 32, 32, 1},
};

inline void PrintTo(const Shape& shape, std::ostream* os) { *os << shape.name; }

// A 64-bit wave mask with a name for test names.
struct NamedMask {
  const char* name;
  unsigned long mask;
};

constexpr NamedMask kMasks[] = {
    {"Full", kFullMask},
    {"LowHalf", 0x00000000fffffffful},
    {"HighHalf", 0xffffffff00000000ul},
    {"EvenLanes", 0x5555555555555555ul},
    {"OddLanes", 0xaaaaaaaaaaaaaaaaul},
    {"Lane0Only", 0x1ul},
    {"Lane63Only", 0x8000000000000000ul},
    {"Lanes0And63", 0x8000000000000001ul},
    {"Sparse", 0x8040201008040201ul},
};

inline void PrintTo(const NamedMask& mask, std::ostream* os) {
  *os << mask.name;
}

// The value types of the shuffles (all twelve) and matches (the first
// eight).
enum class ValueType {
  kInt,
  kUnsigned,
  kLong,
  kUnsignedLong,
  kLongLong,
  kUnsignedLongLong,
  kFloat,
  kDouble,
  kHalf,
  kHalf2,
  kBfloat16,
  kBfloat162,
};

constexpr ValueType kShuffleTypes[] = {
    ValueType::kInt,      ValueType::kUnsigned,
    ValueType::kLong,     ValueType::kUnsignedLong,
    ValueType::kLongLong, ValueType::kUnsignedLongLong,
    ValueType::kFloat,    ValueType::kDouble,
    ValueType::kHalf,     ValueType::kHalf2,
    ValueType::kBfloat16, ValueType::kBfloat162,
};

constexpr ValueType kMatchTypes[] = {
    ValueType::kInt,      ValueType::kUnsigned,
    ValueType::kLong,     ValueType::kUnsignedLong,
    ValueType::kLongLong, ValueType::kUnsignedLongLong,
    ValueType::kFloat,    ValueType::kDouble,
};

inline const char* TypeName(ValueType type) {
  switch (type) {
    case ValueType::kInt:
      return "Int";
    case ValueType::kUnsigned:
      return "Unsigned";
    case ValueType::kLong:
      return "Long";
    case ValueType::kUnsignedLong:
      return "UnsignedLong";
    case ValueType::kLongLong:
      return "LongLong";
    case ValueType::kUnsignedLongLong:
      return "UnsignedLongLong";
    case ValueType::kFloat:
      return "Float";
    case ValueType::kDouble:
      return "Double";
    case ValueType::kHalf:
      return "Half";
    case ValueType::kHalf2:
      return "Half2";
    case ValueType::kBfloat16:
      return "Bfloat16";
    case ValueType::kBfloat162:
      return "Bfloat162";
  }
  return "Unknown";
}

inline void PrintTo(ValueType type, std::ostream* os) { *os << TypeName(type); }

// A well-mixed 64-bit pattern, different for every (id, salt): every lane's
// value has its own bits, so a wrong source lane shows.
__host__ __device__ inline unsigned long long Pattern(unsigned id,
                                                      unsigned salt) {
  unsigned long long z = (id + 1ull) * 0x9e3779b97f4a7c15ull +
                         (salt + 1ull) * 0xd1b54a32d192ed03ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The T made of the low sizeof(T) bytes of `bits`.
template <class T>
__host__ __device__ inline T FromBits(unsigned long long bits) {
  T value;
  __builtin_memcpy(&value, &bits, sizeof(T));
  return value;
}

// The bytes of `value`, zero-extended.
template <class T>
__host__ __device__ inline unsigned long long ToBits(const T& value) {
  unsigned long long bits = 0;
  __builtin_memcpy(&bits, &value, sizeof(T));
  return bits;
}

// The calling thread's linear id in its block.
__device__ inline unsigned LinearId() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// The calling thread's lane.
__device__ inline unsigned Lane() { return LinearId() % warpSize; }

// Result arrays and test names shared with other chapters' tests.
template <class T>
using Managed = mxcts::conformance::ManagedBuffer<T>;
using ParamName = mxcts::conformance::PrintedParamName;

}  // namespace wave_test

#endif  // MXCTS_CONFORMANCE_LANGUAGE_WAVE_COLLECTIVES_WAVE_TEST_SUPPORT_H_
