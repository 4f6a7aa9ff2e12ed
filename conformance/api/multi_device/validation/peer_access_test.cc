// Copyright mxcts authors.
//
// Conformance: the errors of mcDeviceCanAccessPeer, mcDeviceEnablePeerAccess
// and mcDeviceDisablePeerAccess (docs/spec/api-multi-device.md, "Peer
// access"): invalid ordinals, the current device as its own peer, flags,
// enabling twice, disabling what is not enabled, and the peer limit. After
// each bad call the peer state is checked unchanged (by the errors of the
// calls that read it), and a control call with the argument fixed
// succeeds.
//
// Every test leaves peer access as it found it: disabled in both
// directions between devices 0 and 1.

#include <mc_runtime.h>

#include <climits>
#include <functional>
#include <string>
#include <utility>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::ScopedEnvironment;
using mxcts::conformance::memory::PeerAccessTest;

int DeviceCount() {
  int count = 0;
  mcGetDeviceCount(&count);
  return count;
}

// Whether access from `device` to `peer` is enabled, read through the
// errors of disabling and enabling again (which restores it).
bool IsEnabled(int device, int peer) {
  int previous = 0;
  mcGetDevice(&previous);
  mcSetDevice(device);
  const bool enabled = mcDeviceDisablePeerAccess(peer) == mcSuccess;
  if (enabled) mcDeviceEnablePeerAccess(peer, 0);
  mcSetDevice(previous);
  mcGetLastError();
  return enabled;
}

class PeerAccessValidation : public PeerAccessTest {
 protected:
  // Access is off in both directions, as every test leaves it.
  void ExpectNoAccess() {
    EXPECT_FALSE(IsEnabled(0, 1));
    EXPECT_FALSE(IsEnabled(1, 0));
  }
};

// --- Invalid ordinals. ---

// An ordinal that names no device, computed from the device count.
struct BadOrdinal {
  const char* name;
  std::function<int(int count)> value;
};

const BadOrdinal kBadOrdinals[] = {
    {"MinusOne", [](int) { return -1; }},
    {"MinusHundred", [](int) { return -100; }},
    {"Count", [](int count) { return count; }},
    {"CountPlusOne", [](int count) { return count + 1; }},
    {"Large", [](int) { return 1 << 20; }},
    {"IntMax", [](int) { return INT_MAX; }},
    {"IntMin", [](int) { return INT_MIN; }},
};

std::string OrdinalName(const testing::TestParamInfo<BadOrdinal>& info) {
  return info.param.name;
}

class InvalidOrdinal : public PeerAccessValidation,
                       public testing::WithParamInterface<BadOrdinal> {
 protected:
  int Bad() const { return GetParam().value(DeviceCount()); }
};

TEST_P(InvalidOrdinal, CanAccessPeerWithInvalidDevice) {
  MX_SPEC("api.peer.can-access.invalid-device");
  int can = -3;
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, Bad(), 0), mcErrorInvalidDevice);
  EXPECT_EQ(can, -3);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDevice);
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, 1, 0), mcSuccess);  // control
  EXPECT_EQ(can, 1);
}

TEST_P(InvalidOrdinal, CanAccessPeerWithInvalidPeer) {
  MX_SPEC("api.peer.can-access.invalid-device");
  int can = -3;
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, 0, Bad()), mcErrorInvalidDevice);
  EXPECT_EQ(can, -3);
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, 0, 1), mcSuccess);  // control
  EXPECT_EQ(can, 1);
}

TEST_P(InvalidOrdinal, EnableWithInvalidPeer) {
  MX_SPEC("api.peer.enable.invalid-ordinal");
  EXPECT_EQ(mcDeviceEnablePeerAccess(Bad(), 0), mcErrorInvalidDevice);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDevice);
  ExpectNoAccess();
  EXPECT_EQ(mcDeviceEnablePeerAccess(1, 0), mcSuccess);  // control
  EXPECT_EQ(mcDeviceDisablePeerAccess(1), mcSuccess);
}

