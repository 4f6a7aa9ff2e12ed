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

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_PEER_H_
