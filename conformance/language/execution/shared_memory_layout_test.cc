// Copyright mxcts authors.
//
// Conformance: the lifetime of `__shared__` variables and the layout of the
// dynamic shared memory region (docs/spec/lang-variable-spaces.md,
// "__shared__"): a variable keeps what the block wrote for the whole block
// and every block sets up its own; the dynamic region starts aligned for
// every `extern __shared__` element type and for 16 bytes, with or without
// static variables beside it; arrays carved out of it by offsets are
// disjoint and keep their values.

#include <mc_runtime.h>

#include <cstdint>
#include <string>
#include <tuple>

#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::ManagedBuffer;

// --- Lifetime. ---

__device__ __noinline__ void Touch(volatile int* slot) { (void)*slot; }

// Thread 0 writes a block-specific value; the block then passes several
// barriers and a call, and every thread reads the value at the end.
__global__ void KeepForTheBlock(int* out, int rounds) {
  __shared__ int value;
  if (threadIdx.x == 0) value = 1000 + blockIdx.x;
  for (int i = 0; i < rounds; ++i) {
    __syncthreads();
    Touch(&value);
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

// Every block counts its threads into a shared counter it zeroes first:
// right whatever an earlier block or launch left in that memory.
__global__ void CountThreads(int* out, int leave) {
  __shared__ int counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  atomicAdd(&counter, 1);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = counter;
  __syncthreads();
  // Leave something else behind for the next block and launch.
  if (threadIdx.x == 0) counter = leave;
}

TEST(SharedLifetime, ValueLastsUntilTheEndOfTheBlock) {
  MX_SPEC("lang.variable.shared.lifetime-of-block");
  const int blocks = 4, threads = 96;
  ManagedBuffer<int> out(blocks * threads, 0xff);
  KeepForTheBlock<<<blocks, threads>>>(out.get(), 5);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < threads; ++t) {
      EXPECT_EQ(out[b * threads + t], 1000 + b) << "block " << b;
    }
  }
}

TEST(SharedLifetime, EachBlockInitializesItsOwn) {
  MX_SPEC("lang.variable.shared.lifetime-of-block");
  const int blocks = 5;
  ManagedBuffer<int> out(blocks, 0xff);
  CountThreads<<<blocks, 64>>>(out.get(), 0x7fff0000);
  CountThreads<<<blocks, 64>>>(out.get(), -5);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int b = 0; b < blocks; ++b) EXPECT_EQ(out[b], 64) << "block " << b;
  // Control: the count follows the block's size, so a stale counter would
  // show.
  CountThreads<<<blocks, 32>>>(out.get(), 7);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int b = 0; b < blocks; ++b) EXPECT_EQ(out[b], 32) << "block " << b;
}

// --- Alignment of the dynamic region. ---

struct alignas(32) Wide32 {
  char bytes[32];
};

struct alignas(64) Wide64 {
  char bytes[64];
};

// The start of the dynamic region as seen through an array of `Type`, with
// an odd-sized static variable beside it when `with_static`, and the
// launcher of that kernel. Each element type has its own kernel and array
// name: `extern` declarations of one name declare one variable, which C++
// does not allow to have several types.
#define MX_DYNAMIC_START(Type, Name)                                     \
  __global__ void DynamicStartOf##Name(std::uintptr_t* out,              \
                                       bool with_static) {               \
    extern __shared__ Type dynamic_##Name[];                             \
    __shared__ char odd[3];                                              \
    if (with_static) {                                                   \
      odd[threadIdx.x % 3] = 1;                                          \
      out[1] = reinterpret_cast<std::uintptr_t>(odd);                    \
    }                                                                    \
    out[0] = reinterpret_cast<std::uintptr_t>(dynamic_##Name);           \
  }                                                                      \
  void LaunchDynamicStartOf##Name(std::uintptr_t* out, bool with_static, \
                                  size_t ns) {                           \
    DynamicStartOf##Name<<<2, 4, ns>>>(out, with_static);                \
  }

MX_DYNAMIC_START(char, Char)
MX_DYNAMIC_START(short, Short)
MX_DYNAMIC_START(double, Double)
MX_DYNAMIC_START(float4, Float4)
MX_DYNAMIC_START(double2, Double2)
MX_DYNAMIC_START(Wide32, Wide32)
MX_DYNAMIC_START(Wide64, Wide64)

struct AlignmentCase {
  const char* type;
  size_t alignment;
  void (*launch)(std::uintptr_t*, bool, size_t);
};

class DynamicRegionAlignment
    : public testing::TestWithParam<std::tuple<AlignmentCase, size_t, bool>> {};