TEST_P(InvalidOrdinal, EnableWithInvalidPeerAndFlags) {
  MX_SPEC("api.peer.enable.invalid-ordinal");
  // Both arguments are wrong; the ordinal is reported.
  EXPECT_EQ(mcDeviceEnablePeerAccess(Bad(), 1), mcErrorInvalidDevice);
  ExpectNoAccess();
}

TEST_P(InvalidOrdinal, DisableWithInvalidPeer) {
  MX_SPEC("api.peer.disable.invalid-device");
  ASSERT_EQ(mcDeviceEnablePeerAccess(1, 0), mcSuccess);
  EXPECT_EQ(mcDeviceDisablePeerAccess(Bad()), mcErrorInvalidDevice);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDevice);
  // The access that was enabled is untouched.
  EXPECT_EQ(mcDeviceEnablePeerAccess(1, 0), mcErrorPeerAccessAlreadyEnabled);
  EXPECT_EQ(mcDeviceDisablePeerAccess(1), mcSuccess);  // control
}

INSTANTIATE_TEST_SUITE_P(Ordinals, InvalidOrdinal,
                         testing::ValuesIn(kBadOrdinals), OrdinalName);

// --- The output pointer. ---

TEST_F(PeerAccessValidation, CanAccessPeerWithNullResult) {
  MX_SPEC("api.peer.can-access.null-result");
  EXPECT_EQ(mcDeviceCanAccessPeer(nullptr, 0, 1), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceCanAccessPeer(nullptr, 1, 1), mcErrorInvalidValue);
  int can = -1;
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, 0, 1), mcSuccess);  // control
}

// --- The current device as its own peer. ---

class SelfAsPeer : public PeerAccessValidation,
                   public testing::WithParamInterface<int> {};

TEST_P(SelfAsPeer, EnableIsInvalidDevice) {
  MX_SPEC("api.peer.enable.self");
  ASSERT_EQ(mcSetDevice(GetParam()), mcSuccess);
  EXPECT_EQ(mcDeviceEnablePeerAccess(GetParam(), 0), mcErrorInvalidDevice);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDevice);
  ExpectNoAccess();
  const int other = 1 - GetParam();
  EXPECT_EQ(mcDeviceEnablePeerAccess(other, 0), mcSuccess);  // control
  EXPECT_EQ(mcDeviceDisablePeerAccess(other), mcSuccess);
}

TEST_P(SelfAsPeer, DisableIsInvalidDevice) {
  MX_SPEC("api.peer.disable.self");
  ASSERT_EQ(mcSetDevice(GetParam()), mcSuccess);
  EXPECT_EQ(mcDeviceDisablePeerAccess(GetParam()), mcErrorInvalidDevice);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDevice);
  const int other = 1 - GetParam();
  // Control: the other device is a peer, and not enabled.
  EXPECT_EQ(mcDeviceDisablePeerAccess(other), mcErrorPeerAccessNotEnabled);
}

TEST_P(SelfAsPeer, CanAccessPeerIsZero) {
  MX_SPEC("api.peer.can-access.same-device");
  int can = -1;
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, GetParam(), GetParam()), mcSuccess);
  EXPECT_EQ(can, 0);
}

INSTANTIATE_TEST_SUITE_P(Devices, SelfAsPeer, testing::Values(0, 1),
                         [](const testing::TestParamInfo<int>& info) {
                           return "Device" + std::to_string(info.param);
                         });

// --- Flags. ---

class NonZeroFlags : public PeerAccessValidation,
                     public testing::WithParamInterface<unsigned> {};

