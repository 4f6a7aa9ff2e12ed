// Copyright mxcts authors.
//
// reference/runtime/traps/trap_environment.h: the environment variables
// that say how device code traps, as the runtime read them when it
// initialized [api.env.general.read-at-initialization]
// (environment/environment_settings.h parses and validates the MACA_ ones),
// handed to the engine and the memory manager.
//
//   MACA_TRAP_HANDLER    0, 1 (the default) or 2: which exceptions trap
//                        [api.env.trap-handler.values]; any other value
//                        means 1 [api.trap.policy.invalid-value-uses-default].
//   MACA_KERNEL_TIMEOUT  milliseconds, 0 (the default: none) to 60000
//                        [api.env.kernel-timeout.values]. A decimal number
//                        above 60000 is clamped to 60000; anything that is
//                        not a decimal number (a sign, spaces, letters, an
//                        empty value) is ignored: no timeout
//                        [api.env.kernel-timeout.out-of-range].
//   MACA_MONITOR_HANG_TIMEOUT  seconds, 0 (the default: off) to 0xFFFF: the
//                        hang monitor [api.env.monitor-hang-timeout.values].
//   MXCTS_MEMCHECK       1: checked device memory (guard pages on both
//                        sides of every allocation, freed ranges never
//                        reused), so that out-of-bounds accesses and use
//                        after free trap; anything else: the packed layout.
//
//   TrapEnvironment environment = ReadTrapEnvironment();
//   ApplyTrapEnvironment(environment);

#ifndef MXCTS_REFERENCE_RUNTIME_TRAPS_TRAP_ENVIRONMENT_H_
#define MXCTS_REFERENCE_RUNTIME_TRAPS_TRAP_ENVIRONMENT_H_

#include "reference/device/engine.h"

namespace mxcts::runtime {

struct TrapEnvironment {
  mxcts::device::TrapPolicy policy = mxcts::device::TrapPolicy::kFatal;
  unsigned kernel_timeout_milliseconds = 0;
  unsigned monitor_hang_timeout_seconds = 0;
  bool checked_memory = false;
};

// Whether the value of MXCTS_MEMCHECK (null: unset) asks for checked memory.
bool ParseCheckedMemory(const char* value);

// The variables, from the process's environment settings and (for
// MXCTS_MEMCHECK) its environment.
TrapEnvironment ReadTrapEnvironment();

// Gives the engine the trap policy and the timeouts, the memory manager its
// layout, and the engine the runtime's fault classifier
// (fault_classifier.h). Call before the first allocation; later, the
// memory layout keeps what it had.
void ApplyTrapEnvironment(const TrapEnvironment& environment);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_TRAPS_TRAP_ENVIRONMENT_H_
