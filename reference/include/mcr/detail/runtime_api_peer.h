// Copyright mxcts authors.
//
// mcr/detail/runtime_api_peer.h: the part of mc_runtime_api.h that declares
// peer access between devices and copies between devices. Include
// mc_runtime_api.h (or mc_runtime.h), not this header: it relies on the
// definitions made there.

#ifndef MCR_DETAIL_RUNTIME_API_PEER_H_
#define MCR_DETAIL_RUNTIME_API_PEER_H_

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// Peer access [api.peer]
// --------------------------------------------------------------------------

// Stores in `*canAccessPeer` 1 if kernels on `device` can access the memory
// of `peerDevice` once peer access is enabled, 0 if not; a device is not its
// own peer (0). Changes nothing else.
// Errors, checked in this order: mcErrorInvalidValue if `canAccessPeer` is
// null; mcErrorInvalidDevice if `device` or `peerDevice` is not a device
// ordinal. [api.peer.can-access.reports-capability]
mcError_t mcDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice);

// Stores in `*value` attribute `attr` of the link from `srcDevice` to
// `dstDevice`: mcDevP2PAttrPerformanceRank (0, the fastest: every pair of
// the reference's devices has the same link), mcDevP2PAttrAccessSupported
// (what mcDeviceCanAccessPeer(&v, srcDevice, dstDevice) reports, whether
// or not access is enabled now), mcDevP2PAttrNativeAtomicSupported (1 where
// access is supported: device atomics on a peer's memory are atomic) and
// mcDevP2PAttrMcArrayAccessSupported (0: the reference has no arrays).
// Changes nothing.
// Errors, checked in this order: mcErrorInvalidValue if `value` is null or
// `attr` is not an mcDeviceP2PAttr enumerator; mcErrorInvalidDevice if
// `srcDevice` or `dstDevice` is not a device ordinal, or both are the same
// device. [api.peer.p2p-attribute.values]
// [api.peer.p2p-attribute.access-supported-agrees-with-can-access]
mcError_t mcDeviceGetP2PAttribute(int* value, mcDeviceP2PAttr attr,
                                  int srcDevice, int dstDevice);

// Lets kernels on the current device access the device memory of
// `peerDevice`, made before or after the call, until
// mcDeviceDisablePeerAccess(peerDevice) or a reset of either device. One
// direction only: kernels on `peerDevice` gain nothing.
// Errors, checked in this order: the current device's sticky error;
// mcErrorInvalidDevice if `peerDevice` is not a device ordinal or is the
// current device; mcErrorInvalidValue if `flags` is not 0;
// mcErrorPeerAccessUnsupported if mcDeviceCanAccessPeer reports 0;
// mcErrorPeerAccessAlreadyEnabled if access is already enabled;
// mcErrorTooManyPeers if the current device already has 8 peers.
// [api.peer.enable.grants-access]
mcError_t mcDeviceEnablePeerAccess(int peerDevice, unsigned int flags);

// Revokes the access mcDeviceEnablePeerAccess(peerDevice, 0) granted to the
// current device. Errors, checked in this order: the current device's
// sticky error; mcErrorInvalidDevice if `peerDevice` is not a device ordinal
// or is the current device; mcErrorPeerAccessNotEnabled if access is not
// enabled. [api.peer.disable.revokes-access]
mcError_t mcDeviceDisablePeerAccess(int peerDevice);

// Copies `count` bytes from device memory `src` of device `srcDevice` to
// device memory `dst` of device `dstDevice` (the same device is allowed),
// whether or not peer access is enabled. Synchronous: it starts after the
// work issued before it to the current device, `srcDevice` and `dstDevice`,
// and has completed when it returns.
// Errors: mcErrorInvalidDevice if a device ordinal is invalid (checked
// first; after it, `count` 0 succeeds and copies nothing);
// mcErrorInvalidValue if a pointer is null or its range is not inside
// device memory (mcMalloc or a device variable) of the device named for it;
// the sticky error of the current device, `srcDevice` or `dstDevice`.
// [api.peer.copy.no-peer-access-needed]
// [api.peer.copy.sync-serialized-with-devices]
mcError_t mcMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice,
                       size_t count);

// mcMemcpyPeer ordered in `stream` (a default stream or a live stream of any
// device) only: asynchronous with respect to the host and other streams.
// Errors as mcMemcpyPeer's, and mcErrorInvalidResourceHandle if `stream` is
// not a live stream (checked after the device ordinals, before `count`).
// [api.peer.copy.async-ordered-in-stream-only]
mcError_t mcMemcpyPeerAsync(void* dst, int dstDevice, const void* src,
                            int srcDevice, size_t count,
                            mcStream_t stream __MC_DEFAULT(0));

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_PEER_H_
