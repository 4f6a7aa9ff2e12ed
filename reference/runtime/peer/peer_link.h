// Copyright mxcts authors.
//
// reference/runtime/peer/peer_link.h: what mcDeviceGetP2PAttribute reports
// about the link from one device to another.
//
// The reference's devices are one host process's memory, so every pair of
// distinct devices has the same link: access can be enabled
// (PeerAccessTable::CanAccess), atomics on a peer's memory are as atomic as
// on the device's own (one host thread runs all device work), the link is
// as fast as any (rank 0), and no arrays exist to reach over it.
// [api.peer.p2p-attribute.values]
//
//   IsPeerLinkAttribute(mcDevP2PAttrAccessSupported);             // true
//   PeerLinkAttribute(mcDevP2PAttrAccessSupported, 0, 1);         // 1

#ifndef MXCTS_REFERENCE_RUNTIME_PEER_PEER_LINK_H_
#define MXCTS_REFERENCE_RUNTIME_PEER_PEER_LINK_H_

#include "mc_runtime_api.h"

namespace mxcts::runtime {

// Whether `attribute` is an mcDeviceP2PAttr enumerator.
bool IsPeerLinkAttribute(int attribute);

// The value of `attribute` (an mcDeviceP2PAttr enumerator) for the link
// from `device` to `peer`, distinct valid ordinals.
// [api.peer.p2p-attribute.access-supported-agrees-with-can-access]
int PeerLinkAttribute(mcDeviceP2PAttr attribute, int device, int peer);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_PEER_PEER_LINK_H_
