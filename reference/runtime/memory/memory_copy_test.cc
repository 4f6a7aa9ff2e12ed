// Copyright mxcts authors.
//
// Tests of the copy and set planner: the checks in their order, the host
// timing of every combination of memory spaces, and boxes of every shape
// run row by row (with a control for each rejected case).

#include "reference/runtime/memory/memory_copy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/memory/memory_manager.h"

namespace mxcts::runtime {
namespace {

constexpr size_t kCapacity = size_t{1} << 30;

MemoryManager& M() { return MemoryManager::Get(); }

unsigned char* Device(size_t size) {
  absl::StatusOr<void*> p = M().AllocateDevice(0, size, kCapacity);
  EXPECT_TRUE(p.ok()) << p.status();
  return static_cast<unsigned char*>(p.ok() ? *p : nullptr);
}

unsigned char* Host(size_t size) {
  absl::StatusOr<void*> p = M().AllocateHost(0, size, 0);
  EXPECT_TRUE(p.ok()) << p.status();
  return static_cast<unsigned char*>(p.ok() ? *p : nullptr);
}

unsigned char* Managed(size_t size) {
  absl::StatusOr<void*> p = M().AllocateManaged(0, size, 1, kCapacity);
  EXPECT_TRUE(p.ok()) << p.status();
  return static_cast<unsigned char*>(p.ok() ? *p : nullptr);
}

void Release(void* p) {
  EXPECT_TRUE(
      M().Free(p,
               {MemoryKind::kDevice, MemoryKind::kHost, MemoryKind::kManaged},
               "test")
          .ok());
}

mcError_t ErrorOf(const absl::Status& status) { return ToMcError(status); }

TEST(PlanCopy, ChecksInOrder) {
  unsigned char* d = Device(64);
  unsigned char pageable[64] = {};
  // The kind first, even with null pointers and count 0.
  EXPECT_EQ(ErrorOf(PlanLinearCopy(nullptr, nullptr, 0, 9, "t").status()),
            mcErrorInvalidMemcpyDirection);
  EXPECT_EQ(ErrorOf(PlanLinearCopy(nullptr, nullptr, 0, -1, "t").status()),
            mcErrorInvalidMemcpyDirection);
  // Count 0 needs nothing else.
  absl::StatusOr<CopyPlan> empty =
      PlanLinearCopy(nullptr, nullptr, 0, mcMemcpyDefault, "t");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->box.empty());
  // Null pointers.
  EXPECT_EQ(
      ErrorOf(PlanLinearCopy(nullptr, d, 1, mcMemcpyDefault, "t").status()),
      mcErrorInvalidValue);
  EXPECT_EQ(
      ErrorOf(PlanLinearCopy(d, nullptr, 1, mcMemcpyDefault, "t").status()),
      mcErrorInvalidValue);
  // Past the end, then exactly to the end (control).
  EXPECT_EQ(
      ErrorOf(PlanLinearCopy(d + 1, pageable, 64, mcMemcpyHostToDevice, "t")
                  .status()),
      mcErrorInvalidValue);
  EXPECT_TRUE(
      PlanLinearCopy(d + 1, pageable, 63, mcMemcpyHostToDevice, "t").ok());
  // The device side of an explicit kind must be known memory.
  EXPECT_EQ(
      ErrorOf(PlanLinearCopy(pageable, pageable, 8, mcMemcpyHostToDevice, "t")
                  .status()),
      mcErrorInvalidValue);
  EXPECT_EQ(
      ErrorOf(PlanLinearCopy(pageable, pageable, 8, mcMemcpyDeviceToHost, "t")
                  .status()),
      mcErrorInvalidValue);
  EXPECT_TRUE(
      PlanLinearCopy(pageable, pageable, 8, mcMemcpyHostToHost, "t").ok());
  EXPECT_TRUE(PlanLinearCopy(pageable, pageable, 8, mcMemcpyDefault, "t").ok());
  Release(d);
}

TEST(PlanCopy, FreedPointerIsInvalidValue) {
  unsigned char* d = Device(64);
  unsigned char pageable[8] = {};
  ASSERT_TRUE(PlanLinearCopy(pageable, d, 8, mcMemcpyDefault, "t").ok());
  Release(d);
  EXPECT_EQ(
      ErrorOf(PlanLinearCopy(pageable, d, 8, mcMemcpyDefault, "t").status()),
      mcErrorInvalidValue);
}

TEST(PlanCopy, ClassifiesEverySpace) {
  unsigned char* d = Device(16);
  unsigned char* h = Host(16);
  unsigned char* m = Managed(16);
  unsigned char pageable[16];
  absl::StatusOr<CopyPlan> plan =
      PlanLinearCopy(d, h, 16, mcMemcpyDefault, "t");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->dst.space, MemorySpace::kDevice);
  EXPECT_EQ(plan->dst.device, 0);
  EXPECT_EQ(plan->src.space, MemorySpace::kPageLocked);
  plan = PlanLinearCopy(m, pageable, 16, mcMemcpyDefault, "t");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->dst.space, MemorySpace::kManaged);
  EXPECT_EQ(plan->src.space, MemorySpace::kPageable);
  Release(d);
  Release(h);
  Release(m);
}

