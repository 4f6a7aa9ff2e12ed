// Copyright mxcts authors.
//
// reference/device/nested/device_runtime_calls.h: the engine's side of the
// device runtime API, the version 5 entries of the image table
// (reference/device/image/image_abi.h). Each runs on the device thread that
// calls it; the launching and synchronizing ones go to nested_grids.h.
//
//   table.device_synchronize = &DeviceSynchronize;

#ifndef REFERENCE_DEVICE_NESTED_DEVICE_RUNTIME_CALLS_H_
#define REFERENCE_DEVICE_NESTED_DEVICE_RUNTIME_CALLS_H_

#include <stddef.h>

#include "mcr/mc_runtime_types.h"

namespace mxcts::device_internal {

// `k<<<g, b, ns, s>>>(a)` in device code: the configuration, then the call
// of `k`, whose prologue calls LaunchFromKernel (1: it was the launch; 0: it
// was not the calling thread's; 2: no configuration is pending anywhere).
void PushDeviceLaunchConfiguration(dim3 grid, dim3 block, size_t shared_bytes,
                                   mcStream_t stream);
int LaunchFromKernel(const void* kernel, void** args);

// mcLaunchDevice, mcGetParameterBuffer and their V2 forms.
int LaunchDevice(const void* kernel, void* parameters, dim3 grid, dim3 block,
                 unsigned shared_bytes, mcStream_t stream);
void* GetParameterBuffer(size_t alignment, size_t size);
void* GetParameterBufferV2(const void* kernel, dim3 grid, dim3 block,
                           unsigned shared_bytes);
int LaunchDeviceV2(void* parameters, mcStream_t stream);

// The device runtime's calls with host spellings.
int DeviceSynchronize();
int DeviceLastError(int reset);
void RecordDeviceError(int error);
int DeviceGetLimit(size_t* value, int limit);
int DeviceGetDevice(int* device);
int DeviceGetAttribute(int* value, int attribute, int device);
const char* DeviceErrorText(int error, int name);
int IsGlobalPointer(const void* pointer);

// Streams and events in device code (version 6 entries; device_streams.h).
int DeviceStreamCreate(mcStream_t* stream, unsigned flags);
int DeviceStreamDestroy(mcStream_t stream);
int DeviceEventCreate(mcEvent_t* event, unsigned flags);
int DeviceEventRecord(mcEvent_t event, mcStream_t stream);
int DeviceStreamWaitEvent(mcStream_t stream, mcEvent_t event, unsigned flags);
int DeviceEventDestroy(mcEvent_t event);
// Before a device-side copy or fill into `stream`: runs the children the
// stream's earlier work consists of, so the copy follows them.
int DeviceStreamOrderWork(mcStream_t stream);

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_NESTED_DEVICE_RUNTIME_CALLS_H_
