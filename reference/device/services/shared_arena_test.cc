// Copyright mxcts authors.
//
// Tests of the shared memory arena: the layout of static variables and the
// dynamic area, the limit, fresh contents per block; directly and through
// kernels.

#include "reference/device/services/shared_arena.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mcr/detail/device_abi.h"
#include "reference/device/engine.h"
#include "reference/device/engine_test_util.h"

namespace mxcts::device {
namespace {

using device_internal::SharedArena;
using ::testing::HasSubstr;

char* Address(const absl::StatusOr<void*>& address) {
  EXPECT_TRUE(address.ok()) << address.status();
  return static_cast<char*>(address.ok() ? *address : nullptr);
}

TEST(SharedArena, SameSiteGivesSameAddress) {
  // [lang.variable.shared.one-instance-per-block]
  SharedArena arena;
  ASSERT_TRUE(arena.BeginGrid(0).ok());
  arena.BeginBlock();
  char site;
  EXPECT_EQ(Address(arena.Variable(&site, 40, 4)),
            Address(arena.Variable(&site, 40, 4)));
}

TEST(SharedArena, DistinctSitesAreDisjointAndAligned) {
  // [lang.variable.shared.static-variables-disjoint]
  SharedArena arena;
  ASSERT_TRUE(arena.BeginGrid(0).ok());
  arena.BeginBlock();
  char a, b, c;
  char* first = Address(arena.Variable(&a, 3, 1));
  char* second = Address(arena.Variable(&b, 16, 8));
  char* third = Address(arena.Variable(&c, 256, 128));
  EXPECT_EQ(first, arena.base());
  EXPECT_GE(second, first + 3);
  EXPECT_GE(third, second + 16);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(second) % 8, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(third) % 128, 0u);
  EXPECT_EQ(arena.static_bytes(), static_cast<size_t>(third + 256 - first));
}

TEST(SharedArena, SiteWithAnotherSizeIsRejected) {
  SharedArena arena;
  ASSERT_TRUE(arena.BeginGrid(0).ok());
  arena.BeginBlock();
  char site;
  ASSERT_TRUE(arena.Variable(&site, 8, 4).ok());
  EXPECT_EQ(arena.Variable(&site, 16, 4).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(arena.Variable(&site, 8, 3).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SharedArena, DynamicAreaEndsTheArenaAlignedTo16) {
  // [lang.variable.shared.extern-alignment]
  // [lang.variable.shared.extern-disjoint-from-static]
  SharedArena arena;
  ASSERT_TRUE(arena.BeginGrid(100).ok());
  arena.BeginBlock();
  char* base = static_cast<char*>(arena.base());
  char* dynamic = static_cast<char*>(arena.dynamic_area());
  EXPECT_EQ(dynamic, base + kSharedBytesPerBlock - 112);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(dynamic) % 16, 0u);
  std::memset(dynamic, 7, 100);  // All 100 bytes are usable.
  ASSERT_TRUE(arena.BeginGrid(0).ok());
  EXPECT_EQ(static_cast<char*>(arena.dynamic_area()),
            base + kSharedBytesPerBlock);
}

TEST(SharedArena, StaticPlusDynamicUpToTheLimitFits) {
  // [lang.launch.limit.max-values-accepted]
  SharedArena arena;
  ASSERT_TRUE(arena.BeginGrid(kSharedBytesPerBlock - 64).ok());
  arena.BeginBlock();
  char a, b;
  EXPECT_TRUE(arena.Variable(&a, 32, 16).ok());
  EXPECT_TRUE(arena.Variable(&b, 32, 16).ok());
}

TEST(SharedArena, StaticPlusDynamicBeyondTheLimitIsExhausted) {
  // [lang.launch.limit.shared-memory-exceeds-max] Control of the test above.
  SharedArena arena;
  ASSERT_TRUE(arena.BeginGrid(kSharedBytesPerBlock - 64).ok());
  arena.BeginBlock();
  char a, b;
  EXPECT_TRUE(arena.Variable(&a, 32, 16).ok());
  EXPECT_EQ(arena.Variable(&b, 33, 1).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(arena.BeginGrid(kSharedBytesPerBlock + 1).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SharedArena, CheckedVariablesEndAtInaccessibleMemory) {
  // [lang.ub.memory.out-of-bounds-shared]
  SharedArena arena(/*checked=*/true);
  ASSERT_TRUE(arena.BeginGrid(100).ok());
  arena.BeginBlock();
  char tile_site;
  char flag_site;
  char* tile = Address(arena.Variable(&tile_site, 1024, 4, "tile"));
  char* flag = Address(arena.Variable(&flag_site, 1, 1, nullptr));
  ASSERT_NE(tile, nullptr);
  ASSERT_NE(flag, nullptr);
  // Usable, and fresh.
  EXPECT_EQ(static_cast<unsigned char>(tile[1023]), SharedArena::kFreshByte);
  tile[0] = 1;
  tile[1023] = 2;
  std::string description;
  const uintptr_t end = reinterpret_cast<uintptr_t>(tile) + 1024;
  ASSERT_TRUE(arena.DescribeFault(end + 8, &description));
  EXPECT_THAT(description,
              HasSubstr("8 bytes past the end of __shared__ variable 'tile' "
                        "(1024 bytes)"));
  ASSERT_TRUE(arena.DescribeFault(reinterpret_cast<uintptr_t>(flag) + 1 + 4000,
                                  &description));
  EXPECT_THAT(description, HasSubstr("4000 bytes past the end of a __shared__ "
                                     "variable (1 bytes)"));
  char* dynamic = static_cast<char*>(arena.dynamic_area());
  ASSERT_TRUE(arena.DescribeFault(reinterpret_cast<uintptr_t>(dynamic) + 112,
                                  &description));
  EXPECT_THAT(description, HasSubstr("0 bytes past the end of the dynamic "
                                     "shared memory"));
  // Control: the budget is the packed one, and an address outside the arena
  // is not the arena's.
  EXPECT_EQ(arena.static_bytes(), 1025u);
  int elsewhere = 0;
  EXPECT_FALSE(arena.DescribeFault(reinterpret_cast<uintptr_t>(&elsewhere),
                                   &description));
}

TEST(SharedMemory, CheckedOverrunTrapsNamingTheVariable) {
  SetSharedMemoryChecked(true);
  RunResult result = RunCapturingStderr(
      "Overrun",
      [](void**) {
        static char site;
        int* tile = static_cast<int*>(__mc_dev_shared_variable(
            &site, 64 * sizeof(int), alignof(int), "tile"));
        if (threadIdx.x == 0) tile[64 + 100] = 1;
      },
      {}, dim3(1), dim3(2));
  SetSharedMemoryChecked(false);
  EXPECT_EQ(result.error, mcErrorIllegalAddress);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("400 bytes past the end of __shared__ variable 'tile' "
                        "(256 bytes)"));
}

TEST(SharedArena, EveryBlockStartsWithFreshBytes) {
  // [lang.variable.shared.lifetime-of-block]
  SharedArena arena;
  ASSERT_TRUE(arena.BeginGrid(16).ok());
  arena.BeginBlock();
  char site;
  char* variable = Address(arena.Variable(&site, 8, 1));
  std::memset(variable, 1, 8);
  std::memset(arena.dynamic_area(), 2, 16);
  arena.BeginBlock();
  EXPECT_EQ(Address(arena.Variable(&site, 8, 1)), variable);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(static_cast<unsigned char>(variable[i]), SharedArena::kFreshByte);
  }
  EXPECT_EQ(static_cast<unsigned char*>(arena.dynamic_area())[15],
            SharedArena::kFreshByte);
}

// Kernels.

struct Addresses {
  uintptr_t first;
  uintptr_t second;
  uintptr_t dynamic;
};

// Thread 0 of each block records where its variables are; thread 1 asks
// for the first one again.
void RecordAddresses(void** args) {
  static char first_site;
  static char second_site;
  Addresses* out = Arg<Addresses*>(args, 0);
  const unsigned block = blockIdx.x;
  void* first = __mc_dev_shared_variable(&first_site, 12, 4);
  if (threadIdx.x == 0) {
    out[block].first = reinterpret_cast<uintptr_t>(first);
    out[block].second = reinterpret_cast<uintptr_t>(
        __mc_dev_shared_variable(&second_site, 64, 64));
    out[block].dynamic = reinterpret_cast<uintptr_t>(__mc_dev_dynamic_shared());
  } else if (reinterpret_cast<uintptr_t>(first) != out[block].first) {
    out[block].first = 0;
  }
}

TEST(SharedMemory, LayoutIsStableAcrossBlocks) {
  std::vector<Addresses> seen(3);
  Addresses* data = seen.data();
  RunResult result = RunCapturingStderr("RecordAddresses", &RecordAddresses,
                                        {&data}, dim3(3), dim3(2), 48);
  ASSERT_EQ(result.error, mcSuccess) << result.stderr_text;
  for (const Addresses& a : seen) {
    EXPECT_NE(a.first, 0u);
    EXPECT_EQ(a.first, seen[0].first);
    EXPECT_EQ(a.second, seen[0].second);
    EXPECT_EQ(a.dynamic, seen[0].dynamic);
    EXPECT_EQ(a.second % 64, 0u);
    EXPECT_GE(a.second, a.first + 12);
    // The dynamic area: 48 bytes at the top, past both variables.
    EXPECT_GE(a.dynamic, a.second + 64);
    EXPECT_EQ(a.dynamic % 16, 0u);
  }
}

// Uses a static variable of `bytes` bytes beside the launch's dynamic area.
void UseBigVariable(void** args) {
  static char site;
  const size_t bytes = Arg<size_t>(args, 0);
  char* big = static_cast<char*>(__mc_dev_shared_variable(&site, bytes, 16));
  big[threadIdx.x] = 1;
}

TEST(SharedMemory, VariablesBeyondTheLimitTrapWithInvalidConfiguration) {
  // [lang.variable.shared.static-size-limit]
  size_t bytes = kSharedBytesPerBlock - 1024 + 1;
  RunResult result = RunCapturingStderr("UseBigVariable", &UseBigVariable,
                                        {&bytes}, dim3(1), dim3(2), 1024);
  EXPECT_EQ(result.error, mcErrorInvalidConfiguration);
  EXPECT_THAT(result.stderr_text,
              HasSubstr("mxmaca trap: kernel 'UseBigVariable' block (0,0,0) "
                        "thread (0,0,0): __shared__ variables of 64513 bytes"));
}

TEST(SharedMemory, VariablesUpToTheLimitRun) {
  // Control of the test above.
  size_t bytes = kSharedBytesPerBlock - 1024;
  RunResult result = RunCapturingStderr("UseBigVariable", &UseBigVariable,
                                        {&bytes}, dim3(2), dim3(2), 1024);
  EXPECT_EQ(result.error, mcSuccess) << result.stderr_text;
}

}  // namespace
}  // namespace mxcts::device