// --- Timing: one case per combination of spaces and call kind. ---

struct TimingCase {
  const char* name;
  MemorySpace dst;
  MemorySpace src;
  int kind;
  CallKind call;
  HostWait wait;
  bool staged;
};

class Timing : public testing::TestWithParam<TimingCase> {};

TEST_P(Timing, FollowsTheHostSynchronizationRules) {
  const TimingCase& c = GetParam();
  CopyPlan plan;
  plan.dst.space = c.dst;
  plan.src.space = c.src;
  plan.kind = c.kind;
  plan.box.width = 64;
  CopyTiming timing = TimingOf(plan, c.call);
  EXPECT_EQ(timing.wait, c.wait);
  EXPECT_EQ(timing.stage_source, c.staged);
}

using S = MemorySpace;
constexpr auto kSync = CallKind::kSynchronous;
constexpr auto kAsync = CallKind::kAsynchronous;
constexpr auto kWait = HostWait::kUntilDone;
constexpr auto kNoWait = HostWait::kNone;

INSTANTIATE_TEST_SUITE_P(
    AllSpaces, Timing,
    testing::Values(TimingCase{"SyncDtoPageable", S::kPageable, S::kDevice, 2,
                               kSync, kWait, false},
                    TimingCase{"SyncDtoPinned", S::kPageLocked, S::kDevice, 2,
                               kSync, kWait, false},
                    TimingCase{"SyncPageableToD", S::kDevice, S::kPageable, 1,
                               kSync, kNoWait, true},
                    TimingCase{"SyncPinnedToD", S::kDevice, S::kPageLocked, 1,
                               kSync, kWait, false},
                    TimingCase{"SyncDtoD", S::kDevice, S::kDevice, 3, kSync,
                               kNoWait, false},
                    TimingCase{"SyncManagedToD", S::kDevice, S::kManaged, 4,
                               kSync, kNoWait, false},
                    TimingCase{"SyncDtoManaged", S::kManaged, S::kDevice, 4,
                               kSync, kNoWait, false},
                    TimingCase{"SyncPageableToManaged", S::kManaged,
                               S::kPageable, 4, kSync, kNoWait, true},
                    TimingCase{"SyncHostToHostKind", S::kDevice, S::kDevice, 0,
                               kSync, kWait, false},
                    TimingCase{"SyncPageableToPageable", S::kPageable,
                               S::kPageable, 4, kSync, kWait, false},
                    TimingCase{"AsyncDtoPageable", S::kPageable, S::kDevice, 2,
                               kAsync, kWait, false},
                    TimingCase{"AsyncDtoPinned", S::kPageLocked, S::kDevice, 2,
                               kAsync, kNoWait, false},
                    TimingCase{"AsyncPageableToD", S::kDevice, S::kPageable, 1,
                               kAsync, kNoWait, true},
                    TimingCase{"AsyncPinnedToD", S::kDevice, S::kPageLocked, 1,
                               kAsync, kNoWait, false},
                    TimingCase{"AsyncDtoD", S::kDevice, S::kDevice, 3, kAsync,
                               kNoWait, false},
                    TimingCase{"AsyncManagedToPinned", S::kPageLocked,
                               S::kManaged, 4, kAsync, kNoWait, false},
                    TimingCase{"AsyncPinnedToPinned", S::kPageLocked,
                               S::kPageLocked, 4, kAsync, kWait, false},
                    TimingCase{"AsyncHostToHostKind", S::kDevice, S::kDevice, 0,
                               kAsync, kWait, false}),
    [](const testing::TestParamInfo<TimingCase>& info) {
      return std::string(info.param.name);
    });

