// Copyright mxcts authors.
//
// Tests of the link attributes: which values are attributes, and that each
// follows the peer access table's capability.

#include "reference/runtime/peer/peer_link.h"

#include <gtest/gtest.h>

#include "reference/runtime/peer/peer_access.h"

namespace mxcts::runtime {
namespace {

TEST(PeerLinkTest, KnowsExactlyTheFourAttributes) {
  for (int attribute = 1; attribute <= 4; ++attribute) {
    EXPECT_TRUE(IsPeerLinkAttribute(attribute)) << attribute;
  }
  EXPECT_FALSE(IsPeerLinkAttribute(0));
  EXPECT_FALSE(IsPeerLinkAttribute(5));
  EXPECT_FALSE(IsPeerLinkAttribute(-1));
}

TEST(PeerLinkTest, AccessSupportedIsTheTablesCapability) {
  for (int device = 0; device < 4; ++device) {
    for (int peer = 0; peer < 4; ++peer) {
      if (device == peer) continue;
      EXPECT_EQ(PeerLinkAttribute(mcDevP2PAttrAccessSupported, device, peer),
                PeerAccessTable::Get().CanAccess(device, peer) ? 1 : 0);
    }
  }
}

TEST(PeerLinkTest, EveryLinkIsFastAtomicAndArrayless) {
  EXPECT_EQ(PeerLinkAttribute(mcDevP2PAttrPerformanceRank, 0, 1), 0);
  EXPECT_EQ(PeerLinkAttribute(mcDevP2PAttrNativeAtomicSupported, 0, 1), 1);
  EXPECT_EQ(PeerLinkAttribute(mcDevP2PAttrMcArrayAccessSupported, 1, 0), 0);
}

TEST(PeerLinkTest, EnablingAccessChangesNoAttribute) {
  ResetPeerAccess(0);
  const int before = PeerLinkAttribute(mcDevP2PAttrAccessSupported, 0, 1);
  ASSERT_TRUE(PeerAccessTable::Get().Enable(0, 1).ok());
  EXPECT_EQ(PeerLinkAttribute(mcDevP2PAttrAccessSupported, 0, 1), before);
  ResetPeerAccess(0);
}

}  // namespace
}  // namespace mxcts::runtime
