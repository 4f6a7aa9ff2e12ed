// Copyright mxcts authors.
//
// reference/runtime/traps/trap_environment.h: the environment variables that
// say how device code traps, read once when the runtime initializes
// [api.env.general.read-at-initialization] and handed to the engine and the
// memory manager.
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
//   MXCTS_MEMCHECK       1: checked device memory (guard pages on both
//                        sides of every allocation, freed ranges never
//                        reused), so that out-of-bounds accesses and use
//                        after free trap; anything else: the packed layout.
//
//   TrapEnvironment environment = ReadTrapEnvironment();  // getenv
//   ApplyTrapEnvironment(environment);

#ifndef MXCTS_REFERENCE_RUNTIME_TRAPS_TRAP_ENVIRONMENT_H_
#define MXCTS_REFERENCE_RUNTIME_TRAPS_TRAP_ENVIRONMENT_H_

#include "reference/device/engine.h"

namespace mxcts::runtime {

struct TrapEnvironment {
  mxcts::device::TrapPolicy policy = mxcts::device::TrapPolicy::kFatal;
  unsigned kernel_timeout_milliseconds = 0;
  bool checked_memory = false;
};

// The policy for the value of MACA_TRAP_HANDLER (null: unset).
mxcts::device::TrapPolicy ParseTrapPolicy(const char* value);
// The timeout for the value of MACA_KERNEL_TIMEOUT (null: unset).
unsigned ParseKernelTimeout(const char* value);
// Whether the value of MXCTS_MEMCHECK (null: unset) asks for checked memory.
bool ParseCheckedMemory(const char* value);

// The three variables, from the process's environment.
TrapEnvironment ReadTrapEnvironment();

// Gives the engine the trap policy and the timeout, the memory manager its
// layout, and the engine the runtime's fault classifier
// (fault_classifier.h). Call before the first allocation; later, the
// memory layout keeps what it had.
void ApplyTrapEnvironment(const TrapEnvironment& environment);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_TRAPS_TRAP_ENVIRONMENT_H_