TEST(TimingLimits, LargePageableSourceWaitsInsteadOfStaging) {
  CopyPlan plan;
  plan.dst.space = MemorySpace::kDevice;
  plan.src.space = MemorySpace::kPageable;
  plan.kind = mcMemcpyHostToDevice;
  plan.box.width = kMaxStagedBytes;
  EXPECT_TRUE(TimingOf(plan, CallKind::kSynchronous).stage_source);
  plan.box.width = kMaxStagedBytes + 1;
  CopyTiming timing = TimingOf(plan, CallKind::kSynchronous);
  EXPECT_FALSE(timing.stage_source);
  EXPECT_EQ(timing.wait, HostWait::kUntilDone);
}

TEST(TimingLimits, SyncMemopsMakesDeviceCopiesWait) {
  CopyPlan plan;
  plan.dst.space = MemorySpace::kDevice;
  plan.src.space = MemorySpace::kDevice;
  plan.kind = mcMemcpyDeviceToDevice;
  plan.box.width = 8;
  EXPECT_EQ(TimingOf(plan, CallKind::kSynchronous).wait, HostWait::kNone);
  plan.src.sync_memops = true;
  EXPECT_EQ(TimingOf(plan, CallKind::kSynchronous).wait, HostWait::kUntilDone);
  EXPECT_EQ(TimingOf(plan, CallKind::kAsynchronous).wait, HostWait::kNone);
}

// --- Boxes. ---

TEST(RunCopy, CopiesA3DBoxBetweenDifferentPitches) {
  // Source: 3 slices of 4 rows of 10 bytes in a 12-byte pitch; destination
  // pitch 16 with 5 rows per slice. Copy 2 slices of 3 rows of 7 bytes.
  std::vector<unsigned char> src(3 * 4 * 12);
  std::iota(src.begin(), src.end(), 0);
  std::vector<unsigned char> dst(3 * 5 * 16, 0xEE);
  MemoryBox box{7, 3, 2};
  absl::StatusOr<CopyPlan> plan =
      PlanCopy(dst.data() + 1, 16, 16 * 5, src.data() + 2, 12, 12 * 4, box,
               mcMemcpyHostToHost, "t");
  ASSERT_TRUE(plan.ok()) << plan.status();
  RunCopy(*plan);
  for (size_t z = 0; z < 3; ++z) {
    for (size_t y = 0; y < 5; ++y) {
      for (size_t x = 0; x < 16; ++x) {
        const unsigned char got = dst[z * 80 + y * 16 + x];
        const bool inside = z < 2 && y < 3 && x >= 1 && x < 8;
        const unsigned char want =
            inside ? src[z * 48 + y * 12 + (x - 1) + 2] : 0xEE;
        ASSERT_EQ(got, want) << z << "," << y << "," << x;
      }
    }
  }
}

