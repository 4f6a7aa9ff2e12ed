// Copyright mxcts authors.
//
// mcr/detail/runtime_api_device.h: the part of mc_runtime_api.h that declares
// devices: count, selection, properties, attributes, limits, synchronization,
// reset, PCI bus ids and UUIDs, cache and shared memory configuration,
// device flags, versions, initialization and the profiler switches. Include
// mc_runtime_api.h (or mc_runtime.h), not this header: it relies on the
// definitions made there.

#ifndef MCR_DETAIL_RUNTIME_API_DEVICE_H_
#define MCR_DETAIL_RUNTIME_API_DEVICE_H_

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// Devices [api.device]
// --------------------------------------------------------------------------

// Stores the number of visible devices in `*count`.
// Errors: mcErrorInvalidValue if `count` is null; mcErrorNoDevice (and 0
// stored) if no device is visible. [api.device.count.returns-visible-devices]
mcError_t mcGetDeviceCount(int* count);

// Makes `device` the calling host thread's current device.
// Errors: mcErrorInvalidDevice if `device` is not in [0, count);
// mcErrorNoDevice if no device is visible.
// [api.device.set.selects-current-device]
mcError_t mcSetDevice(int device);

// Stores the calling host thread's current device (0 until mcSetDevice).
// Errors: mcErrorInvalidValue if `device` is null; mcErrorNoDevice.
// [api.device.get.returns-current]
mcError_t mcGetDevice(int* device);

// Fills `*prop` with the properties of `device`.
// Errors: mcErrorInvalidValue if `prop` is null; mcErrorInvalidDevice for a
// bad ordinal. [api.device.props.fills-structure]
mcError_t mcGetDeviceProperties(mcDeviceProp_t* prop, int device);

// Stores the value of attribute `attr` of `device` in `*value`.
// Errors: mcErrorInvalidValue if `value` is null or `attr` is not an
// mcDeviceAttribute_t enumerator; mcErrorInvalidDevice for a bad ordinal.
// [api.device.attribute.returns-value]
mcError_t mcDeviceGetAttribute(int* value, mcDeviceAttribute_t attr,
                               int device);

// Waits for all work on the current device, writes pending device printf
// output, and returns mcSuccess or the error of failed work (a sticky fault
// such as mcErrorIllegalAddress). [api.device.synchronize.waits-for-all-work]
mcError_t mcDeviceSynchronize(void);

// Waits for the current device's work, writes pending device printf output,
// then releases every allocation and stream of the current device, restores
// its __device__ and __constant__ variables to their initial values, its
// limits, cache configuration, flags and kernel attributes to their
// defaults, and clears its sticky error. Other devices are unaffected
// (except that the reference's printf buffer and heap, shared by all
// devices, are emptied and get their default sizes).
// [api.device.reset.destroys-allocations]
// [api.device.reset.restores-defaults]
// [api.error.sticky.persists-until-reset]
mcError_t mcDeviceReset(void);

// Sets the current device's `limit` to `value` or more (rounded up, never
// down): mcLimitStackSize (bytes of stack per device thread),
// mcLimitPrintfFifoSize, mcLimitMallocHeapSize, mcLimitDevRuntimeSyncDepth,
// mcLimitDevRuntimePendingLaunchCount, mcLimitMaxL2FetchGranularity (a
// hint). In the reference the printf buffer and the device heap are shared
// by all devices.
// Errors: mcErrorUnsupportedLimit for another `limit` (the reference does
// not support mcLimitPersistingL2CacheSize); mcErrorNotPermitted while work
// submitted to the device has not completed; mcErrorInvalidValue for the
// printf buffer or heap after a kernel used them, or an L2 fetch
// granularity that is not a power of two up to 128; mcErrorMemoryAllocation
// for a value that cannot be reserved. A failed call changes nothing.
// [api.device.limit.set-then-get]
// [api.device.limit.set-while-work-pending]
mcError_t mcDeviceSetLimit(mcLimit_t limit, size_t value);

// Stores the current device's value of `limit` in `*value`.
// Errors: mcErrorInvalidValue if `value` is null; mcErrorUnsupportedLimit
// for a limit the device does not support.
// [api.device.limit.get-returns-current-value]
mcError_t mcDeviceGetLimit(size_t* value, mcLimit_t limit);

// Stores MACART_VERSION in `*version`.
// Errors: mcErrorInvalidValue if `version` is null.
// [api.device.version.runtime]
mcError_t mcRuntimeGetVersion(int* version);

// Stores the (simulated) driver's version, same encoding, in `*version`;
// initializes nothing. Errors: mcErrorInvalidValue if `version` is null.
// [api.device.version.driver]
mcError_t mcDriverGetVersion(int* version);

