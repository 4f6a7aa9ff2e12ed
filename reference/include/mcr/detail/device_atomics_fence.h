// Copyright mxcts authors.
//
// mcr/detail/device_atomics_fence.h: the memory fence functions
// `__threadfence_block()`, `__threadfence()` and `__threadfence_system()`
// (docs/spec/lang-memory-fences.md). Included by
// mcr/detail/device_atomics.h; not for programs to name.
//
// Each fence is a sequentially consistent thread fence
// (`__atomic_thread_fence(__ATOMIC_SEQ_CST)`): it keeps the compiler from
// moving the calling thread's memory accesses across it, and on the host
// processor it orders them for every other thread of the process as well.
// That is the guarantee of the widest scope, system, so each fence gives at
// least what its own scope promises
// [lang.fence.scope.wider-fence-implies-narrower]. Paired with the relaxed
// atomics of device_atomics_support.h, a fence before a publishing atomic and a
// fence after the observing one order the data accesses around them
// [lang.atomic.ordering.fence-before-publish].
//
// A fence waits for no other thread and may be called by any subset of
// threads, in divergent code [lang.fence.not-a-barrier.does-not-wait]
// [lang.fence.usable-in-divergent-code]. Like the atomics, the fences are
// device functions: in the host pass they are declared only, and a call the
// host compiler emits from host code does not compile
// [lang.fence.device-code-only].

#ifndef MCR_DETAIL_DEVICE_ATOMICS_FENCE_H_
#define MCR_DETAIL_DEVICE_ATOMICS_FENCE_H_

#include "mcr/detail/device_atomics_support.h"

#ifdef __MACA_ARCH__
#define __MC_FENCE_FUNCTION(NAME) \
  inline void NAME() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
#else
#define __MC_FENCE_FUNCTION(NAME) \
  void NAME() __MC_ATOMIC_DEVICE_ONLY(NAME, "[lang.fence.device-code-only]");
#endif

// void __threadfence_block();
//   Every thread of the caller's block that observes a write the caller
//   made after the fence also observes every write it made before; reads
//   before the fence are ordered before reads after it.
//   [lang.fence.block.orders-writes-for-block]
//   [lang.fence.block.orders-reads]
//   [lang.fence.block.equivalent-seq-cst-block-scope]
__MC_FENCE_FUNCTION(__threadfence_block)

// void __threadfence();
//   As __threadfence_block(), for every thread of the device.
//   [lang.fence.device.orders-writes-for-device]
//   [lang.fence.device.equivalent-seq-cst-device-scope]
__MC_FENCE_FUNCTION(__threadfence)

// void __threadfence_system();
//   As __threadfence(), for every observer in the system: host threads and
//   threads of peer devices, on page-locked, mapped, managed and peer
//   memory. [lang.fence.system.orders-writes-for-system]
//   [lang.fence.system.equivalent-seq-cst-system-scope]
__MC_FENCE_FUNCTION(__threadfence_system)

#endif  // MCR_DETAIL_DEVICE_ATOMICS_FENCE_H_
