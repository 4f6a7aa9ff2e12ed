// Conformance: what the cooperative-groups tests share
// (docs/spec/api-cooperative-groups.md): the block shapes and tile sizes they
// are parameterized over, per-thread values with distinct bits, managed
// result arrays, and the host's view of a block (linear ids, waves).
//
// Kernels store each thread's result at its linear thread id (plus the
// block's offset), so the host checks thread `id` knowing its rank.
//
//   for (const cg_test::Shape& shape : cg_test::kShapes) ...
//   cg_test::Managed<unsigned long long> out(shape.threads());
//   Kernel<<<1, shape.dims()>>>(out.get());

#ifndef MXCTS_CONFORMANCE_API_COOPERATIVE_GROUPS_EXECUTION_CG_TEST_SUPPORT_H_
#define MXCTS_CONFORMANCE_API_COOPERATIVE_GROUPS_EXECUTION_CG_TEST_SUPPORT_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/printed_param_name.h"

namespace cg_test {

// MXMACA's wave; the backend's is mxcts::conformance::ClaimedWaveSize()
// (claimed.h), which a check of what a wave holds uses.
constexpr unsigned kWaveLanes = 64;

// A block shape. Every shape's thread count is a multiple of 64, so every
// tile size divides it; the partial-wave shapes are in kPartialShapes.
struct Shape {
  const char* name;
  unsigned x, y, z;

  dim3 dims() const { return dim3(x, y, z); }
  unsigned threads() const { return x * y * z; }
};

inline void PrintTo(const Shape& shape, std::ostream* os) { *os << shape.name; }

constexpr Shape kShapes[] = {
    {"Threads64", 64, 1, 1},     {"Threads128", 128, 1, 1},
    {"Threads1024", 1024, 1, 1}, {"Block8x8", 8, 8, 1},
    {"Block16x4x2", 16, 4, 2},   {"Block32x6", 32, 6, 1},
};

// Shapes of every kind, for the rules that do not partition: odd sizes,
// partial waves, 2D and 3D.
constexpr Shape kAnyShapes[] = {
    {"Threads1", 1, 1, 1},       {"Threads63", 63, 1, 1},
    {"Threads65", 65, 1, 1},     {"Threads96", 96, 1, 1},
    {"Threads1024", 1024, 1, 1}, {"Block13x5", 13, 5, 1},
    {"Block10x10x3", 10, 10, 3}, {"Block32x32", 32, 32, 1},
    {"Block4x4x64", 4, 4, 64},
};

// The tile sizes: every power of two from 1 to the wave.
constexpr unsigned kTileSizes[] = {1, 2, 4, 8, 16, 32, 64};

// A tile size and a block shape, as one test parameter.
struct TileCase {
  unsigned tile;
  Shape shape;
};

inline void PrintTo(const TileCase& c, std::ostream* os) {
  *os << "Tile" << c.tile << "_" << c.shape.name;
}

// Every tile size with every shape of kShapes.
inline std::vector<TileCase> AllTileCases() {
  std::vector<TileCase> cases;
  for (unsigned tile : kTileSizes) {
    for (const Shape& shape : kShapes) cases.push_back({tile, shape});
  }
  return cases;
}

// A well-mixed 64-bit pattern, different for every (id, salt).
__host__ __device__ inline unsigned long long Pattern(unsigned id,
                                                      unsigned salt) {
  unsigned long long z = (id + 1ull) * 0x9e3779b97f4a7c15ull +
                         (salt + 1ull) * 0xd1b54a32d192ed03ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The calling thread's linear id in its block.
__device__ inline unsigned LinearId() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// The calling thread's index in the whole grid: its block's linear index
// times the block's threads plus LinearId().
__device__ inline unsigned GlobalId() {
  const unsigned block =
      blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  return block * blockDim.x * blockDim.y * blockDim.z + LinearId();
}

// Result arrays and test names shared with other chapters' tests.
template <class T>
using Managed = mxcts::conformance::ManagedBuffer<T>;
using ParamName = mxcts::conformance::PrintedParamName;

// Calls `body.template operator()<N>()`-style dispatch: runs
// `Run<N>(args...)` of `Launcher` for the tile size N given at run time.
#define CG_TEST_DISPATCH_TILE(tile, RUN, ...) \
  do {                                        \
    switch (tile) {                           \
      case 1:                                 \
        RUN<1>(__VA_ARGS__);                  \
        break;                                \
      case 2:                                 \
        RUN<2>(__VA_ARGS__);                  \
        break;                                \
      case 4:                                 \
        RUN<4>(__VA_ARGS__);                  \
        break;                                \
      case 8:                                 \
        RUN<8>(__VA_ARGS__);                  \
        break;                                \
      case 16:                                \
        RUN<16>(__VA_ARGS__);                 \
        break;                                \
      case 32:                                \
        RUN<32>(__VA_ARGS__);                 \
        break;                                \
      default:                                \
        RUN<64>(__VA_ARGS__);                 \
        break;                                \
    }                                         \
  } while (0)

}  // namespace cg_test

#endif  // MXCTS_CONFORMANCE_API_COOPERATIVE_GROUPS_EXECUTION_CG_TEST_SUPPORT_H_