TEST_P(NonZeroFlags, EnableIsInvalidValue) {
  MX_SPEC("api.peer.enable.flags-must-be-zero");
  EXPECT_EQ(mcDeviceEnablePeerAccess(1, GetParam()), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  EXPECT_EQ(mcDeviceEnablePeerAccess(0, GetParam()), mcErrorInvalidValue);
  ExpectNoAccess();
  EXPECT_EQ(mcDeviceEnablePeerAccess(0, 0), mcSuccess);  // control
  EXPECT_EQ(mcDeviceDisablePeerAccess(0), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Flags, NonZeroFlags,
                         testing::Values(1u, 2u, 4u, 0x80u, 0x100u, 0x80000000u,
                                         0xffffffffu),
                         [](const testing::TestParamInfo<unsigned>& info) {
                           return "Flags" + std::to_string(info.param);
                         });

// --- Enabling twice, disabling what is not enabled. ---

class Direction : public PeerAccessValidation,
                  public testing::WithParamInterface<std::pair<int, int>> {
 protected:
  int From() const { return GetParam().first; }
  int To() const { return GetParam().second; }
};

TEST_P(Direction, EnablingTwiceIsAlreadyEnabled) {
  MX_SPEC("api.peer.enable.already-enabled");
  ASSERT_EQ(mcSetDevice(From()), mcSuccess);
  ASSERT_EQ(mcDeviceEnablePeerAccess(To(), 0), mcSuccess);
  EXPECT_EQ(mcDeviceEnablePeerAccess(To(), 0), mcErrorPeerAccessAlreadyEnabled);
  EXPECT_EQ(mcGetLastError(), mcErrorPeerAccessAlreadyEnabled);
  // Access stays enabled: one disable succeeds, a second does not.
  EXPECT_EQ(mcDeviceDisablePeerAccess(To()), mcSuccess);
  EXPECT_EQ(mcDeviceDisablePeerAccess(To()), mcErrorPeerAccessNotEnabled);
}

TEST_P(Direction, DisablingWhatWasNeverEnabled) {
  MX_SPEC("api.peer.disable.not-enabled");
  ASSERT_EQ(mcSetDevice(From()), mcSuccess);
  EXPECT_EQ(mcDeviceDisablePeerAccess(To()), mcErrorPeerAccessNotEnabled);
  EXPECT_EQ(mcGetLastError(), mcErrorPeerAccessNotEnabled);
  ExpectNoAccess();
  // Control: once enabled, disabling succeeds.
  ASSERT_EQ(mcDeviceEnablePeerAccess(To(), 0), mcSuccess);
  EXPECT_EQ(mcDeviceDisablePeerAccess(To()), mcSuccess);
}

TEST_P(Direction, DisablingTwice) {
  MX_SPEC("api.peer.disable.not-enabled");
  ASSERT_EQ(mcSetDevice(From()), mcSuccess);
  ASSERT_EQ(mcDeviceEnablePeerAccess(To(), 0), mcSuccess);
  ASSERT_EQ(mcDeviceDisablePeerAccess(To()), mcSuccess);
  EXPECT_EQ(mcDeviceDisablePeerAccess(To()), mcErrorPeerAccessNotEnabled);
  ExpectNoAccess();
}

TEST_P(Direction, DisablingTheOppositeDirection) {
  MX_SPEC("api.peer.disable.not-enabled", "api.peer.enable.one-directional");
  ASSERT_EQ(mcSetDevice(From()), mcSuccess);
  ASSERT_EQ(mcDeviceEnablePeerAccess(To(), 0), mcSuccess);
  ASSERT_EQ(mcSetDevice(To()), mcSuccess);
  // Only From -> To is enabled.
  EXPECT_EQ(mcDeviceDisablePeerAccess(From()), mcErrorPeerAccessNotEnabled);
  ASSERT_EQ(mcSetDevice(From()), mcSuccess);
  EXPECT_EQ(mcDeviceDisablePeerAccess(To()), mcSuccess);  // control
}

INSTANTIATE_TEST_SUITE_P(
    Directions, Direction,
    testing::Values(std::make_pair(0, 1), std::make_pair(1, 0)),
    [](const testing::TestParamInfo<std::pair<int, int>>& info) {
      return "From" + std::to_string(info.param.first) + "To" +
             std::to_string(info.param.second);
    });

// --- The peer limit. ---

// With ten devices, device 0 enables peers one by one: the reference's
// documented limit of 8 gives mcErrorTooManyPeers for the ninth, and
// enables nothing; freeing a slot makes room again. On fewer devices every
// peer can be enabled (the control).
std::string PeerLimit() {
  constexpr int kDocumentedLimit = 8;
  const int count = DeviceCount();
  if (count < 2) return "fewer than 2 devices";
  if (mcSetDevice(0) != mcSuccess) return "mcSetDevice failed";
  for (int peer = 1; peer < count; ++peer) {
    const mcError_t result = mcDeviceEnablePeerAccess(peer, 0);
    const mcError_t expected =
        peer <= kDocumentedLimit ? mcSuccess : mcErrorTooManyPeers;
    if (result != expected) {
      return "enabling peer " + std::to_string(peer) + " returned " +
             mcGetErrorName(result) + ", expected " + mcGetErrorName(expected);
    }
  }
  if (count - 1 <= kDocumentedLimit) return "";
  // The refused peer was not enabled.
  if (mcDeviceDisablePeerAccess(kDocumentedLimit + 1) !=
      mcErrorPeerAccessNotEnabled) {
    return "a refused peer was enabled";
  }
  if (mcDeviceDisablePeerAccess(1) != mcSuccess) return "disable failed";
  if (mcDeviceEnablePeerAccess(kDocumentedLimit + 1, 0) != mcSuccess) {
    return "no room after disabling a peer";
  }
  // The limit is per device: device 1 still enables peers.
  if (mcSetDevice(1) != mcSuccess ||
      mcDeviceEnablePeerAccess(0, 0) != mcSuccess) {
    return "another device could not enable a peer";
  }
  return "";
}

TEST(PeerLimit, NinthPeerIsTooManyPeers) {
  MX_SPEC("api.peer.enable.too-many-peers");
  MX_REQUIRE_CAPABILITY("peer_access");
  // The reference's simulated device count; another backend has its own.
  ScopedEnvironment devices("MXCTS_DEVICE_COUNT", "10");
  MX_EXPECT_IN_FRESH_PROCESS(PeerLimit());
}

TEST(PeerLimit, EveryPeerOfTwoDevicesCanBeEnabled) {
  MX_SPEC("api.peer.enable.too-many-peers");
  MX_REQUIRE_CAPABILITY("peer_access");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", "0,1");
  MX_EXPECT_IN_FRESH_PROCESS(PeerLimit());
}

// --- A faulted current device. ---

__global__ void WriteThroughNull(int* p) { *p = 1; }

std::string PeerCallsReturnTheStickyError() {
  if (mcSetDevice(0) != mcSuccess) return "mcSetDevice failed";
  WriteThroughNull<<<1, 1>>>(nullptr);
  if (mcDeviceSynchronize() != mcErrorIllegalAddress) return "no fault";
  if (mcDeviceEnablePeerAccess(1, 0) != mcErrorIllegalAddress) {
    return "mcDeviceEnablePeerAccess did not return the sticky error";
  }
  if (mcDeviceDisablePeerAccess(1) != mcErrorIllegalAddress) {
    return "mcDeviceDisablePeerAccess did not return the sticky error";
  }
  // Control: device 1 is not faulted and enables access to device 0.
  if (mcSetDevice(1) != mcSuccess ||
      mcDeviceEnablePeerAccess(0, 0) != mcSuccess) {
    return "device 1 could not enable access";
  }
  return "";
}

TEST(PeerAccessAfterAFault, EnableAndDisableReturnTheStickyError) {
  MX_SPEC("api.error.sticky.later-calls-fail");
  MX_REQUIRE_CAPABILITY("peer_access");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  MX_EXPECT_IN_FRESH_PROCESS(PeerCallsReturnTheStickyError());
}

}  // namespace
