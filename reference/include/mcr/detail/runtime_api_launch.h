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

// --------------------------------------------------------------------------
// Cooperative launch [api.coop.launch]
// --------------------------------------------------------------------------

// Launches kernel `func` as mcLaunchKernel does, with every block of the
// grid resident at once, so that cooperative_groups::this_grid().sync()
// can synchronize the whole grid (maca_cooperative_groups.h).
// Errors (nothing runs): those of mcLaunchKernel; mcErrorNotSupported on a
// device whose mcDeviceAttributeCooperativeLaunch is 0;
// mcErrorCooperativeLaunchTooLarge when the grid has more blocks than
// mcOccupancyMaxActiveBlocksPerMultiprocessor(func, block threads,
// sharedMem) times multiProcessorCount. In a capturing stream the launch
// becomes a kernel node that runs cooperatively.
// [api.coop.launch.runs-kernel] [api.coop.launch.too-large]
mcError_t mcLaunchCooperativeKernel(const void* func, dim3 gridDim,
                                    dim3 blockDim, void** args,
                                    size_t sharedMem, mcStream_t stream);

// Flags of mcLaunchCooperativeKernelMultiDevice: the kernels need not wait
// for earlier work of the other entries' streams (NoPreSync), later work
// need not wait for the other kernels (NoPostSync).
// [api.coop.multi-device.default-sync]
#define mcCooperativeLaunchMultiDeviceNoPreSync 0x01
#define mcCooperativeLaunchMultiDeviceNoPostSync 0x02

// Launches `launchParamsList[i]` on the device of its stream, for each of
// `numDevices` entries, all grids co-resident.
// Errors: mcErrorInvalidValue for a null list, `numDevices` 0 or over the
// device count, unknown flags, or entries that differ in kernel, grid,
// block or shared memory; mcErrorInvalidDevice when two entries' streams
// share a device; mcErrorInvalidResourceHandle for a stream that is not
// live; mcErrorNotSupported when a device's
// mcDeviceAttributeCooperativeMultiDeviceLaunch is 0 (every device of the
// reference). [api.coop.multi-device.entries-must-match]
// [api.coop.multi-device.distinct-devices] [api.coop.multi-device.unsupported]
mcError_t mcLaunchCooperativeKernelMultiDevice(
    mcLaunchParams* launchParamsList, unsigned int numDevices,
    unsigned int flags __MC_DEFAULT(0));

// --------------------------------------------------------------------------
// Kernel attributes [api.device.func]
//
// `func` is a kernel's host function address, on the current device. Every
// call returns mcErrorInvalidDeviceFunction when `func` is not a kernel (a
// host function, data, null). mc_runtime.h adds C++ overloads that take the
// kernel itself.
// --------------------------------------------------------------------------

// Fills `*attr` with the attributes of `func`. In the reference: the
// device's largest block, no registers, no static shared or local memory,
// and what mcFuncSetAttribute set.
// Errors: mcErrorInvalidValue if `attr` is null.
// [api.device.func.get-attributes]
mcError_t mcFuncGetAttributes(mcFuncAttributes* attr, const void* func);

// Sets attribute `attr` of `func`: mcFuncAttributeMaxDynamicSharedMemorySize
// (0 to the block's shared memory less the static part) or
// mcFuncAttributePreferredSharedMemoryCarveout (-1 to 100, a hint).
// Errors: mcErrorInvalidValue for another attribute or a value out of range.
// [api.device.func.set-max-dynamic-shared] [api.device.func.set-carveout]
mcError_t mcFuncSetAttribute(const void* func, mcFuncAttribute attr, int value);

// Records the cache preference of `func` (a hint).
// Errors: mcErrorInvalidValue if `cacheConfig` is not an mcFuncCache_t.
// [api.device.func.set-cache-config]
mcError_t mcFuncSetCacheConfig(const void* func, mcFuncCache_t cacheConfig);

// Records the shared memory bank preference of `func`; banks stay four
// bytes wide. Errors: mcErrorInvalidValue if `config` is not an
// mcSharedMemConfig. [api.device.shared-mem-config.fixed-four-byte-banks]
mcError_t mcFuncSetSharedMemConfig(const void* func, mcSharedMemConfig config);

// --------------------------------------------------------------------------
// Occupancy [api.device.occupancy]
// --------------------------------------------------------------------------

// Stores in `*numBlocks` how many blocks of `blockSize` threads of `func`,
// each with `dynamicSMemSize` bytes of dynamic shared memory, can be
// resident at once on one multiprocessor of the current device (0 if one
// block cannot be launched). Errors: mcErrorInvalidValue if `numBlocks` is
// null or `blockSize` <= 0. [api.device.occupancy.max-active-blocks]
mcError_t mcOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks,
                                                      const void* func,
                                                      int blockSize,
                                                      size_t dynamicSMemSize);

// The same with `flags`: mcOccupancyDefault or
// mcOccupancyDisableCachingOverride (no effect in the reference).
// Errors: as above, and mcErrorInvalidValue for other flags.
// [api.device.occupancy.flags]
mcError_t mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, const void* func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags);

// Stores in `*blockSize` the block size of `func` with the most resident
// threads per multiprocessor (ties: the larger block), no larger than
// `blockSizeLimit` when it is positive, and in `*minGridSize` the grid
// that fills the device with it (0 and 0 if no block fits).
// Errors: mcErrorInvalidValue if either pointer is null or
// `blockSizeLimit` < 0. [api.device.occupancy.max-potential-block-size]
mcError_t mcOccupancyMaxPotentialBlockSize(
    int* minGridSize, int* blockSize, const void* func,
    size_t dynamicSMemSize __MC_DEFAULT(0), int blockSizeLimit __MC_DEFAULT(0));

// The same with occupancy `flags`. [api.device.occupancy.flags]
mcError_t mcOccupancyMaxPotentialBlockSizeWithFlags(
    int* minGridSize, int* blockSize, const void* func, size_t dynamicSMemSize,
    int blockSizeLimit, unsigned int flags);

// Stores in `*dynamicSmemSize` the most dynamic shared memory each block of
// `func` can have so that `numBlocks` blocks of `blockSize` threads are
// resident at once on one multiprocessor (0 if they do not fit).
// Errors: mcErrorInvalidValue if `dynamicSmemSize` is null or `numBlocks`
// or `blockSize` <= 0. [api.device.occupancy.available-dynamic-shared]
mcError_t mcOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize,
                                                  const void* func,
                                                  int numBlocks, int blockSize);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_LAUNCH_H_
