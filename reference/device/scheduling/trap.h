// Copyright mxcts authors.
//
// reference/device/scheduling/trap.h: stopping a grid from device code.
//
// A trap is how the engine reports misuse it detects while device code runs
// (a failed assert, barrier misuse, a deadlock, shared memory beyond the
// block's limit, an explicit trap). It writes one diagnostic line to stderr,
//
//   mxmaca trap: kernel 'k(int*)' block (1,0,0) thread (3,0,0): <message>
//
// records the error for RunGrid to return, and abandons the whole grid by
// switching to the host context: no device thread runs again and nothing on
// the device threads' stacks is unwound. [api.trap.error.grid-stopped]
//
//   if (!site_matches) Trap(mcErrorLaunchFailure, "threads wait at ...");

#ifndef REFERENCE_DEVICE_SCHEDULING_TRAP_H_
#define REFERENCE_DEVICE_SCHEDULING_TRAP_H_

#include <string>
#include <string_view>

#include "mcr/mc_runtime_types.h"

namespace mxcts::device_internal {

class ScheduleOrder;

// Stops the running grid with `error`; `message` says what happened and
// where. Names the current thread of the current block. Must be called on a
// device thread (aborts the process otherwise). Never returns.
[[noreturn]] void Trap(mcError_t error, std::string message);

// The diagnostic line Trap writes, for a trap in `kernel` at `block` and
// `thread`; a grid that runs in a shuffled order (`order`, may be null)
// also names the order, "[MXCTS_ENGINE_ORDER=shuffle:<seed>]", so that the
// failure can be reproduced.
std::string FormatTrapDiagnostic(std::string_view kernel, uint3 block,
                                 uint3 thread, const std::string& message,
                                 const ScheduleOrder* order = nullptr);

// "(x,y,z)", the form in which diagnostics name indices.
std::string FormatIndex(uint3 index);

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_SCHEDULING_TRAP_H_
