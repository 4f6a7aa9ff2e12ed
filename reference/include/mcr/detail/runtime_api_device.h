// Copyright mxcts authors.
//
// mcr/detail/runtime_api_device.h: the part of mc_runtime_api.h that declares
// devices: count, selection, properties, attributes, limits, synchronization,
// reset, versions. Include mc_runtime_api.h (or mc_runtime.h), not this header:
// it relies on the definitions made there.

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
// its __device__ and __constant__ variables to their initial values and
// clears its sticky error. Other devices are unaffected.
// [api.device.reset.destroys-allocations]
// [api.error.sticky.persists-until-reset]
mcError_t mcDeviceReset(void);

// Sets the current device's `limit` to `value` or more (rounded up, never
// down): mcLimitStackSize (bytes of stack per device thread),
// mcLimitPrintfFifoSize, mcLimitMallocHeapSize, mcLimitDevRuntimeSyncDepth,
// mcLimitDevRuntimePendingLaunchCount. In the reference the printf buffer
// and the device heap are shared by all devices.
// Errors: mcErrorUnsupportedLimit for another `limit`; mcErrorInvalidValue
// for the printf buffer or heap after a kernel used them;
// mcErrorMemoryAllocation for a value that cannot be reserved. A failed
// call changes nothing. [api.device.limit.set-then-get]
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

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_DEVICE_H_
