// Copyright mxcts authors.
//
// Conformance: the errors of mcDeviceGetP2PAttribute
// (docs/spec/api-multi-device.md, "Link attributes"): a null result, an
// attribute that is no mcDeviceP2PAttr, an invalid ordinal and a device
// paired with itself. Each bad call stores nothing, and beside it the same
// call with the argument fixed succeeds.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using PeerAccess = ::mxcts::conformance::memory::PeerAccessTest;

constexpr int kUntouched = -12345;

int DeviceCount() {
  int count = 0;
  mcGetDeviceCount(&count);
  return count;
}

TEST_F(PeerAccess, P2PAttributeNullValueIsInvalidValue) {
  MX_SPEC("api.peer.p2p-attribute.null-is-invalid-value");
  EXPECT_EQ(mcDeviceGetP2PAttribute(nullptr, mcDevP2PAttrAccessSupported, 0, 1),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Checked before the devices.
  EXPECT_EQ(mcDeviceGetP2PAttribute(nullptr, mcDevP2PAttrAccessSupported, 0, 0),
            mcErrorInvalidValue);
  // Control.
  int value = kUntouched;
  EXPECT_EQ(mcDeviceGetP2PAttribute(&value, mcDevP2PAttrAccessSupported, 0, 1),
            mcSuccess);
  EXPECT_NE(value, kUntouched);
}

class BadAttribute : public PeerAccess,
                     public testing::WithParamInterface<int> {};

TEST_P(BadAttribute, IsInvalidValueAndStoresNothing) {
  MX_SPEC("api.peer.p2p-attribute.invalid-attribute-is-invalid-value");
  int value = kUntouched;
  EXPECT_EQ(mcDeviceGetP2PAttribute(
                &value, static_cast<mcDeviceP2PAttr>(GetParam()), 0, 1),
            mcErrorInvalidValue);
  EXPECT_EQ(value, kUntouched);
  // Control: every enumerator is accepted.
  for (mcDeviceP2PAttr attr :
       {mcDevP2PAttrPerformanceRank, mcDevP2PAttrAccessSupported,
        mcDevP2PAttrNativeAtomicSupported,
        mcDevP2PAttrMcArrayAccessSupported}) {
    EXPECT_EQ(mcDeviceGetP2PAttribute(&value, attr, 0, 1), mcSuccess) << attr;
  }
}

INSTANTIATE_TEST_SUITE_P(NotEnumerators, BadAttribute,
                         testing::Values(0, 5, -1, 1000),
                         [](const testing::TestParamInfo<int>& info) {
                           return info.param < 0
                                      ? "Minus" + std::to_string(-info.param)
                                      : std::to_string(info.param);
                         });

struct BadPair {
  const char* name;
  int src;  // -2: the device count
  int dst;
};

class BadDevices : public PeerAccess,
                   public testing::WithParamInterface<BadPair> {
 protected:
  static int Resolve(int device) {
    return device == -2 ? DeviceCount() : device;
  }
};

TEST_P(BadDevices, AreInvalidDeviceAndStoreNothing) {
  MX_SPEC("api.peer.p2p-attribute.invalid-device");
  const int src = Resolve(GetParam().src);
  const int dst = Resolve(GetParam().dst);
  int value = kUntouched;
  EXPECT_EQ(
      mcDeviceGetP2PAttribute(&value, mcDevP2PAttrAccessSupported, src, dst),
      mcErrorInvalidDevice);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDevice);
  EXPECT_EQ(value, kUntouched);
  // Control: two distinct valid devices.
  EXPECT_EQ(mcDeviceGetP2PAttribute(&value, mcDevP2PAttrAccessSupported, 0, 1),
            mcSuccess);
  EXPECT_NE(value, kUntouched);
}

INSTANTIATE_TEST_SUITE_P(Pairs, BadDevices,
                         testing::Values(BadPair{"NegativeSource", -1, 0},
                                         BadPair{"NegativeDestination", 0, -1},
                                         BadPair{"SourcePastTheLast", -2, 0},
                                         BadPair{"DestinationPastTheLast", 1,
                                                 -2},
                                         BadPair{"SameDeviceZero", 0, 0},
                                         BadPair{"SameDeviceOne", 1, 1}),
                         [](const testing::TestParamInfo<BadPair>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
