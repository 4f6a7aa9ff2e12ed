// Copyright mxcts authors.
//
// reference/runtime/launch/device_launch.h: the runtime's services for
// dynamic parallelism (reference/device/device_runtime.h). A launch written
// in device code is checked as a host launch is (the configuration against
// the device's properties, the kernel's resources) and its arguments are
// copied [api.devrt.launch.invalid-configuration-fails-launch]; device code
// names kernels by their address in its own copy of the image, so the child
// runs in the parent's image copy.
//
//   InstallDeviceRuntime(device);  // before each top-level grid runs

#ifndef MXCTS_REFERENCE_RUNTIME_LAUNCH_DEVICE_LAUNCH_H_
#define MXCTS_REFERENCE_RUNTIME_LAUNCH_DEVICE_LAUNCH_H_

#include "reference/runtime/devices/device.h"

namespace mxcts::runtime {

// Gives the engine the runtime's device-runtime services and `device`'s
// device-runtime limits (mcLimitDevRuntimeSyncDepth,
// mcLimitDevRuntimePendingLaunchCount) for the next top-level grid, which
// runs on `device`. [api.devrt.limit.set-before-launch]
void InstallDeviceRuntime(const Device& device);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_LAUNCH_DEVICE_LAUNCH_H_
