// Copyright mxcts authors.
//
// Conformance: what mcDeviceGetP2PAttribute reports about the link between
// two devices (docs/spec/api-multi-device.md, "Link attributes"): each
// attribute in its range, access supported exactly where
// mcDeviceCanAccessPeer says so whether or not access is enabled, the
// reference's values, and atomics over a link that claims them.
//
// Every test leaves peer access disabled in both directions between
// devices 0 and 1.

#include <mc_runtime.h>

#include <string>
#include <utility>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using PeerAccess = ::mxcts::conformance::memory::PeerAccessTest;
using DevicePair = std::pair<int, int>;

class LinkAttribute : public PeerAccess,
                      public testing::WithParamInterface<DevicePair> {
 protected:
  int src() const { return GetParam().first; }
  int dst() const { return GetParam().second; }
  int Get(mcDeviceP2PAttr attr) {
    int value = -12345;
    EXPECT_EQ(mcDeviceGetP2PAttribute(&value, attr, src(), dst()), mcSuccess);
    return value;
  }
};

TEST_P(LinkAttribute, EveryAttributeIsInItsRange) {
  MX_SPEC("api.peer.p2p-attribute.values");
  EXPECT_GE(Get(mcDevP2PAttrPerformanceRank), 0);
  const int access = Get(mcDevP2PAttrAccessSupported);
  EXPECT_TRUE(access == 0 || access == 1) << access;
  const int atomics = Get(mcDevP2PAttrNativeAtomicSupported);
  EXPECT_TRUE(atomics == 0 || atomics == 1) << atomics;
  if (access == 0) {
    EXPECT_EQ(atomics, 0);
  }
  const int arrays = Get(mcDevP2PAttrMcArrayAccessSupported);
  EXPECT_TRUE(arrays == 0 || arrays == 1) << arrays;
}

TEST_P(LinkAttribute, AccessSupportedIsWhatCanAccessPeerSays) {
  MX_SPEC("api.peer.p2p-attribute.access-supported-agrees-with-can-access");
  int can = -1;
  ASSERT_EQ(mcDeviceCanAccessPeer(&can, src(), dst()), mcSuccess);
  EXPECT_EQ(Get(mcDevP2PAttrAccessSupported), can);
  if (can == 0) return;
  // Enabling access changes the state, not the capability.
  ASSERT_EQ(mcSetDevice(src()), mcSuccess);
  ASSERT_EQ(mcDeviceEnablePeerAccess(dst(), 0), mcSuccess);
  EXPECT_EQ(Get(mcDevP2PAttrAccessSupported), 1);
  ASSERT_EQ(mcDeviceDisablePeerAccess(dst()), mcSuccess);
  EXPECT_EQ(Get(mcDevP2PAttrAccessSupported), 1);
}

TEST_P(LinkAttribute, ReferenceLinksAreFastAtomicAndArrayless) {
  MX_SPEC("api.peer.p2p-attribute.reference-values");
  EXPECT_EQ(Get(mcDevP2PAttrPerformanceRank), 0);
  EXPECT_EQ(Get(mcDevP2PAttrAccessSupported), 1);
  EXPECT_EQ(Get(mcDevP2PAttrNativeAtomicSupported), 1);
  EXPECT_EQ(Get(mcDevP2PAttrMcArrayAccessSupported), 0);
}

TEST_P(LinkAttribute, EnumeratorsHaveCudasValues) {
  MX_SPEC("api.peer.p2p-attribute.values");
  EXPECT_EQ(mcDevP2PAttrPerformanceRank, 1);
  EXPECT_EQ(mcDevP2PAttrAccessSupported, 2);
  EXPECT_EQ(mcDevP2PAttrNativeAtomicSupported, 3);
  EXPECT_EQ(mcDevP2PAttrMcArrayAccessSupported, 4);
}

__global__ void CountInto(unsigned* counter) { atomicAdd(counter, 1u); }

TEST_P(LinkAttribute, NativeAtomicsOverTheLinkAreAtomic) {
  MX_SPEC("api.peer.p2p-attribute.values", "api.peer.enable.grants-access");
  if (Get(mcDevP2PAttrNativeAtomicSupported) == 0) {
    GTEST_SKIP() << "unsupported: native atomics over this link";
  }
  ASSERT_EQ(mcSetDevice(dst()), mcSuccess);
  unsigned* counter = nullptr;
  ASSERT_EQ(mcMalloc(&counter, sizeof(unsigned)), mcSuccess);
  ASSERT_EQ(mcMemset(counter, 0, sizeof(unsigned)), mcSuccess);
  ASSERT_EQ(mcSetDevice(src()), mcSuccess);
  ASSERT_EQ(mcDeviceEnablePeerAccess(dst(), 0), mcSuccess);
  CountInto<<<64, 256>>>(counter);  // a kernel of src on dst's memory
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  unsigned total = 0;
  EXPECT_EQ(mcMemcpy(&total, counter, sizeof(total), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(total, 64u * 256u);
  EXPECT_EQ(mcDeviceDisablePeerAccess(dst()), mcSuccess);
  EXPECT_EQ(mcFree(counter), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(BothDirections, LinkAttribute,
                         testing::Values(DevicePair{0, 1}, DevicePair{1, 0}),
                         [](const testing::TestParamInfo<DevicePair>& info) {
                           return "Device" + std::to_string(info.param.first) +
                                  "To" + std::to_string(info.param.second);
                         });

}  // namespace
