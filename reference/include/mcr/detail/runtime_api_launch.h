// Copyright mxcts authors.
//
// mcr/detail/runtime_api_launch.h: the part of mc_runtime_api.h that declares
// kernel launches, kernel attributes and the occupancy calculators. Include
// mc_runtime_api.h (or mc_runtime.h), not this header: it relies on the
// definitions made there.

#ifndef MCR_DETAIL_RUNTIME_API_LAUNCH_H_
#define MCR_DETAIL_RUNTIME_API_LAUNCH_H_

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// Launch [lang.launch]
// --------------------------------------------------------------------------

// Launches kernel `func` (its host function address) on the current device
// with a grid of `grid` blocks of `block` threads, `sharedMem` bytes
// of dynamic shared memory per block, in `stream`. `args[i]` points at the
// i-th argument; the arguments are copied before the call returns.
// Errors (the kernel does not run): mcErrorInvalidDeviceFunction if `func`
// is not a kernel; mcErrorInvalidConfiguration for a zero extent, a block
// over maxThreadsPerBlock or maxThreadsDim, a grid over maxGridSize, or
// `sharedMem` over sharedMemPerBlock; mcErrorInvalidResourceHandle for a
// stream that is not live on the current device; mcErrorInvalidValue if
// `args` is null for a kernel with parameters. Faults during execution are
// reported by later calls. [lang.launch.operand.equivalent-to-mclaunchkernel]
mcError_t mcLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                         size_t sharedMem, mcStream_t stream);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_LAUNCH_H_