TEST(RunCopy, BoxRunningPastTheEndOfAnAllocationIsRejected) {
  // 4 rows of 8 bytes in a pitch of 16: the last row ends at 56.
  unsigned char* d = Device(56);
  std::vector<unsigned char> host(64);
  MemoryBox box{8, 4, 1};
  EXPECT_TRUE(
      PlanCopy(d, 16, 0, host.data(), 8, 0, box, mcMemcpyHostToDevice, "t")
          .ok());
  box.width = 9;  // one more byte in every row: the last row runs past
  EXPECT_EQ(ErrorOf(PlanCopy(d, 16, 0, host.data(), 9, 0, box,
                             mcMemcpyHostToDevice, "t")
                        .status()),
            mcErrorInvalidValue);
  Release(d);
}

TEST(RunCopy, OverflowingBoxIsInvalidValue) {
  unsigned char* d = Device(64);
  MemoryBox box{8, SIZE_MAX / 2, 3};
  EXPECT_EQ(
      ErrorOf(PlanCopy(d, 16, 0, d, 16, 0, box, mcMemcpyDeviceToDevice, "t")
                  .status()),
      mcErrorInvalidValue);
  Release(d);
}

TEST(PlanSet, ChecksAndPatterns) {
  unsigned char* d = Device(64);
  unsigned char pageable[16];
  MemoryBox box{16, 1, 1};
  EXPECT_EQ(ErrorOf(PlanSet(pageable, 16, 16, box, 0, 1, "t").status()),
            mcErrorInvalidValue);
  EXPECT_EQ(ErrorOf(PlanSet(nullptr, 16, 16, box, 0, 1, "t").status()),
            mcErrorInvalidValue);
  EXPECT_TRUE(PlanSet(nullptr, 0, 0, MemoryBox{0, 1, 1}, 0, 1, "t").ok());
  // Alignment of 2- and 4-byte elements.
  EXPECT_EQ(ErrorOf(PlanSet(d + 2, 16, 16, box, 0, 4, "t").status()),
            mcErrorInvalidValue);
  EXPECT_EQ(ErrorOf(PlanSet(d + 1, 16, 16, box, 0, 2, "t").status()),
            mcErrorInvalidValue);
  absl::StatusOr<SetPlan> plan =
      PlanSet(d + 4, 16, 16, box, 0xA1B2C3D4u, 4, "t");
  ASSERT_TRUE(plan.ok());
  std::memset(d, 0, 64);
  RunSet(*plan);
  EXPECT_EQ(d[3], 0);
  EXPECT_EQ(d[4], 0xD4);
  EXPECT_EQ(d[7], 0xA1);
  EXPECT_EQ(d[19], 0xA1);
  EXPECT_EQ(d[20], 0);
  plan = PlanSet(d, 16, 16, MemoryBox{4, 1, 1}, 0xBEEF, 2, "t");
  ASSERT_TRUE(plan.ok());
  RunSet(*plan);
  EXPECT_EQ(d[0], 0xEF);
  EXPECT_EQ(d[1], 0xBE);
  EXPECT_EQ(d[3], 0xBE);
  Release(d);
}

TEST(PlanSet, SetsA2DBoxLeavingPadding) {
  unsigned char* d = Device(4 * 32);
  std::memset(d, 0x11, 4 * 32);
  absl::StatusOr<SetPlan> plan =
      PlanSet(d, 32, 0, MemoryBox{5, 4, 1}, 0x7F, 1, "t");
  ASSERT_TRUE(plan.ok());
  RunSet(*plan);
  for (size_t y = 0; y < 4; ++y) {
    for (size_t x = 0; x < 32; ++x) {
      ASSERT_EQ(d[y * 32 + x], x < 5 ? 0x7F : 0x11) << y << "," << x;
    }
  }
  Release(d);
}

}  // namespace
}  // namespace mxcts::runtime
