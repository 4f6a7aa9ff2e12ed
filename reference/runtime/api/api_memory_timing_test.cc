// Copyright mxcts authors.
//
// Tests of when copies and sets run relative to their call, with the
// timeline deferred (BUILD sets MXCTS_TIMELINE=deferred): work that need not
// complete before its call returns is still queued when the call returns,
// so each rule of [api.sync.host] is seen from both sides. Device memory is
// host memory in the reference, so the tests peek at it directly.

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "mc_runtime.h"

namespace {

class Timing : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_STREQ(getenv("MXCTS_TIMELINE"), "deferred");
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    ASSERT_EQ(mcMalloc(&device_, 64), mcSuccess);
    ASSERT_EQ(mcMalloc(&other_, 64), mcSuccess);
    ASSERT_EQ(mcMallocHost(&pinned_, 64), mcSuccess);
    std::memset(device_, 1, 64);
    std::memset(other_, 2, 64);
    std::memset(pinned_, 3, 64);
  }
  void TearDown() override {
    EXPECT_EQ(mcFree(device_), mcSuccess);
    EXPECT_EQ(mcFree(other_), mcSuccess);
    EXPECT_EQ(mcFreeHost(pinned_), mcSuccess);
  }

  unsigned char* device_ = nullptr;
  unsigned char* other_ = nullptr;
  unsigned char* pinned_ = nullptr;
};

TEST_F(Timing, PageableSourceIsConsumedAtTheCallButCopiedLater) {
  // [api.sync.host.memcpy-host-to-device-source-reusable]
  std::vector<unsigned char> source(64, 9);
  ASSERT_EQ(mcMemcpy(device_, source.data(), 64, mcMemcpyHostToDevice),
            mcSuccess);
  EXPECT_EQ(device_[0], 1);                    // still queued
  std::fill(source.begin(), source.end(), 0);  // reused at once
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(device_[0], 9);
  EXPECT_EQ(device_[63], 9);
}

TEST_F(Timing, AsyncFromPageableIsStagedToo) {
  // [api.sync.host.memcpy-async-pageable-synchronous]
  std::vector<unsigned char> source(64, 5);
  ASSERT_EQ(mcMemcpyAsync(device_, source.data(), 64, mcMemcpyHostToDevice),
            mcSuccess);
  std::fill(source.begin(), source.end(), 0);
  ASSERT_EQ(mcStreamSynchronize(0), mcSuccess);
  EXPECT_EQ(device_[10], 5);
}

