// Conformance: the value types of group shuffles
// (docs/spec/api-cooperative-groups.md, api.coop.tile.shfl-types): every
// built-in integer and floating-point type, __half, __half2,
// __maca_bfloat16 and trivially copyable structures of several sizes move
// bit for bit through a tile's shfl, for every tile size, and through a
// coalesced group's shfl. On the reference any trivially copyable type
// moves, whatever its size.
//
// Two targets are built from this source. shuffle_types_test checks the
// types every implementation moves, up to 32 bytes; with
// MX_SHUFFLE_TYPES_OVER_32_BYTES defined, shuffle_large_types_test checks
// a larger structure, which moves where the implementation documents no
// size limit (the reference's choice; CUDA's collectives refuse such types
// at compile time), and is required only from a backend that claims the
// reference's choices. A tile wider than the backend's wave (the
// manifest's wave_size) is skipped as unsupported.

#include <maca_bfloat16.h>
#include <maca_cooperative_groups.h>
#include <maca_fp16.h>

#include <cstring>

#include "conformance/api/cooperative_groups/execution/cg_test_support.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/spec.h"

namespace {

namespace cg = cooperative_groups;
using cg_test::Managed;
using cg_test::Pattern;

constexpr unsigned kThreads = 128;
constexpr unsigned kCoalesced = 0;  // the group "size" of a coalesced group

// The widest tile the kernels are compiled for: a wave, twice
// MACA_HALF_WARP_SIZE (mc_common.h). A tile wider than the wave has no
// kernel (its shuffles need not compile), and its cases skip themselves.
constexpr unsigned kCompiledWaveLanes = 2 * MACA_HALF_WARP_SIZE;

struct Bytes3 {
  unsigned char b[3];
};
struct Words12 {
  unsigned int w[3];
};
struct Mixed24 {
  double d;
  int i;
  short s;
  char c[10];
};
struct Large40 {
  unsigned long long q[5];
};

// The T whose bytes are thread `t`'s patterns, repeated.
template <class T>
__host__ __device__ T ValueOf(unsigned t) {
  unsigned char bytes[sizeof(T)];
  for (unsigned i = 0; i < sizeof(T); ++i) {
    bytes[i] = static_cast<unsigned char>(Pattern(t, i / 8) >> (8 * (i % 8)));
  }
  T value;
  __builtin_memcpy(static_cast<void*>(&value), bytes, sizeof(T));
  return value;
}

// Each member reads the value of the next rank of its group; the result's
// bytes go to out at the thread's slot.
template <class T, unsigned N>
__global__ void ShuffleNext(T* out) {
  cg::thread_block block = cg::this_thread_block();
  const unsigned t = static_cast<unsigned>(block.thread_rank());
  if constexpr (N == kCoalesced) {
    if (t % 3 != 0) return;
    cg::coalesced_group group = cg::coalesced_threads();
    const unsigned next =
        static_cast<unsigned>((group.thread_rank() + 1) % group.size());
    out[t] = group.shfl(ValueOf<T>(t), static_cast<int>(next));
  } else {
    cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
    out[t] = tile.shfl(ValueOf<T>(t),
                       static_cast<int>((tile.thread_rank() + 1) % N));
  }
}

template <class T>
void CheckType(unsigned group) {
  Managed<T> out(kThreads, 0x77);
  switch (group) {
    case 1:
      ShuffleNext<T, 1><<<1, kThreads>>>(out.get());
      break;
    case 2:
      ShuffleNext<T, 2><<<1, kThreads>>>(out.get());
      break;
    case 4:
      ShuffleNext<T, 4><<<1, kThreads>>>(out.get());
      break;
    case 8:
      ShuffleNext<T, 8><<<1, kThreads>>>(out.get());
      break;
    case 16:
      ShuffleNext<T, 16><<<1, kThreads>>>(out.get());
      break;
    case 32:
      ShuffleNext<T, 32><<<1, kThreads>>>(out.get());
      break;
    case 64:
      if constexpr (64 <= kCompiledWaveLanes) {
        ShuffleNext<T, 64><<<1, kThreads>>>(out.get());
      }
      break;
    default:
      ShuffleNext<T, kCoalesced><<<1, kThreads>>>(out.get());
      break;
  }
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned t = 0; t < kThreads; ++t) {
    unsigned source;
    if (group == kCoalesced) {
      if (t % 3 != 0) continue;
      // Members: the threads of t's wave whose linear id is a multiple
      // of 3; the next one, or the wave's first after the last. The wave
      // is the backend's (wave_size), so the group's lanes follow it.
      const unsigned lanes = mxcts::conformance::ClaimedWaveSize();
      const unsigned wave = t / lanes * lanes;
      source = t + 3 < wave + lanes ? t + 3 : (wave + 2) / 3 * 3;
    } else {
      source = t / group * group + (t % group + 1) % group;
    }
    const T expected = ValueOf<T>(source);
    ASSERT_EQ(std::memcmp(&out[t], &expected, sizeof(T)), 0)
        << "thread " << t << " expected the bytes of thread " << source;
  }
}

