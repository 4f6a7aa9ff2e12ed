// Copyright mxcts authors.
//
// Conformance: the errors of bad pitched calls (docs/spec/api-memory.md):
// pitches below the width or above memPitch, invalid kinds, boxes past the
// end of an allocation or outside their slices, arrays and missing
// pointers in mcMemcpy3DParms, bad 2D and 3D sets, and pitched allocations
// that cannot be made. Each case checks that the destination is unchanged
// and has a control call beside it that succeeds.

#include <mc_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::Buffer;
using mxcts::conformance::memory::FreeMemory;
using mxcts::conformance::memory::Kind;

mcError_t Copy2D(bool async, void* dst, size_t dpitch, const void* src,
                 size_t spitch, size_t width, size_t height, int kind) {
  const mcMemcpyKind k = static_cast<mcMemcpyKind>(kind);
  if (!async) return mcMemcpy2D(dst, dpitch, src, spitch, width, height, k);
  const mcError_t result =
      mcMemcpy2DAsync(dst, dpitch, src, spitch, width, height, k);
  return result != mcSuccess ? result : mcStreamSynchronize(0);
}

mcError_t Copy3D(bool async, const mcMemcpy3DParms* p) {
  if (!async) return mcMemcpy3D(p);
  const mcError_t result = mcMemcpy3DAsync(p);
  return result != mcSuccess ? result : mcStreamSynchronize(0);
}

std::string SyncName(const testing::TestParamInfo<bool>& info) {
  return info.param ? "Async" : "Sync";
}

// --- mcMemcpy2D. ---

class Copy2DErrors : public testing::TestWithParam<bool> {};

TEST_P(Copy2DErrors, PitchBelowWidthIsInvalidPitchValue) {
  MX_SPEC("api.memory.memcpy-2d.pitch-less-than-width",
          "api.memory.lifetime.failed-call-changes-nothing");
  const bool async = GetParam();
  Buffer dst(Kind::kDevice, 256, 1);
  Buffer src(Kind::kPageable, 256, 2);
  ASSERT_TRUE(dst.ok() && src.ok());
  for (size_t width : {size_t{2}, size_t{64}}) {
    EXPECT_EQ(Copy2D(async, dst.data(), width - 1, src.data(), width, width, 2,
                     mcMemcpyHostToDevice),
              mcErrorInvalidPitchValue);
    EXPECT_EQ(Copy2D(async, dst.data(), width, src.data(), width - 1, width, 2,
                     mcMemcpyHostToDevice),
              mcErrorInvalidPitchValue);
  }
  EXPECT_EQ(dst.FirstChange(), "");
  // Control: pitches equal to the width.
  EXPECT_EQ(Copy2D(async, dst.data(), 64, src.data(), 64, 64, 2,
                   mcMemcpyHostToDevice),
            mcSuccess);
}

TEST_P(Copy2DErrors, PitchAboveMemPitchIsInvalidPitchValue) {
  MX_SPEC("api.memory.memcpy-2d.pitch-exceeds-maximum");
  const bool async = GetParam();
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  std::vector<unsigned char> dst(16, 1), src(16, 2);
  EXPECT_EQ(Copy2D(async, dst.data(), prop.memPitch + 1, src.data(), 16, 16, 1,
                   mcMemcpyHostToHost),
            mcErrorInvalidPitchValue);
  EXPECT_EQ(Copy2D(async, dst.data(), 16, src.data(), prop.memPitch + 1, 16, 1,
                   mcMemcpyHostToHost),
            mcErrorInvalidPitchValue);
  EXPECT_EQ(dst[0], 1);
  // Control: pitches of exactly memPitch (one row: nothing beyond it).
  EXPECT_EQ(Copy2D(async, dst.data(), prop.memPitch, src.data(), prop.memPitch,
                   16, 1, mcMemcpyHostToHost),
            mcSuccess);
  EXPECT_EQ(dst[15], 2);
}

