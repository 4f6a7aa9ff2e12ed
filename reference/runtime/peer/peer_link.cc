// Copyright mxcts authors.
//
// The link attributes follow the peer access table's capability, so that
// mcDeviceGetP2PAttribute and mcDeviceCanAccessPeer cannot disagree.
//
// Tested by peer_link_test.cc.

#include "reference/runtime/peer/peer_link.h"

#include "reference/runtime/peer/peer_access.h"

namespace mxcts::runtime {

bool IsPeerLinkAttribute(int attribute) {
  return attribute == mcDevP2PAttrPerformanceRank ||
         attribute == mcDevP2PAttrAccessSupported ||
         attribute == mcDevP2PAttrNativeAtomicSupported ||
         attribute == mcDevP2PAttrMcArrayAccessSupported;
}

int PeerLinkAttribute(mcDeviceP2PAttr attribute, int device, int peer) {
  const bool can_access = PeerAccessTable::Get().CanAccess(device, peer);
  switch (attribute) {
    case mcDevP2PAttrPerformanceRank:
      return 0;  // one kind of link: every link is the fastest
    case mcDevP2PAttrAccessSupported:
      return can_access ? 1 : 0;
    case mcDevP2PAttrNativeAtomicSupported:
      // Device atomics run on the one host thread that runs all device
      // work, on the peer's memory as on the device's own.
      return can_access ? 1 : 0;
    case mcDevP2PAttrMcArrayAccessSupported:
      return 0;  // the reference has no arrays
  }
  return 0;
}

}  // namespace mxcts::runtime
