// Copyright mxcts authors.
//
// mcr/detail/runtime_api_event.h: the part of mc_runtime_api.h that declares
// events: creation, recording, queries, synchronization, elapsed time,
// destruction. Include mc_runtime_api.h (or mc_runtime.h), not this header: it
// relies on the definitions made there.

#ifndef MCR_DETAIL_RUNTIME_API_EVENT_H_
#define MCR_DETAIL_RUNTIME_API_EVENT_H_

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// Events [api.event]
// --------------------------------------------------------------------------

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_EVENT_H_
