// Copyright mxcts authors.
//
// mcr/detail/runtime_api_errors.h: the part of mc_runtime_api.h that declares
// the error queries: last error, names and descriptions of codes. Include
// mc_runtime_api.h (or mc_runtime.h), not this header: it relies on the
// definitions made there.

#ifndef MCR_DETAIL_RUNTIME_API_ERRORS_H_
#define MCR_DETAIL_RUNTIME_API_ERRORS_H_

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// Errors [api.error]
// --------------------------------------------------------------------------

// Returns the calling host thread's last error and resets it to mcSuccess.
// A pending sticky error is returned again by the next call that uses the
// device. Never fails. [api.error.last.get-returns-and-resets]
mcError_t mcGetLastError(void);

// Returns the calling host thread's last error without resetting it.
// [api.error.last.peek-does-not-reset]
mcError_t mcPeekAtLastError(void);

// Returns a static English description of `error`, or a text saying the
// code is unrecognized. Never null; changes no state.
// [api.error.string.description-for-every-code]
const char* mcGetErrorString(mcError_t error);

// Returns the enumerator's spelling ("mcErrorInvalidValue"), or a text
// saying the code is unrecognized. Never null; changes no state.
// [api.error.string.name-is-enumerator-spelling]
const char* mcGetErrorName(mcError_t error);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_ERRORS_H_