TEST_P(Copy2DErrors, InvalidKindIsInvalidMemcpyDirection) {
  MX_SPEC("api.memory.memcpy-2d.invalid-kind");
  const bool async = GetParam();
  Buffer dst(Kind::kDevice, 64, 1);
  Buffer src(Kind::kDevice, 64, 2);
  ASSERT_TRUE(dst.ok() && src.ok());
  for (int kind : {-1, 5, 100}) {
    EXPECT_EQ(Copy2D(async, dst.data(), 8, src.data(), 8, 8, 8, kind),
              mcErrorInvalidMemcpyDirection);
  }
  EXPECT_EQ(dst.FirstChange(), "");
  EXPECT_EQ(
      Copy2D(async, dst.data(), 8, src.data(), 8, 8, 8, mcMemcpyDeviceToDevice),
      mcSuccess);
}

// Calls with two things wrong: the order of the checks.

TEST_P(Copy2DErrors, EmptyCopySucceedsWhateverItsKind) {
  MX_SPEC("api.memory.memcpy-2d.zero-extent",
          "api.memory.memcpy-2d.invalid-kind");
  const bool async = GetParam();
  std::vector<unsigned char> dst(16, 1), src(16, 2);
  for (int kind : {-1, 5, 100}) {
    EXPECT_EQ(Copy2D(async, dst.data(), 16, src.data(), 16, 0, 1, kind),
              mcSuccess);
    EXPECT_EQ(Copy2D(async, dst.data(), 16, src.data(), 16, 16, 0, kind),
              mcSuccess);
    // Control: the same kind with something to copy is refused.
    EXPECT_EQ(Copy2D(async, dst.data(), 16, src.data(), 16, 16, 1, kind),
              mcErrorInvalidMemcpyDirection);
  }
  EXPECT_EQ(dst[0], 1);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidMemcpyDirection);
}

TEST_P(Copy2DErrors, PitchBelowWidthWithABadKindIsEitherError) {
  MX_SPEC("api.memory.memcpy-2d.pitch-less-than-width",
          "api.memory.memcpy-2d.invalid-kind");
  const bool async = GetParam();
  std::vector<unsigned char> dst(16, 1), src(16, 2);
  for (int kind : {-1, 5, 100}) {
    // Which of the two broken rules is reported is implementation-defined.
    const mcError_t both_broken =
        Copy2D(async, dst.data(), 15, src.data(), 16, 16, 1, kind);
    EXPECT_TRUE(both_broken == mcErrorInvalidPitchValue ||
                both_broken == mcErrorInvalidMemcpyDirection)
        << mcGetErrorName(both_broken);
    // Control: with the pitch made good, the kind is refused.
    EXPECT_EQ(Copy2D(async, dst.data(), 16, src.data(), 16, 16, 1, kind),
              mcErrorInvalidMemcpyDirection);
  }
  EXPECT_EQ(dst[0], 1);
  mcGetLastError();
}

TEST_P(Copy2DErrors, PitchBelowWidthComesBeforeTheKindInTheReference) {
  MX_SPEC("api.memory.memcpy-2d.invalid-kind");
  MX_REQUIRE_CAPABILITY("reference_choices");
  const bool async = GetParam();
  std::vector<unsigned char> dst(16, 1), src(16, 2);
  for (int kind : {-1, 5, 100}) {
    EXPECT_EQ(Copy2D(async, dst.data(), 15, src.data(), 16, 16, 1, kind),
              mcErrorInvalidPitchValue);
    // Control: with the pitch made good, the kind is refused.
    EXPECT_EQ(Copy2D(async, dst.data(), 16, src.data(), 16, 16, 1, kind),
              mcErrorInvalidMemcpyDirection);
  }
  EXPECT_EQ(dst[0], 1);
  mcGetLastError();
}

