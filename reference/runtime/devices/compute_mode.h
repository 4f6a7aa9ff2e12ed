// Copyright mxcts authors.
//
// reference/runtime/devices/compute_mode.h: what a device's compute mode
// allows, checked whenever a call needs a context on the device.
//
// Every simulated device is in mcComputeModeDefault unless
// MXCTS_DEVICE_CONFIG sets `computeMode` (device_profile.h):
//   - mcComputeModeDefault (0): any process and thread may use it;
//   - mcComputeModeProhibited (2): no context can be made on it, so every
//     call that needs one returns mcErrorDevicesUnavailable, while the
//     device's count, properties and attributes are still readable
//     [api.device.compute-mode.prohibited-is-devices-unavailable];
//   - mcComputeModeExclusiveProcess (3): the first process to need a
//     context on it holds it until the process exits, through a lock on a
//     file named after the device's PCI location in $TMPDIR (default /tmp);
//     another process's calls that need a context there return
//     mcErrorDevicesUnavailable
//     [api.device.compute-mode.exclusive-process].
// The deprecated exclusive-thread mode (1) is not offered: the profile
// refuses it.
//
//   MX_RETURN_IF_ERROR(ClaimContext(device.properties(), device.ordinal()));

#ifndef MXCTS_REFERENCE_RUNTIME_DEVICES_COMPUTE_MODE_H_
#define MXCTS_REFERENCE_RUNTIME_DEVICES_COMPUTE_MODE_H_

#include "absl/status/status.h"
#include "mcr/mc_runtime_types.h"

namespace mxcts::runtime {

// OK if this process may have a context on the device `properties`
// describe (ordinal `ordinal`, for messages); for the exclusive-process
// mode, claims the device for the process on the first call.
// mcErrorDevicesUnavailable otherwise.
absl::Status ClaimContext(const mcDeviceProp_t& properties, int ordinal);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_DEVICES_COMPUTE_MODE_H_