TEST_P(DynamicRegionAlignment, StartsAlignedForItsElementsAndSixteen) {
  MX_SPEC("lang.variable.shared.extern-alignment");
  const auto& [c, ns, with_static] = GetParam();
  ManagedBuffer<std::uintptr_t> out(2, 0);
  c.launch(out.get(), with_static, ns);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_NE(out[0], 0u);
  const size_t required = c.alignment > 16 ? c.alignment : 16;
  EXPECT_EQ(out[0] % required, 0u)
      << c.type << " region at 0x" << std::hex << out[0];
}

const AlignmentCase kAlignmentCases[] = {
    {"char", alignof(char), &LaunchDynamicStartOfChar},
    {"short", alignof(short), &LaunchDynamicStartOfShort},
    {"double", alignof(double), &LaunchDynamicStartOfDouble},
    {"float4", alignof(float4), &LaunchDynamicStartOfFloat4},
    {"double2", alignof(double2), &LaunchDynamicStartOfDouble2},
    {"Wide32", alignof(Wide32), &LaunchDynamicStartOfWide32},
    {"Wide64", alignof(Wide64), &LaunchDynamicStartOfWide64},
};

INSTANTIATE_TEST_SUITE_P(
    Types, DynamicRegionAlignment,
    testing::Combine(testing::ValuesIn(kAlignmentCases),
                     testing::Values(size_t{64}, size_t{128}, size_t{4096}),
                     testing::Bool()),
    [](const testing::TestParamInfo<DynamicRegionAlignment::ParamType>& info) {
      return std::string(std::get<0>(info.param).type) + "_Ns" +
             std::to_string(std::get<1>(info.param)) +
             (std::get<2>(info.param) ? "_WithStatic" : "_Alone");
    });

// Control: the check can fail; a pointer one byte into the region is not
// 16-byte aligned.
TEST(DynamicRegionAlignmentControl, AnOffsetStartIsCaught) {
  MX_SPEC("lang.variable.shared.extern-alignment");
  ManagedBuffer<std::uintptr_t> out(2, 0);
  LaunchDynamicStartOfChar(out.get(), false, 64);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_NE((out[0] + 1) % 16, 0u);
}

// --- Carving the region into arrays. ---

constexpr int kShorts = 128, kFloats = 64, kInts = 256;
constexpr size_t kCarvedBytes =
    kShorts * sizeof(short) + kFloats * sizeof(float) + kInts * sizeof(int);

// The spec's example: `short[128]`, then `float[64]`, then `int[256]`, by
// offsets from one `extern __shared__` array; every element is written by
// one thread and read back by another after a barrier. `float_offset` is
// where the floats start, in shorts (128 for the disjoint layout).
__global__ void CarveAndCheck(int* mismatches, int float_offset) {
  extern __shared__ char region[];
  short* shorts = reinterpret_cast<short*>(region);
  float* floats = reinterpret_cast<float*>(&shorts[float_offset]);
  int* ints = reinterpret_cast<int*>(&floats[kFloats]);
  const int t = threadIdx.x;  // 256 threads
  if (t < kShorts) shorts[t] = static_cast<short>(-t);
  if (t < kFloats) floats[t] = 0.5f * t;
  ints[t] = 100000 + t;
  __syncthreads();
  const int u = (t + 37) % 256;  // another thread's elements
  int bad = 0;
  if (u < kShorts && shorts[u] != static_cast<short>(-u)) ++bad;
  if (u < kFloats && floats[u] != 0.5f * u) ++bad;
  if (ints[u] != 100000 + u) ++bad;
  atomicAdd(mismatches, bad);
}

TEST(SharedCarving, ThreeArraysByOffsetsAreDisjoint) {
  MX_SPEC("lang.variable.shared.carving-by-offsets",
          "lang.variable.shared.extern-sized-by-ns");
  ManagedBuffer<int> mismatches(1, 0);
  CarveAndCheck<<<3, 256, kCarvedBytes>>>(mismatches.get(), kShorts);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(mismatches[0], 0);
}

TEST(SharedCarvingControl, OverlappingArraysAreCaught) {
  MX_SPEC("lang.variable.shared.carving-by-offsets");
  // Floats placed over the last 64 shorts: the arrays overlap, and the
  // check sees the clobbered elements.
  ManagedBuffer<int> mismatches(1, 0);
  CarveAndCheck<<<1, 256, kCarvedBytes>>>(mismatches.get(), kShorts - 64);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_GT(mismatches[0], 0);
}

}  // namespace
