// Copyright mxcts authors.
//
// reference/runtime/traps/fault_classifier.h: what the runtime can say about an
// address at which device code faulted, for the engine's trap diagnostic
// (mxcts::device::SetFaultClassifier).
//
// The runtime owns three kinds of memory that fault on purpose: the guard
// pages and freed ranges of its arenas (memory_manager.h; fully explained
// in checked mode, MXCTS_MEMCHECK=1), the read-only pages of the
// __constant__ variables of an image copy while a grid runs in it
// (image_registry.h), and, in checked mode, the device memory of the
// devices the running grid's device has no peer access to
// (peer_protection.h). Every such fault is an illegal address:
//
//   mxmaca trap: kernel 'k(int*)' block (0,0,0) thread (3,0,0):
//     out-of-bounds access at 0x7f0000001000 (0 bytes past the end of the
//     1024-byte allocation at 0x7f0000000c00)

#ifndef MXCTS_REFERENCE_RUNTIME_TRAPS_FAULT_CLASSIFIER_H_
#define MXCTS_REFERENCE_RUNTIME_TRAPS_FAULT_CLASSIFIER_H_

#include <stdint.h>

#include "reference/device/engine.h"

namespace mxcts::runtime {

// If `address` is runtime memory that explains a fault, sets `description`
// (mcErrorIllegalAddress and the text) and returns true
// [lang.ub.memory.out-of-bounds-global] [lang.ub.memory.use-after-free]
// [lang.ub.memory.constant-write] [lang.ub.memory.peer-pointer-without-access]
// [api.trap.error.illegal-address]; returns
// false otherwise. Called by the engine's fault handler on the OS thread
// that runs the grid; takes the memory manager's and the image registry's
// locks, which device code never holds.
bool ClassifyRuntimeFault(uintptr_t address,
                          mxcts::device::FaultDescription* description);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_TRAPS_FAULT_CLASSIFIER_H_