TEST_P(Copy2DErrors, KindComesBeforeThePitchMaximum) {
  MX_SPEC("api.memory.memcpy-2d.invalid-kind",
          "api.memory.memcpy-2d.pitch-exceeds-maximum");
  const bool async = GetParam();
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  std::vector<unsigned char> dst(16, 1), src(16, 2);
  for (int kind : {-1, 5, 100}) {
    EXPECT_EQ(Copy2D(async, dst.data(), prop.memPitch + 1, src.data(), 16, 16,
                     1, kind),
              mcErrorInvalidMemcpyDirection);
    EXPECT_EQ(Copy2D(async, dst.data(), 16, src.data(), prop.memPitch + 1, 16,
                     1, kind),
              mcErrorInvalidMemcpyDirection);
  }
  EXPECT_EQ(dst[0], 1);
  // Control: with a valid kind the same pitch is refused on its own (with
  // the error of [api.memory.memcpy-2d.pitch-exceeds-maximum], which its
  // own test checks).
  const mcError_t alone = Copy2D(async, dst.data(), prop.memPitch + 1,
                                 src.data(), 16, 16, 1, mcMemcpyHostToHost);
  EXPECT_NE(alone, mcSuccess);
  EXPECT_NE(alone, mcErrorInvalidMemcpyDirection);
  EXPECT_EQ(dst[0], 1);
  mcGetLastError();
}

TEST_P(Copy2DErrors, LastRowPastTheEndIsInvalidValue) {
  MX_SPEC("api.memory.memcpy-2d.past-end-of-allocation",
          "api.memory.lifetime.failed-call-changes-nothing");
  const bool async = GetParam();
  // 3 rows of 10 bytes in a pitch of 16 end at byte 42.
  Buffer device(Kind::kDevice, 42, 1);
  Buffer host(Kind::kPageable, 64, 2);
  ASSERT_TRUE(device.ok() && host.ok());
  EXPECT_EQ(Copy2D(async, device.data(), 16, host.data(), 16, 11, 3,
                   mcMemcpyHostToDevice),
            mcErrorInvalidValue);
  EXPECT_EQ(Copy2D(async, host.data(), 16, device.data(), 16, 11, 3,
                   mcMemcpyDeviceToHost),
            mcErrorInvalidValue);
  EXPECT_EQ(Copy2D(async, device.data(), 16, host.data(), 16, 10, 4,
                   mcMemcpyHostToDevice),
            mcErrorInvalidValue);
  EXPECT_EQ(device.FirstChange(), "");
  EXPECT_EQ(host.FirstChange(), "");
  // Control: exactly to the end.
  EXPECT_EQ(Copy2D(async, device.data(), 16, host.data(), 16, 10, 3,
                   mcMemcpyHostToDevice),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Forms, Copy2DErrors, testing::Bool(), SyncName);

// --- mcMemcpy3D. ---

// A valid copy of a 4 x 3 x 2 box between two 8 x 4 x 2 pitched buffers.
class Copy3DErrors : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dst_.ok() && src_.ok());
    p_ = {};
    p_.srcPtr = make_mcPitchedPtr(src_.data(), 8, 8, 4);
    p_.dstPtr = make_mcPitchedPtr(dst_.data(), 8, 8, 4);
    p_.extent = make_mcExtent(4, 3, 2);
    p_.kind = mcMemcpyDeviceToDevice;
  }
  // Expects `broken` to fail with `error` and change nothing; then the
  // valid parameters succeed.
  void ExpectError(const mcMemcpy3DParms& broken, mcError_t error) {
    EXPECT_EQ(Copy3D(GetParam(), &broken), error);
    EXPECT_EQ(dst_.FirstChange(), "");
    EXPECT_EQ(Copy3D(GetParam(), &p_), mcSuccess);  // control
    dst_.Write(0, dst_.Initial());
  }

  Buffer dst_{Kind::kDevice, 64, 1};
  Buffer src_{Kind::kDevice, 64, 2};
  mcMemcpy3DParms p_;
};