TEST_F(Timing, CopyToHostMemoryHasCompletedOnReturn) {
  // [api.sync.host.memcpy-device-to-host-completes]
  unsigned char out[64] = {};
  ASSERT_EQ(mcMemcpy(out, device_, 64, mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(out[0], 1);
  ASSERT_EQ(mcMemcpy(pinned_, other_, 64, mcMemcpyDefault), mcSuccess);
  EXPECT_EQ(pinned_[0], 2);
}

TEST_F(Timing, CopyFromPinnedMemoryHasCompletedOnReturn) {
  // [api.memory.memcpy.host-to-device-pinned-synchronous]
  ASSERT_EQ(mcMemcpy(device_, pinned_, 64, mcMemcpyHostToDevice), mcSuccess);
  EXPECT_EQ(device_[5], 3);
}

TEST_F(Timing, DeviceToDeviceAndDeviceSetsReturnEarly) {
  // [api.sync.host.memcpy-device-to-device-asynchronous]
  // [api.sync.host.memset-asynchronous]
  ASSERT_EQ(mcMemcpy(device_, other_, 64, mcMemcpyDeviceToDevice), mcSuccess);
  EXPECT_EQ(device_[0], 1);
  ASSERT_EQ(mcMemset(other_, 7, 64), mcSuccess);
  EXPECT_EQ(other_[0], 2);
  // The copy was queued first, so it read the old bytes.
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(device_[0], 2);
  EXPECT_EQ(other_[0], 7);
}

TEST_F(Timing, SetOfPinnedMemoryHasCompletedOnReturn) {
  // [api.sync.host.memset-asynchronous]
  ASSERT_EQ(mcMemset(pinned_, 8, 64), mcSuccess);
  EXPECT_EQ(pinned_[63], 8);
  ASSERT_EQ(mcMemsetAsync(pinned_, 4, 64), mcSuccess);  // async: queued
  EXPECT_EQ(pinned_[63], 8);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(pinned_[63], 4);
}

TEST_F(Timing, AsyncCopiesWithPinnedMemoryReturnEarly) {
  // [api.memory.memcpy-async.returns-before-completion]
  ASSERT_EQ(mcMemcpyAsync(pinned_, device_, 64, mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(pinned_[0], 3);
  ASSERT_EQ(mcStreamSynchronize(0), mcSuccess);
  EXPECT_EQ(pinned_[0], 1);
}

TEST_F(Timing, AsyncCopyToPageableMemoryHasCompletedOnReturn) {
  // [api.sync.host.memcpy-async-pageable-synchronous]
  unsigned char out[64] = {};
  ASSERT_EQ(mcMemcpyAsync(out, device_, 64, mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(out[0], 1);
}

TEST_F(Timing, SyncMemopsMakesDeviceCopiesComplete) {
  // [api.memory.pointer-set-attribute.sync-memops]
  unsigned int on = 1;
  ASSERT_EQ(mcPointerSetAttribute(&on, mcPointerAttributeSyncMemops, device_),
            mcSuccess);
  ASSERT_EQ(mcMemcpy(device_, other_, 64, mcMemcpyDeviceToDevice), mcSuccess);
  EXPECT_EQ(device_[0], 2);
  ASSERT_EQ(mcMemset(device_ + 8, 6, 8), mcSuccess);
  EXPECT_EQ(device_[8], 6);
  unsigned int off = 0;
  ASSERT_EQ(mcPointerSetAttribute(&off, mcPointerAttributeSyncMemops, device_),
            mcSuccess);
  ASSERT_EQ(mcMemset(device_, 0, 8), mcSuccess);
  EXPECT_EQ(device_[0], 2);  // queued again
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(device_[0], 0);
}

TEST_F(Timing, FreeRunsQueuedWorkFirst) {
  // [api.sync.host.free-synchronizes]
  unsigned char* scratch = nullptr;
  ASSERT_EQ(mcMalloc(&scratch, 64), mcSuccess);
  std::memset(scratch, 0x5A, 64);
  ASSERT_EQ(mcMemcpyAsync(pinned_, scratch, 64, mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(pinned_[0], 3);
  ASSERT_EQ(mcFree(scratch), mcSuccess);
  EXPECT_EQ(pinned_[0], 0x5A);
}

TEST_F(Timing, FreeHostWaitsForOtherDevicesToo) {
  // [api.memory.free-host.implicit-synchronization]
  unsigned char* host = nullptr;
  ASSERT_EQ(mcMallocHost(&host, 64), mcSuccess);  // of device 0
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  unsigned char* on1 = nullptr;
  ASSERT_EQ(mcMalloc(&on1, 64), mcSuccess);
  ASSERT_EQ(mcMemsetAsync(on1, 1, 64), mcSuccess);
  ASSERT_EQ(mcMemcpyAsync(pinned_, on1, 64, mcMemcpyDeviceToHost), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  EXPECT_EQ(pinned_[0], 3);
  ASSERT_EQ(mcFreeHost(host), mcSuccess);  // device 1 has queued work
  EXPECT_EQ(pinned_[0], 1);
  EXPECT_EQ(mcFree(on1), mcSuccess);
}

TEST_F(Timing, UnregisterWaitsForQueuedWork) {
  // [api.memory.host-unregister.waits-for-device-work]
  std::vector<unsigned char> buffer(64, 0);
  ASSERT_EQ(mcHostRegister(buffer.data(), buffer.size(), 0), mcSuccess);
  ASSERT_EQ(mcMemsetAsync(buffer.data(), 0x33, 64), mcSuccess);
  EXPECT_EQ(buffer[0], 0);
  ASSERT_EQ(mcHostUnregister(buffer.data()), mcSuccess);
  EXPECT_EQ(buffer[0], 0x33);
}

TEST_F(Timing, PrefetchIsQueuedAndRecordedAtOnce) {
  // [api.memory.range-attribute.last-prefetch-location]
  int* managed = nullptr;
  ASSERT_EQ(mcMallocManaged(&managed, 4096), mcSuccess);
  ASSERT_EQ(mcMemPrefetchAsync(managed, 4096, 1), mcSuccess);
  int location = 0;
  ASSERT_EQ(mcMemRangeGetAttribute(&location, sizeof(location),
                                   mcMemRangeAttributeLastPrefetchLocation,
                                   managed, 4096),
            mcSuccess);
  EXPECT_EQ(location, 1);
  ASSERT_EQ(mcFree(managed), mcSuccess);
}

TEST_F(Timing, PointerAttributesDoNotWait) {
  // [api.memory.pointer-attributes.no-synchronization]
  ASSERT_EQ(mcMemset(device_, 0, 64), mcSuccess);
  mcPointerAttribute_t attributes;
  ASSERT_EQ(mcPointerGetAttributes(&attributes, device_), mcSuccess);
  EXPECT_EQ(attributes.type, mcMemoryTypeDevice);
  EXPECT_EQ(device_[0], 1);  // the set is still queued
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(device_[0], 0);
}

}  // namespace
