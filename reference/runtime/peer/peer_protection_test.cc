// Copyright mxcts authors.
//
// Tests of the checked-mode protection of other devices' memory (the
// target sets MXCTS_MEMCHECK=1): while a PeerProtection for device 0 is in
// force, device 1's allocations fault unless device 0 has peer access to
// device 1, the fault is explained, and everything is accessible again
// afterwards. Device 0's own memory and managed memory are never protected.

#include "reference/runtime/peer/peer_protection.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "mc_runtime.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/peer/peer_access.h"

namespace mxcts::runtime {
namespace {

class PeerProtectionTest : public testing::Test {
 protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    ResetPeerAccess(0);
    ResetPeerAccess(1);
    ASSERT_EQ(mcSetDevice(1), mcSuccess);
    ASSERT_EQ(mcMalloc(&on1_, 1024), mcSuccess);
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    ASSERT_EQ(mcMalloc(&on0_, 1024), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&managed_, 1024), mcSuccess);
    ASSERT_TRUE(MemoryManager::Get().checked_mode());
  }
  void TearDown() override {
    mcFree(on0_);
    mcFree(managed_);
    mcSetDevice(1);
    mcFree(on1_);
    mcSetDevice(0);
  }
  static int Read(const int* p) { return *static_cast<const volatile int*>(p); }

  int* on0_ = nullptr;
  int* on1_ = nullptr;
  int* managed_ = nullptr;
};

TEST_F(PeerProtectionTest, OtherDeviceMemoryFaultsWhileInForce) {
  on1_[0] = 5;
  EXPECT_DEATH(
      {
        PeerProtection protection(0);
        Read(on1_);
      },
      "");
  // Control: without the protection the same read works.
  EXPECT_EQ(Read(on1_), 5);
}

TEST_F(PeerProtectionTest, AccessibleAgainAfterwards) {
  {
    PeerProtection protection(0);
    // Own and managed memory stay accessible.
    on0_[3] = 1;
    managed_[3] = 2;
    EXPECT_EQ(Read(on0_ + 3) + Read(managed_ + 3), 3);
  }
  on1_[255] = 9;
  EXPECT_EQ(Read(on1_ + 255), 9);
}

TEST_F(PeerProtectionTest, PeerAccessLiftsTheProtection) {
  ASSERT_EQ(mcDeviceEnablePeerAccess(1, 0), mcSuccess);
  on1_[1] = 11;
  {
    PeerProtection protection(0);
    EXPECT_EQ(Read(on1_ + 1), 11);
    EXPECT_FALSE(DescribePeerFault(reinterpret_cast<uintptr_t>(on1_ + 1)));
  }
  ASSERT_EQ(mcDeviceDisablePeerAccess(1), mcSuccess);
}

TEST_F(PeerProtectionTest, OneDirectional) {
  // Access from 1 to 0 does not let a grid of 0 reach device 1.
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcDeviceEnablePeerAccess(0, 0), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  PeerProtection protection(0);
  EXPECT_TRUE(DescribePeerFault(reinterpret_cast<uintptr_t>(on1_)));
}

TEST_F(PeerProtectionTest, FaultIsDescribedOnlyWhileInForce) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(on1_) + 256;
  EXPECT_FALSE(DescribePeerFault(address));
  {
    PeerProtection protection(0);
    std::optional<std::string> text = DescribePeerFault(address);
    ASSERT_TRUE(text.has_value());
    EXPECT_NE(text->find("device memory of device 1 accessed from a kernel "
                         "on device 0 without peer access"),
              std::string::npos)
        << *text;
    EXPECT_NE(text->find("byte 256 of the 1024-byte allocation"),
              std::string::npos)
        << *text;
    // Own and managed memory are not explained as peer faults.
    EXPECT_FALSE(DescribePeerFault(reinterpret_cast<uintptr_t>(on0_)));
    EXPECT_FALSE(DescribePeerFault(reinterpret_cast<uintptr_t>(managed_)));
  }
  EXPECT_FALSE(DescribePeerFault(address));
}

TEST_F(PeerProtectionTest, FreedMemoryStaysInaccessible) {
  int* extra = nullptr;
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcMalloc(&extra, 64), mcSuccess);
  ASSERT_EQ(mcFree(extra), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  { PeerProtection protection(0); }
  // The release made it inaccessible; the protection's end must not undo
  // that.
  EXPECT_DEATH(Read(extra), "");
}

}  // namespace
}  // namespace mxcts::runtime
