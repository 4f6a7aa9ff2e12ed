// Copyright mxcts authors.
//
// reference/runtime/devices/device_profile.h: the properties of each simulated
// device, as MXCTS_DEVICE_CONFIG configures them.
//
// Every simulated device has the default (MetaX C500) profile of
// device_config.h unless MXCTS_DEVICE_CONFIG changes it. The variable is a
// list of entries separated by `;`, each `[<system index>:]<field>=<value>`:
// without an index the entry applies to every device, with one only to that
// system device (the index MXCTS_DEVICE_COUNT numbers, before
// MACA_DEVICE_ORDER and MACA_VISIBLE_DEVICES); later entries override
// earlier ones. Fields are named as in mcDeviceProp_t; integer values are
// decimal or 0x-prefixed hexadecimal; `maxThreadsDim` and `maxGridSize`
// take three comma-separated values:
//
//   MXCTS_DEVICE_CONFIG="multiProcessorCount=8;1:name=MetaX C280;1:major=9"
//
// Only values the reference can honour are accepted: launch shapes and
// shared memory no larger than the engine supports, feature flags only
// turned off. An entry that is malformed, names an unknown field or gives a
// value out of range is ignored with a warning on stderr
// [api.env.general.invalid-value-uses-default]; a device whose values
// contradict each other (per-block more than per-multiprocessor) keeps the
// default profile. Values tied to others follow them: maxThreadsDim is
// clamped to maxThreadsPerBlock, sharedMemPerBlockOptin equals
// sharedMemPerBlock. [api.device.props.values-implementation-defined]
//
//   DeviceProfiles p = BuildDeviceProfiles("multiProcessorCount=8", 2);
//   p.devices[1].multiProcessorCount;   // 8
//   SystemDeviceProperties(0).name;     // from the process's environment

#ifndef MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_PROFILE_H_
#define MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_PROFILE_H_

#include <string>
#include <vector>

#include "mcr/mc_runtime_types.h"

namespace mxcts::runtime {

// The profiles of a simulated system and what was ignored building them.
struct DeviceProfiles {
  std::vector<mcDeviceProp_t> devices;  // indexed by system index
  std::vector<std::string> warnings;    // one per ignored entry or device
};

// The profiles of `count` system devices (0 to config::kMaxDeviceCount):
// the default profile with the entries of `config` (null or empty: none)
// applied.
DeviceProfiles BuildDeviceProfiles(const char* config, int count);

// The properties of system device `system_index` (0 to
// config::kMaxDeviceCount - 1) in this process: MXCTS_DEVICE_CONFIG is read
// on the first call, which writes its warnings to stderr.
// [api.env.general.read-at-initialization]
const mcDeviceProp_t& SystemDeviceProperties(int system_index);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_PROFILE_H_
