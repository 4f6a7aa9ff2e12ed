// Copyright mxcts authors.
//
// Conformance: device code that reaches past the end of a __shared__
// variable or of the dynamic shared memory (docs/spec/lang-undefined-
// behaviour.md, lang.ub.memory.out-of-bounds-shared). The behaviour is
// undefined; the tests check what the spec says the reference does in
// checked mode (MXCTS_MEMCHECK=1): a trap with mcErrorIllegalAddress that
// names the variable, whether the access lands just past the end, inside
// what would be another variable, or far beyond. Each runs in a fresh
// process with the variable set; the controls access the last element
// under the same setting. The static variables' guard pages are checked
// mode's, so those traps are checked where the backend claims
// checked_memory.

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

using mxcts::conformance::ScopedEnvironment;

// Thread 0 writes element `index` of a 256-int __shared__ array declared
// before another one; the others only fill their elements.
__global__ void StaticOverrun(int index, int* out) {
  __shared__ int tile[256];
  __shared__ int neighbour[256];
  tile[threadIdx.x] = 1;
  neighbour[threadIdx.x] = 2;
  __syncthreads();
  if (threadIdx.x == 0) tile[index] = 7;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x] + neighbour[threadIdx.x];
}

// Thread 0 writes byte `index` of the dynamic shared memory.
__global__ void DynamicOverrun(long long index, int* out) {
  extern __shared__ unsigned char area[];
  if (threadIdx.x == 0) area[index] = 1;
  *out = 1;
}

mcError_t RunStatic(int index) {
  int* out = nullptr;
  if (mcMalloc(&out, 256 * sizeof(int)) != mcSuccess) return mcErrorUnknown;
  StaticOverrun<<<2, 256>>>(index, out);
  return mcDeviceSynchronize();
}

mcError_t RunDynamic(size_t bytes, long long index) {
  int* out = nullptr;
  if (mcMalloc(&out, sizeof(int)) != mcSuccess) return mcErrorUnknown;
  DynamicOverrun<<<1, 32, bytes>>>(index, out);
  return mcDeviceSynchronize();
}

class SharedOverrun : public testing::TestWithParam<int> {};

TEST_P(SharedOverrun, PastTheEndOfAStaticVariableTrapsNamingIt) {
  MX_SPEC("lang.ub.memory.out-of-bounds-shared",
          "api.trap.error.illegal-address");
  MX_REQUIRE_CAPABILITY("checked_memory");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  const int index = GetParam();
  const std::string pattern =
      "StaticOverrun.*thread \\(0,0,0\\): out-of-bounds access to shared "
      "memory at 0x[0-9a-f]+, " +
      std::to_string((index - 256) * 4) +
      " bytes past the end of __shared__ variable 'tile' \\(1024 bytes\\)";
  MX_EXPECT_TRAP(RunStatic(index), mcErrorIllegalAddress, pattern.c_str());
}

// One past the end; an index that would reach into `neighbour` in a packed
// layout (the s[1000] of a 256-element array); far beyond.
INSTANTIATE_TEST_SUITE_P(Indices, SharedOverrun,
                         testing::Values(256, 300, 1000, 100000),
                         [](const testing::TestParamInfo<int>& info) {
                           return "Index" + std::to_string(info.param);
                         });

TEST(SharedOverrun, LastElementIsInBounds) {
  MX_SPEC("lang.ub.memory.out-of-bounds-shared");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(RunStatic(255) == mcSuccess &&
                                   RunStatic(0) == mcSuccess);
}

TEST(SharedOverrun, PastTheEndOfTheDynamicAreaTraps) {
  MX_SPEC("lang.ub.memory.out-of-bounds-shared");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  MX_EXPECT_TRAP(RunDynamic(4096, 4096), mcErrorIllegalAddress,
                 "DynamicOverrun.*out-of-bounds access to shared memory at "
                 "0x[0-9a-f]+, 0 bytes past the end of the dynamic shared "
                 "memory \\(extern __shared__\\) \\(4096 bytes\\)");
}

TEST(SharedOverrun, LastDynamicByteIsInBounds) {
  MX_SPEC("lang.ub.memory.out-of-bounds-shared");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(RunDynamic(4096, 4095) == mcSuccess);
}

}  // namespace
