// Copyright mxcts authors.
//
// reference/runtime/environment/memory_tracing.h: MACA_HOTSPOT_MEMSTACK on
// the reference, the memory tracing of the runtime guide's table 4.1
// (docs/spec/api-environment.md, "Debugging").
//
// With MACA_HOTSPOT_MEMSTACK=1 every allocation and release call of the API
// (mcMalloc, mcMallocManaged, mcMallocHost, mcHostAlloc, mcMallocPitch,
// mcMalloc3D, mcMallocAsync, mcMallocFromPoolAsync, mcFree, mcFreeHost,
// mcFreeAsync) logs one info line: the call, its size, the pointer, its
// result and the code that called it, as the dynamic linker names it
// (symbol and offset, or object file and offset). With 2 the line also
// holds the call stack, innermost frame first. With 0 (the default)
// nothing is traced. [api.env.hotspot-memstack.values]
// [api.env.hotspot-memstack.reference-trace]
//
//   [MCR][I]memory_tracing.cc:88: memory trace: mcMalloc(1024 bytes) =
//   0x7f3a00000000, mcSuccess, called from main+0x4c (./program)
//
//   mcError_t result = RunApi(...);
//   TraceMemoryCall("mcMalloc", result, *ptr, size,
//                   __builtin_return_address(0));
//
// Tracing never changes what a call does or returns.

#ifndef MXCTS_REFERENCE_RUNTIME_ENVIRONMENT_MEMORY_TRACING_H_
#define MXCTS_REFERENCE_RUNTIME_ENVIRONMENT_MEMORY_TRACING_H_

#include <cstddef>
#include <string>

#include "mcr/mc_runtime_types.h"

namespace mxcts::runtime {

// Whether MACA_HOTSPOT_MEMSTACK asks for tracing and the log prints info.
bool MemoryTracingEnabled();

// Logs one traced call, if tracing is enabled: `api` returned `result`,
// for `bytes` (of an allocation; 0 for a release) at `pointer`; `caller` is
// the return address of the entry point.
void TraceMemoryCall(const char* api, mcError_t result, const void* pointer,
                     size_t bytes, const void* caller);

// How the dynamic linker names `address`: "symbol+0xoffset (object)" or
// "object+0xoffset", or the bare address.
std::string DescribeCodeAddress(const void* address);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_ENVIRONMENT_MEMORY_TRACING_H_