TEST_P(Copy3DErrors, NullParametersAreInvalidValue) {
  MX_SPEC("api.memory.memcpy-3d.null-params");
  EXPECT_EQ(Copy3D(GetParam(), nullptr), mcErrorInvalidValue);
  EXPECT_EQ(Copy3D(GetParam(), &p_), mcSuccess);
}

TEST_P(Copy3DErrors, ArrayBesidePointerIsInvalidValue) {
  MX_SPEC("api.memory.memcpy-3d.array-and-pointer");
  mcMemcpy3DParms broken = p_;
  broken.srcArray = reinterpret_cast<mcArray_t>(uintptr_t{0x1000});
  ExpectError(broken, mcErrorInvalidValue);
  broken = p_;
  broken.dstArray = reinterpret_cast<mcArray_t>(uintptr_t{0x1000});
  ExpectError(broken, mcErrorInvalidValue);
}

TEST_P(Copy3DErrors, SideWithNeitherArrayNorPointerIsInvalidValue) {
  MX_SPEC("api.memory.memcpy-3d.array-and-pointer");
  mcMemcpy3DParms broken = p_;
  broken.srcPtr.ptr = nullptr;
  ExpectError(broken, mcErrorInvalidValue);
  broken = p_;
  broken.dstPtr.ptr = nullptr;
  ExpectError(broken, mcErrorInvalidValue);
  broken.extent = make_mcExtent(0, 0, 0);  // whatever the extent
  ExpectError(broken, mcErrorInvalidValue);
}

TEST_P(Copy3DErrors, PitchBelowRowEndIsInvalidPitchValue) {
  MX_SPEC("api.memory.memcpy-3d.pitch-less-than-width");
  mcMemcpy3DParms broken = p_;
  broken.srcPos = make_mcPos(5, 0, 0);  // 5 + 4 > 8
  ExpectError(broken, mcErrorInvalidPitchValue);
  broken = p_;
  broken.dstPtr.pitch = 3;
  ExpectError(broken, mcErrorInvalidPitchValue);
  // Control: pos.x + width == pitch.
  mcMemcpy3DParms edge = p_;
  edge.srcPos = make_mcPos(4, 0, 0);
  EXPECT_EQ(Copy3D(GetParam(), &edge), mcSuccess);
}

TEST_P(Copy3DErrors, RowsBeyondTheSliceAreInvalidValue) {
  MX_SPEC("api.memory.memcpy-3d.box-outside-slice");
  mcMemcpy3DParms broken = p_;
  broken.srcPos = make_mcPos(0, 2, 0);  // 2 + 3 rows > ysize 4
  ExpectError(broken, mcErrorInvalidValue);
  broken = p_;
  broken.dstPtr.ysize = 2;
  ExpectError(broken, mcErrorInvalidValue);
  // Control: rows 1..3 of each slice fit.
  mcMemcpy3DParms edge = p_;
  edge.dstPos = make_mcPos(0, 1, 0);
  EXPECT_EQ(Copy3D(GetParam(), &edge), mcSuccess);
}

TEST_P(Copy3DErrors, InvalidKindIsInvalidMemcpyDirection) {
  MX_SPEC("api.memory.memcpy-3d.invalid-kind");
  mcMemcpy3DParms broken = p_;
  broken.kind = static_cast<mcMemcpyKind>(9);
  ExpectError(broken, mcErrorInvalidMemcpyDirection);
  broken.kind = static_cast<mcMemcpyKind>(-3);
  ExpectError(broken, mcErrorInvalidMemcpyDirection);
}

TEST_P(Copy3DErrors, BoxPastTheEndIsInvalidValue) {
  MX_SPEC("api.memory.memcpy-3d.past-end-of-allocation",
          "api.memory.lifetime.failed-call-changes-nothing");
  mcMemcpy3DParms broken = p_;
  broken.dstPos = make_mcPos(0, 0, 1);  // the second slice is past the end
  ExpectError(broken, mcErrorInvalidValue);
  broken = p_;
  broken.srcPos = make_mcPos(4, 1, 1);
  ExpectError(broken, mcErrorInvalidValue);
}

