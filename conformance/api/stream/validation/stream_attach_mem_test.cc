// Copyright mxcts authors.
//
// Conformance: the errors of mcStreamAttachMemAsync
// (docs/spec/api-stream.md, "Attaching managed memory to a stream"): flags
// that are none of the three, an address that is not the start of a
// managed allocation, a length that is neither 0 nor the allocation's
// size, mcMemAttachSingle on the legacy default stream, and a stream that
// is not live. Each bad call stands beside the same call with the
// argument fixed, which succeeds.

#include <mc_runtime.h>

#include <cstdlib>
#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

constexpr size_t kBytes = 4096;

class AttachMemErrors : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("managed_memory");
    ASSERT_EQ(mcMallocManaged(&managed_, kBytes), mcSuccess);
    ASSERT_EQ(mcStreamCreate(&stream_), mcSuccess);
  }
  void TearDown() override {
    mcStreamSynchronize(stream_);
    mcStreamDestroy(stream_);
    mcFree(managed_);
    mcGetLastError();
  }
  char* managed_ = nullptr;
  mcStream_t stream_ = nullptr;
};

class BadFlags : public AttachMemErrors,
                 public testing::WithParamInterface<unsigned> {};

TEST_P(BadFlags, AreInvalidValue) {
  MX_SPEC("api.stream.attach-mem.invalid-flags-is-invalid-value");
  EXPECT_EQ(mcStreamAttachMemAsync(stream_, managed_, 0, GetParam()),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Control: each of the three flags.
  const unsigned kEveryFlag[] = {mcMemAttachGlobal, mcMemAttachHost,
                                 mcMemAttachSingle};
  for (unsigned flags : kEveryFlag) {
    EXPECT_EQ(mcStreamAttachMemAsync(stream_, managed_, 0, flags), mcSuccess)
        << flags;
  }
}

INSTANTIATE_TEST_SUITE_P(NotOneFlag, BadFlags,
                         testing::Values(0u, 3u, 5u, 6u, 7u, 8u, 0x100u),
                         [](const testing::TestParamInfo<unsigned>& info) {
                           return "Flags" + std::to_string(info.param);
                         });

enum class NotManaged { kNull, kDevice, kPinned, kPageable, kInterior };

const char* NotManagedName(NotManaged address) {
  static const char* const kNames[] = {"Null", "Device", "Pinned", "Pageable",
                                       "Interior"};
  return kNames[static_cast<int>(address)];
}

class NotManagedAddress : public AttachMemErrors,
                          public testing::WithParamInterface<NotManaged> {};

TEST_P(NotManagedAddress, IsInvalidValue) {
  MX_SPEC("api.stream.attach-mem.not-managed-is-invalid-value");
  void* address = nullptr;
  void* device = nullptr;
  void* pinned = nullptr;
  void* pageable = nullptr;
  switch (GetParam()) {
    case NotManaged::kNull:
      break;
    case NotManaged::kDevice:
      ASSERT_EQ(mcMalloc(&device, kBytes), mcSuccess);
      address = device;
      break;
    case NotManaged::kPinned:
      ASSERT_EQ(mcMallocHost(&pinned, kBytes), mcSuccess);
      address = pinned;
      break;
    case NotManaged::kPageable:
      pageable = std::malloc(kBytes);
      address = pageable;
      break;
    case NotManaged::kInterior:
      address = managed_ + 256;
      break;
  }
  EXPECT_EQ(mcStreamAttachMemAsync(stream_, address, 0, mcMemAttachGlobal),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Control: the start of the managed allocation.
  EXPECT_EQ(mcStreamAttachMemAsync(stream_, managed_, 0, mcMemAttachGlobal),
            mcSuccess);
  if (device != nullptr) mcFree(device);
  if (pinned != nullptr) mcFreeHost(pinned);
  std::free(pageable);
}

INSTANTIATE_TEST_SUITE_P(Addresses, NotManagedAddress,
                         testing::Values(NotManaged::kNull, NotManaged::kDevice,
                                         NotManaged::kPinned,
                                         NotManaged::kPageable,
                                         NotManaged::kInterior),
                         [](const testing::TestParamInfo<NotManaged>& info) {
                           return std::string(NotManagedName(info.param));
                         });

class PartialLength : public AttachMemErrors,
                      public testing::WithParamInterface<size_t> {};

TEST_P(PartialLength, IsInvalidValue) {
  MX_SPEC("api.stream.attach-mem.partial-length-is-invalid-value");
  EXPECT_EQ(
      mcStreamAttachMemAsync(stream_, managed_, GetParam(), mcMemAttachGlobal),
      mcErrorInvalidValue);
  // Control: 0 and the whole size.
  EXPECT_EQ(mcStreamAttachMemAsync(stream_, managed_, 0, mcMemAttachGlobal),
            mcSuccess);
  EXPECT_EQ(
      mcStreamAttachMemAsync(stream_, managed_, kBytes, mcMemAttachGlobal),
      mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Lengths, PartialLength,
                         testing::Values(size_t{1}, kBytes - 1, kBytes + 1,
                                         kBytes / 2),
                         [](const testing::TestParamInfo<size_t>& info) {
                           return "Bytes" + std::to_string(info.param);
                         });

TEST_F(AttachMemErrors, SingleOnTheLegacyDefaultStreamIsInvalidValue) {
  MX_SPEC("api.stream.attach-mem.single-to-legacy-stream-is-invalid-value");
  EXPECT_EQ(mcStreamAttachMemAsync(0, managed_, 0, mcMemAttachSingle),
            mcErrorInvalidValue);
  EXPECT_EQ(
      mcStreamAttachMemAsync(mcStreamLegacy, managed_, 0, mcMemAttachSingle),
      mcErrorInvalidValue);
  // Controls: the other flags there, and mcMemAttachSingle on a stream.
  EXPECT_EQ(mcStreamAttachMemAsync(0, managed_, 0, mcMemAttachGlobal),
            mcSuccess);
  EXPECT_EQ(
      mcStreamAttachMemAsync(mcStreamLegacy, managed_, 0, mcMemAttachHost),
      mcSuccess);
  EXPECT_EQ(mcStreamAttachMemAsync(stream_, managed_, 0, mcMemAttachSingle),
            mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
}

TEST_F(AttachMemErrors, DestroyedStreamIsInvalidResourceHandle) {
  MX_SPEC("api.stream.attach-mem.invalid-stream");
  mcStream_t dead = nullptr;
  ASSERT_EQ(mcStreamCreate(&dead), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(dead), mcSuccess);
  EXPECT_EQ(mcStreamAttachMemAsync(dead, managed_, 0, mcMemAttachSingle),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  // Control: a live stream.
  EXPECT_EQ(mcStreamAttachMemAsync(stream_, managed_, 0, mcMemAttachSingle),
            mcSuccess);
}

}  // namespace
