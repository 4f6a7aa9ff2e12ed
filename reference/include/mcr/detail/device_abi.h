// Copyright mxcts authors.
//
// mcr/detail/device_abi.h: the built-in variables and device functions as
// compiled code sees them. Not for programs, which write `threadIdx.x` and
// `__syncthreads()`; this header says what those become.
//
// Every name here is `extern "C"` and starts with `__mc_dev_`. In the device
// pass mxcc prefixes every symbol with `__mcdev_`, and the device runtime
// library linked into each device image (reference/device/image) defines the
// prefixed names by forwarding to the runtime's table
// (reference/device/image/image_abi.h). The host runtime defines the
// unprefixed names too, so host code that names a built-in still links.

#ifndef MCR_DETAIL_DEVICE_ABI_H_
#define MCR_DETAIL_DEVICE_ABI_H_

#include <stddef.h>

#include "mcr/mc_runtime_types.h"

extern "C" {

// The built-in variables of the running device thread.
struct __mc_thread_context {
  uint3 threadIdx;
  uint3 blockIdx;
  dim3 blockDim;
  dim3 gridDim;
};

// Points at the engine's pointer to the running thread's context; the
// engine updates that pointer on every switch between device threads.
extern const __mc_thread_context* const* __mc_dev_context_slot;

// Block barrier; `file` and `line` name the call site for diagnostics.
void __mc_dev_syncthreads(const char* file, int line);

// The address of the calling block's instance of the __shared__ variable
// whose declaration is identified by `site`; allocated in the block's
// shared arena on first use in the block.
void* __mc_dev_shared_variable(const void* site, size_t size, size_t alignment);

// The start of the calling block's dynamic shared memory (the launch's Ns).
void* __mc_dev_dynamic_shared(void);

}  // extern "C"

// [lang.builtin.threadidx.type] [lang.builtin.read-only]: reading through a
// pointer to const makes assignment to a built-in variable ill-formed.
#define threadIdx ((*__mc_dev_context_slot)->threadIdx)
#define blockIdx ((*__mc_dev_context_slot)->blockIdx)
#define blockDim ((*__mc_dev_context_slot)->blockDim)
#define gridDim ((*__mc_dev_context_slot)->gridDim)

// [lang.sync] `__syncthreads()`: the default arguments name the caller.
inline void __syncthreads(const char* __file = __builtin_FILE(),
                          int __line = __builtin_LINE()) {
  __mc_dev_syncthreads(__file, __line);
}

#endif  // MCR_DETAIL_DEVICE_ABI_H_