enum class Type {
  kChar,
  kShort,
  kInt,
  kUnsigned,
  kLong,
  kLongLong,
  kUnsignedLongLong,
  kFloat,
  kDouble,
  kHalf,
  kHalf2,
  kBfloat16,
  kBytes3,
  kWords12,
  kMixed24,
  kLarge40,
};

const char* TypeName(Type type) {
  switch (type) {
    case Type::kChar:
      return "Char";
    case Type::kShort:
      return "Short";
    case Type::kInt:
      return "Int";
    case Type::kUnsigned:
      return "Unsigned";
    case Type::kLong:
      return "Long";
    case Type::kLongLong:
      return "LongLong";
    case Type::kUnsignedLongLong:
      return "UnsignedLongLong";
    case Type::kFloat:
      return "Float";
    case Type::kDouble:
      return "Double";
    case Type::kHalf:
      return "Half";
    case Type::kHalf2:
      return "Half2";
    case Type::kBfloat16:
      return "Bfloat16";
    case Type::kBytes3:
      return "Struct3Bytes";
    case Type::kWords12:
      return "Struct12Bytes";
    case Type::kMixed24:
      return "Struct24BytesMixed";
    case Type::kLarge40:
      return "Struct40Bytes";
  }
  return "?";
}

struct TypeCase {
  Type type;
  unsigned group;
};

void PrintTo(const TypeCase& c, std::ostream* os) {
  *os << TypeName(c.type) << "_";
  if (c.group == kCoalesced) {
    *os << "CoalescedEveryThirdLane";
  } else {
    *os << "Tile" << c.group;
  }
}

#ifdef MX_SHUFFLE_TYPES_OVER_32_BYTES
constexpr Type kFirstType = Type::kLarge40;
constexpr Type kLastType = Type::kLarge40;
#else
constexpr Type kFirstType = Type::kChar;
constexpr Type kLastType = Type::kMixed24;
#endif

std::vector<TypeCase> AllCases() {
  std::vector<TypeCase> cases;
  for (int type = static_cast<int>(kFirstType);
       type <= static_cast<int>(kLastType); ++type) {
    for (unsigned group : {1u, 2u, 4u, 8u, 16u, 32u, 64u, kCoalesced}) {
      cases.push_back({static_cast<Type>(type), group});
    }
  }
  return cases;
}

class ShuffleTypesTest : public testing::TestWithParam<TypeCase> {};

TEST_P(ShuffleTypesTest, ValueArrivesBitForBit) {
  MX_SPEC("api.coop.tile.shfl-types", "api.coop.tile.shfl");
  const unsigned group = GetParam().group;
  if (group != kCoalesced) {
    MX_REQUIRE_CAPABILITY_AT_LEAST("wave_size", static_cast<int>(group));
  }
  switch (GetParam().type) {
    case Type::kChar:
      return CheckType<char>(group);
    case Type::kShort:
      return CheckType<short>(group);
    case Type::kInt:
      return CheckType<int>(group);
    case Type::kUnsigned:
      return CheckType<unsigned>(group);
    case Type::kLong:
      return CheckType<long>(group);
    case Type::kLongLong:
      return CheckType<long long>(group);
    case Type::kUnsignedLongLong:
      return CheckType<unsigned long long>(group);
    case Type::kFloat:
      return CheckType<float>(group);
    case Type::kDouble:
      return CheckType<double>(group);
    case Type::kHalf:
      return CheckType<__half>(group);
    case Type::kHalf2:
      return CheckType<__half2>(group);
    case Type::kBfloat16:
      return CheckType<__maca_bfloat16>(group);
    case Type::kBytes3:
      return CheckType<Bytes3>(group);
    case Type::kWords12:
      return CheckType<Words12>(group);
    case Type::kMixed24:
      return CheckType<Mixed24>(group);
    case Type::kLarge40:
#ifdef MX_SHUFFLE_TYPES_OVER_32_BYTES
      return CheckType<Large40>(group);
#else
      break;
#endif
  }
  FAIL() << TypeName(GetParam().type) << " is not a type of this target";
}

INSTANTIATE_TEST_SUITE_P(TypesAndGroups, ShuffleTypesTest,
                         testing::ValuesIn(AllCases()), cg_test::ParamName());

}  // namespace
