// Copyright mxcts authors.
//
// ==========================================================================
// mc_runtime_api.h: the MXMACA runtime API (C declarations)
// ==========================================================================
//
// The functions a host program calls to find devices, allocate and copy
// memory, create streams, launch kernels and read back errors. Every
// function returns an mcError_t: mcSuccess when it did what it documents,
// otherwise the code of the first problem it found, which is also stored as
// the calling thread's last error (mcGetLastError). A call that fails
// argument validation changes nothing
// [api.error.return.invalid-call-changes-nothing]. After a kernel faults, calls
// that use the device return the fault
// ("sticky" error) until mcDeviceReset [api.error.sticky.later-calls-fail].
//
// Programs usually include mc_runtime.h, which adds the C++ conveniences
// (typed allocation, symbol calls taking the variable itself). This header
// alone is valid C.
//
//   float* d = NULL;
//   if (mcMalloc((void**)&d, n * sizeof(float)) != mcSuccess) return 1;
//   mcMemcpy(d, h, n * sizeof(float), mcMemcpyHostToDevice);
//   ... launch ...
//   mcError_t err = mcDeviceSynchronize();
//   if (err != mcSuccess) fprintf(stderr, "%s: %s\n", mcGetErrorName(err),
//                                 mcGetErrorString(err));
//   mcFree(d);
//
// In the reference implementation every call is safe to make from any host
// thread. Device work is queued per stream and runs when MXCTS_TIMELINE says:
// at submission (eager, the default), only when the host waits or polls
// (deferred), or in a seeded random order the streams permit (shuffle).
//
// Stream 0 (and an omitted stream) names the current device's legacy
// default stream, unless the unit is compiled with
// MACA_API_PER_THREAD_DEFAULT_STREAM defined (mxcc --default-stream
// per-thread): then it names the calling thread's per-thread default
// stream (mcr/detail/runtime_api_per_thread.h).

#ifndef MC_RUNTIME_API_H_
#define MC_RUNTIME_API_H_

#include <stddef.h>

#include "mcr/mc_runtime_types.h"

// The runtime version these headers describe: major = v / 1000,
// minor = (v % 1000) / 10, patch = v % 10. [api.device.version.runtime]
#define MACART_VERSION 2330

// Default arguments exist only for C++ callers.
#ifdef __cplusplus
#define __MC_DEFAULT(value) = value
#else
#define __MC_DEFAULT(value)
#endif

#include "mcr/detail/runtime_api_device.h"
#include "mcr/detail/runtime_api_errors.h"
#include "mcr/detail/runtime_api_event.h"
#include "mcr/detail/runtime_api_graph.h"
#include "mcr/detail/runtime_api_ipc.h"
#include "mcr/detail/runtime_api_launch.h"
#include "mcr/detail/runtime_api_memory.h"
#include "mcr/detail/runtime_api_module.h"
#include "mcr/detail/runtime_api_peer.h"
#include "mcr/detail/runtime_api_pool.h"
#include "mcr/detail/runtime_api_stream.h"
// Last: it renames functions declared above when the per-thread default
// stream is selected (MACA_API_PER_THREAD_DEFAULT_STREAM).
#include "mcr/detail/runtime_api_per_thread.h"

#endif  // MC_RUNTIME_API_H_
