// Copyright mxcts authors.
//
// reference/runtime/visible_devices.h: which simulated devices the process
// sees, and in which order, from the environment.
//
// The reference simulates MXCTS_DEVICE_COUNT system devices (default
// config::kDefaultDeviceCount). MACA_VISIBLE_DEVICES, when set, lists the
// visible ones by system index, in ordinal order; the first entry that names
// no device (out of range, not a number, or repeated) ends the list
// [api.env.visible-devices.invalid-entry-truncates]
// [api.env.visible-devices.duplicate-entry]. MACA_DEVICE_ORDER
// (FASTEST_FIRST or PCI_BUS_ID) orders system devices; the simulated devices
// are equally fast and their bus ids ascend with the system index, so both
// orders are the system order [api.env.device-order.values].
//
//   std::vector<int> v = VisibleSystemDevices("1,0,7,0", 2);   // {1, 0}
//   SimulatedDeviceCount(nullptr);                              // 2

#ifndef MXCTS_REFERENCE_RUNTIME_VISIBLE_DEVICES_H_
#define MXCTS_REFERENCE_RUNTIME_VISIBLE_DEVICES_H_

#include <vector>

namespace mxcts::runtime {

// The number of simulated system devices for the value of
// MXCTS_DEVICE_COUNT (`value` null when unset): a decimal number from 0 to
// config::kMaxDeviceCount, else the default.
// [api.env.general.invalid-value-uses-default]
int SimulatedDeviceCount(const char* value);

// The system indices of the visible devices, in ordinal order, for the
// value of MACA_VISIBLE_DEVICES (`value` null when unset: all of them).
// [api.env.visible-devices.restricts-and-renumbers]
std::vector<int> VisibleSystemDevices(const char* value, int system_count);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_VISIBLE_DEVICES_H_