INSTANTIATE_TEST_SUITE_P(Forms, Copy3DErrors, testing::Bool(), SyncName);

// --- mcMemset2D and mcMemset3D. ---

mcError_t Set2D(bool async, void* p, size_t pitch, int value, size_t width,
                size_t height) {
  if (!async) return mcMemset2D(p, pitch, value, width, height);
  const mcError_t result = mcMemset2DAsync(p, pitch, value, width, height);
  return result != mcSuccess ? result : mcStreamSynchronize(0);
}

mcError_t Set3D(bool async, mcPitchedPtr p, int value, mcExtent extent) {
  if (!async) return mcMemset3D(p, value, extent);
  const mcError_t result = mcMemset3DAsync(p, value, extent);
  return result != mcSuccess ? result : mcStreamSynchronize(0);
}

class SetErrors : public testing::TestWithParam<bool> {
 protected:
  // Sets `extent` of an 8 x 4 x 4 volume (pitch 8) in a device buffer:
  // expects mcErrorInvalidValue with the buffer unchanged, then the
  // control, two whole slices, to be set.
  void ExpectSet3DRefused(mcExtent extent) {
    Buffer device(Kind::kDevice, 128, 1);
    ASSERT_TRUE(device.ok());
    const mcPitchedPtr p = make_mcPitchedPtr(device.data(), 8, 8, 4);
    EXPECT_EQ(Set3D(GetParam(), p, 0, extent), mcErrorInvalidValue);
    EXPECT_EQ(device.FirstChange(), "");
    EXPECT_EQ(Set3D(GetParam(), p, 0, make_mcExtent(8, 4, 2)), mcSuccess);
  }
};

TEST_P(SetErrors, Set2DPitchBelowWidthIsInvalidValue) {
  MX_SPEC("api.memory.memset-2d.pitch-less-than-width");
  Buffer device(Kind::kDevice, 64, 1);
  ASSERT_TRUE(device.ok());
  EXPECT_EQ(Set2D(GetParam(), device.data(), 7, 0, 8, 2), mcErrorInvalidValue);
  EXPECT_EQ(device.FirstChange(), "");
  EXPECT_EQ(Set2D(GetParam(), device.data(), 8, 0, 8, 2), mcSuccess);
  EXPECT_EQ(Set2D(GetParam(), device.data(), 7, 0, 8, 1), mcSuccess);
}

TEST_P(SetErrors, Set2DOutsideDeviceMemoryIsInvalidValue) {
  MX_SPEC("api.memory.memset-2d.not-device-memory",
          "api.memory.lifetime.failed-call-changes-nothing");
  Buffer device(Kind::kDevice, 42, 1);  // 3 rows of 10 in a pitch of 16
  Buffer pageable(Kind::kPageable, 64, 2);
  ASSERT_TRUE(device.ok() && pageable.ok());
  EXPECT_EQ(Set2D(GetParam(), pageable.data(), 16, 0, 10, 3),
            mcErrorInvalidValue);
  EXPECT_EQ(Set2D(GetParam(), device.data(), 16, 0, 11, 3),
            mcErrorInvalidValue);
  EXPECT_EQ(Set2D(GetParam(), nullptr, 16, 0, 10, 3), mcErrorInvalidValue);
  EXPECT_EQ(device.FirstChange(), "");
  EXPECT_EQ(pageable.FirstChange(), "");
  EXPECT_EQ(Set2D(GetParam(), device.data(), 16, 0, 10, 3), mcSuccess);
}

TEST_P(SetErrors, Set3DWidthAbovePitchIsInvalidValue) {
  MX_SPEC("api.memory.memset-3d.width-exceeds-pitch");
  ExpectSet3DRefused(make_mcExtent(9, 1, 1));
}

