// Copyright mxcts authors.
//
// Tests of the peer access table: direction, the errors of enabling twice
// and of disabling what is not enabled, the peer limit, and what a reset
// forgets.

#include "reference/runtime/peer/peer_access.h"

#include <gtest/gtest.h>

#include <vector>

#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {
namespace {

class PeerAccessTableTest : public testing::Test {
 protected:
  // The table is process-wide: start every test from an empty one.
  void SetUp() override {
    for (int device = 0; device < 16; ++device) ResetPeerAccess(device);
  }
  PeerAccessTable& table_ = PeerAccessTable::Get();
};

TEST_F(PeerAccessTableTest, DistinctDevicesCanAccessEachOther) {
  EXPECT_TRUE(table_.CanAccess(0, 1));
  EXPECT_TRUE(table_.CanAccess(1, 0));
  EXPECT_TRUE(table_.CanAccess(3, 15));
  EXPECT_FALSE(table_.CanAccess(1, 1));  // not its own peer
}

TEST_F(PeerAccessTableTest, EnableIsOneDirectional) {
  EXPECT_FALSE(table_.IsEnabled(0, 1));
  ASSERT_TRUE(table_.Enable(0, 1).ok());
  EXPECT_TRUE(table_.IsEnabled(0, 1));
  EXPECT_FALSE(table_.IsEnabled(1, 0));
  ASSERT_TRUE(table_.Enable(1, 0).ok());  // the other direction is separate
  EXPECT_TRUE(table_.IsEnabled(1, 0));
}

TEST_F(PeerAccessTableTest, EnablingTwiceIsAlreadyEnabledAndKeepsAccess) {
  ASSERT_TRUE(table_.Enable(2, 3).ok());
  EXPECT_EQ(ToMcError(table_.Enable(2, 3)), mcErrorPeerAccessAlreadyEnabled);
  EXPECT_TRUE(table_.IsEnabled(2, 3));
}

TEST_F(PeerAccessTableTest, DisableRevokesAndThenReportsNotEnabled) {
  EXPECT_EQ(ToMcError(table_.Disable(0, 1)), mcErrorPeerAccessNotEnabled);
  ASSERT_TRUE(table_.Enable(0, 1).ok());
  EXPECT_TRUE(table_.Disable(0, 1).ok());
  EXPECT_FALSE(table_.IsEnabled(0, 1));
  EXPECT_EQ(ToMcError(table_.Disable(0, 1)), mcErrorPeerAccessNotEnabled);
  EXPECT_TRUE(table_.Enable(0, 1).ok());  // enabling works again
}

TEST_F(PeerAccessTableTest, DisableOfTheOtherDirectionIsNotEnabled) {
  ASSERT_TRUE(table_.Enable(0, 1).ok());
  EXPECT_EQ(ToMcError(table_.Disable(1, 0)), mcErrorPeerAccessNotEnabled);
  EXPECT_TRUE(table_.IsEnabled(0, 1));
}

TEST_F(PeerAccessTableTest, AtMostMaxPeersPerDevice) {
  for (int peer = 1; peer <= kMaxPeersPerDevice; ++peer) {
    ASSERT_TRUE(table_.Enable(0, peer).ok()) << peer;
  }
  const int one_more = kMaxPeersPerDevice + 1;
  EXPECT_EQ(ToMcError(table_.Enable(0, one_more)), mcErrorTooManyPeers);
  EXPECT_FALSE(table_.IsEnabled(0, one_more));
  // Control: another device still has room, and a freed slot is usable.
  EXPECT_TRUE(table_.Enable(one_more, 0).ok());
  ASSERT_TRUE(table_.Disable(0, 1).ok());
  EXPECT_TRUE(table_.Enable(0, one_more).ok());
}

TEST_F(PeerAccessTableTest, EnabledPeersAreListedInOrder) {
  ASSERT_TRUE(table_.Enable(4, 7).ok());
  ASSERT_TRUE(table_.Enable(4, 2).ok());
  EXPECT_EQ(table_.EnabledPeers(4), (std::vector<int>{2, 7}));
  EXPECT_TRUE(table_.EnabledPeers(5).empty());
}

TEST_F(PeerAccessTableTest, ResetForgetsBothDirectionsOfTheDevice) {
  ASSERT_TRUE(table_.Enable(0, 1).ok());
  ASSERT_TRUE(table_.Enable(1, 0).ok());
  ASSERT_TRUE(table_.Enable(1, 2).ok());
  ASSERT_TRUE(table_.Enable(2, 0).ok());
  ResetPeerAccess(1);
  EXPECT_FALSE(table_.IsEnabled(0, 1));
  EXPECT_FALSE(table_.IsEnabled(1, 0));
  EXPECT_FALSE(table_.IsEnabled(1, 2));
  // Control: access between other devices is kept.
  EXPECT_TRUE(table_.IsEnabled(2, 0));
}

}  // namespace
}  // namespace mxcts::runtime
