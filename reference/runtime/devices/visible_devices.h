// Copyright mxcts authors.
//
// reference/runtime/devices/visible_devices.h: which simulated devices the
// process sees, and in which order, from the environment.
//
// The reference simulates MXCTS_DEVICE_COUNT system devices (default
// config::kDefaultDeviceCount), each with its profile (device_profile.h).
// Three steps number them as the program sees them:
//
//   1. MACA_DEVICE_ORDER orders the system devices: FASTEST_FIRST (the
//      default, and what any other value means) by compute capability,
//      highest first, devices of equal capability by PCI location;
//      PCI_BUS_ID by PCI domain, bus and device, ascending
//      [api.env.device-order.values];
//   2. MACA_VISIBLE_DEVICES, when set, lists the visible ones, in ordinal
//      order, each entry either an index into that order or a device UUID
//      in the text form "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (letters
//      in either case) [api.env.visible-devices.uuid-entries]; the first
//      entry that names no device (out of range, not a number or UUID, or
//      repeated) ends the list
//      [api.env.visible-devices.invalid-entry-truncates]
//      [api.env.visible-devices.duplicate-entry];
//   3. ordinal i is the i-th visible device.
//
//   std::vector<int> v = VisibleSystemDevices("1,0,7,0", 2);   // {1, 0}
//   SimulatedDeviceCount(nullptr);                              // 2
//   UuidText(config::DeviceUuid(1));  //
//   "GPU-6d786374-7300-4000-8000-000000000001"

#ifndef MXCTS_REFERENCE_RUNTIME_DEVICES_VISIBLE_DEVICES_H_
#define MXCTS_REFERENCE_RUNTIME_DEVICES_VISIBLE_DEVICES_H_

#include <string>
#include <vector>

#include "mcr/mc_runtime_types.h"

namespace mxcts::runtime {

// The number of simulated system devices for the value of
// MXCTS_DEVICE_COUNT (`value` null when unset): a decimal number from 0 to
// config::kMaxDeviceCount, else the default.
// [api.env.general.invalid-value-uses-default]
int SimulatedDeviceCount(const char* value);

// The orders MACA_DEVICE_ORDER names; the runtime's environment settings
// (environment_settings.h) read the variable.
enum class DeviceOrder { kFastestFirst, kPciBusId };

// The system indices of the devices `system` describes (indexed by system
// index), in `order`. Stable: devices that compare equal keep their
// system order.
std::vector<int> EnumerationOrder(const std::vector<mcDeviceProp_t>& system,
                                  DeviceOrder order);

// The text of `uuid`: "GPU-" and its bytes in lowercase hexadecimal,
// grouped 8-4-4-4-12.
std::string UuidText(const mcUuid_t& uuid);

// The system indices of the visible devices, in ordinal order, for the
// value of MACA_VISIBLE_DEVICES (`value` null when unset: every device, in
// `enumeration` order). `enumeration` lists system indices in enumeration
// order; `system` gives each system device's properties (for UUIDs).
// [api.env.visible-devices.restricts-and-renumbers]
std::vector<int> SelectVisibleDevices(
    const char* value, const std::vector<int>& enumeration,
    const std::vector<mcDeviceProp_t>& system);

// The same for the process: `system_count` devices with the profiles of
// SystemDeviceProperties, ordered by MACA_DEVICE_ORDER as set now.
std::vector<int> VisibleSystemDevices(const char* value, int system_count);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_DEVICES_VISIBLE_DEVICES_H_