// Initializes the runtime if needed. `flags` must be 0.
// Errors: mcErrorInvalidValue for other flags; mcErrorNoDevice if no device
// is visible. [api.device.init.initializes]
mcError_t mcInit(unsigned int flags);

// --------------------------------------------------------------------------
// PCI bus ids and UUIDs [api.device.pci] [api.device.uuid]
// --------------------------------------------------------------------------

// Writes the PCI bus id of `device`, "%04x:%02x:%02x.%x" (domain, bus,
// device, function: "0000:1b:00.0"), into `pciBusId`, truncated to `len`
// bytes including the terminating NUL.
// Errors: mcErrorInvalidValue if `pciBusId` is null or `len` <= 0;
// mcErrorInvalidDevice for a bad ordinal. [api.device.pci.get-bus-id-format]
mcError_t mcDeviceGetPCIBusId(char* pciBusId, int len, int device);

// Stores the ordinal of the visible device whose PCI bus id is `pciBusId`
// ("[domain:]bus:device.function" in hexadecimal, either case).
// Errors: mcErrorInvalidValue if `device` or `pciBusId` is null or the
// string is not a bus id; mcErrorInvalidDevice if no visible device has it.
// [api.device.pci.get-by-bus-id-round-trip]
mcError_t mcDeviceGetByPCIBusId(int* device, const char* pciBusId);

// Stores the UUID of `device` (the same as mcDeviceProp_t::uuid).
// Errors: mcErrorInvalidValue if `uuid` is null; mcErrorInvalidDevice for a
// bad ordinal. [api.device.uuid.returns-device-uuid]
mcError_t mcDeviceGetUuid(mcUuid_t* uuid, int device);

// --------------------------------------------------------------------------
// Device configuration [api.device.func] [api.device.flags]
// --------------------------------------------------------------------------

// Records the current device's preferred split between L1 and shared
// memory (a hint that never changes results).
// Errors: mcErrorInvalidValue if `cacheConfig` is not an mcFuncCache_t.
// [api.device.func.device-cache-config]
mcError_t mcDeviceSetCacheConfig(mcFuncCache_t cacheConfig);

// Stores the current device's cache preference (mcFuncCachePreferNone until
// set). Errors: mcErrorInvalidValue if `cacheConfig` is null.
mcError_t mcDeviceGetCacheConfig(mcFuncCache_t* cacheConfig);

// Accepts any mcSharedMemConfig; the device's banks are four bytes wide
// whatever is asked. Errors: mcErrorInvalidValue for another value.
// [api.device.shared-mem-config.fixed-four-byte-banks]
mcError_t mcDeviceSetSharedMemConfig(mcSharedMemConfig config);

// Stores mcSharedMemBankSizeFourByte. Errors: mcErrorInvalidValue if
// `config` is null.
mcError_t mcDeviceGetSharedMemConfig(mcSharedMemConfig* config);

// Stores the ordinal of the visible device that best matches the fields
// of `*prop` that are set (non-zero numbers, a non-empty name).
// Errors: mcErrorInvalidValue if `device` or `prop` is null.
// [api.device.choose.best-match]
mcError_t mcChooseDevice(int* device, const mcDeviceProp_t* prop);

// Records `flags` for the current device: one of mcDeviceScheduleAuto,
// mcDeviceScheduleSpin, mcDeviceScheduleYield, mcDeviceScheduleBlockingSync,
// optionally with mcDeviceMapHost and mcDeviceLmemResizeToMax. The
// reference accepts them at any time; scheduling does not change results.
// Errors: mcErrorInvalidValue for other bits or two scheduling flags.
// [api.device.flags.set-and-get]
mcError_t mcSetDeviceFlags(unsigned int flags);

// Stores the current device's flags (mcDeviceScheduleAuto until set).
// Errors: mcErrorInvalidValue if `flags` is null.
mcError_t mcGetDeviceFlags(unsigned int* flags);

// Returns every persisting line of the current device's L2 cache to normal
// (the lines kept by an mcAccessPropertyPersisting access policy window).
// Changes no value a program reads. The reference's devices keep no
// persisting lines (persistingL2CacheMaxSize is 0), so there is nothing to
// reset and the call succeeds.
// Errors: the current device's sticky error; mcErrorNoDevice if no device
// is visible. [api.device.persisting-l2.reset-succeeds]
mcError_t mcCtxResetPersistingL2Cache(void);

// --------------------------------------------------------------------------
// Profiler control [api.device.profiler]
// --------------------------------------------------------------------------

// Start and stop profile collection by an attached profiler; without one
// (always, in the reference) they do nothing and return mcSuccess.
// [api.device.profiler.start-stop]
mcError_t mcProfilerStart(void);
mcError_t mcProfilerStop(void);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_DEVICE_H_