TEST_P(SetErrors, Set3DHeightAboveYsizeIsInvalidValue) {
  MX_SPEC("api.memory.memset-3d.height-exceeds-ysize");
  ExpectSet3DRefused(make_mcExtent(8, 5, 2));
}

TEST_P(SetErrors, Set3DOutsideDeviceMemoryIsInvalidValue) {
  MX_SPEC("api.memory.memset-3d.not-device-memory");
  Buffer device(Kind::kDevice, 64, 1);
  Buffer pageable(Kind::kPageable, 64, 2);
  ASSERT_TRUE(device.ok() && pageable.ok());
  const mcExtent extent = make_mcExtent(8, 4, 2);
  EXPECT_EQ(
      Set3D(GetParam(), make_mcPitchedPtr(pageable.data(), 8, 8, 4), 0, extent),
      mcErrorInvalidValue);
  // Two slices of 4 rows of 8 need 64 bytes; starting 1 byte in runs past.
  EXPECT_EQ(Set3D(GetParam(), make_mcPitchedPtr(device.data() + 1, 8, 8, 4), 0,
                  extent),
            mcErrorInvalidValue);
  EXPECT_EQ(device.FirstChange(), "");
  EXPECT_EQ(pageable.FirstChange(), "");
  EXPECT_EQ(
      Set3D(GetParam(), make_mcPitchedPtr(device.data(), 8, 8, 4), 0, extent),
      mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Forms, SetErrors, testing::Bool(), SyncName);

// --- Pitched allocations. ---

TEST(MallocPitchErrors, NullOutputsAreInvalidValue) {
  MX_SPEC("api.memory.malloc-pitch.null-arguments");
  void* p = nullptr;
  size_t pitch = 0;
  EXPECT_EQ(mcMallocPitch(static_cast<void**>(nullptr), &pitch, 16, 4),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMallocPitch(&p, nullptr, 16, 4), mcErrorInvalidValue);
  EXPECT_EQ(p, nullptr);
  ASSERT_EQ(mcMallocPitch(&p, &pitch, 16, 4), mcSuccess);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

TEST(MallocPitchErrors, TooLargeIsMemoryAllocationAndAllocatesNothing) {
  MX_SPEC("api.memory.malloc-pitch.out-of-memory",
          "api.memory.malloc-3d.out-of-memory");
  mcDeviceProp_t prop;
  ASSERT_EQ(mcGetDeviceProperties(&prop, 0), mcSuccess);
  const size_t before = FreeMemory();
  void* p = nullptr;
  size_t pitch = 0;
  EXPECT_EQ(mcMallocPitch(&p, &pitch, 1 << 20, prop.totalGlobalMem >> 19),
            mcErrorMemoryAllocation);
  EXPECT_EQ(mcMallocPitch(&p, &pitch, SIZE_MAX / 2, 4),
            mcErrorMemoryAllocation);
  mcPitchedPtr pp = {};
  EXPECT_EQ(mcMalloc3D(&pp, make_mcExtent(1 << 20, 1 << 10,
                                          prop.totalGlobalMem >> 29)),
            mcErrorMemoryAllocation);
  EXPECT_EQ(FreeMemory(), before);
  // Control: a size that fits.
  ASSERT_EQ(mcMallocPitch(&p, &pitch, 1 << 10, 4), mcSuccess);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

TEST(Malloc3DErrors, NullOutputIsInvalidValue) {
  MX_SPEC("api.memory.malloc-3d.null-pointer");
  EXPECT_EQ(mcMalloc3D(nullptr, make_mcExtent(16, 2, 2)), mcErrorInvalidValue);
  mcPitchedPtr pp = {};
  ASSERT_EQ(mcMalloc3D(&pp, make_mcExtent(16, 2, 2)), mcSuccess);
  EXPECT_EQ(mcFree(pp.ptr), mcSuccess);
}

}  // namespace
