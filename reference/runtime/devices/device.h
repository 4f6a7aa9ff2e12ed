// Copyright mxcts authors.
//
// reference/runtime/devices/device.h: one visible device of the process.
//
// A Device holds what the runtime knows about one simulated device: its
// ordinal (as the program numbers devices), the system device it is (before
// MACA_VISIBLE_DEVICES renumbering), its properties and attributes, and its
// sticky error. Memory, streams and images are kept by their own classes,
// keyed by the ordinal.
//
// The sticky error is the first fault (trap) of a kernel on the device.
// Until mcDeviceReset clears it, every call that uses the device returns it
// [api.error.sticky.later-calls-fail]; CheckUsable is that test.
//
// The device also keeps what the program configures on it: its limits
// (device_limits.h), its cache preference (mcDeviceSetCacheConfig) and its
// flags (mcSetDeviceFlags); ResetSettings restores all of them
// [api.device.reset.restores-defaults].
//
//   Device device(/*ordinal=*/0, /*system_index=*/0);
//   device.properties().warpSize;                          // 64
//   device.Attribute(mcDeviceAttributeMaxGridDimX);         // 2147483647
//   device.PciBusId();                                      // "0000:1b:00.0"
//   device.RecordFault(mcErrorIllegalAddress);
//   device.CheckUsable();   // McStatus(mcErrorIllegalAddress, ...)

#ifndef MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_H_
#define MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_H_

#include <atomic>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mc_runtime_api.h"
#include "reference/runtime/devices/device_limits.h"

namespace mxcts::runtime {

class Device {
 public:
  Device(int ordinal, int system_index);
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  int ordinal() const { return ordinal_; }
  int system_index() const { return system_index_; }
  // The profile of system device `system_index` (device_profile.h).
  const mcDeviceProp_t& properties() const { return properties_; }

  // The value of `attribute`; mcErrorInvalidValue if it is not an
  // mcDeviceAttribute_t enumerator.
  // [api.device.attribute.invalid-attribute-is-invalid-value]
  absl::StatusOr<int> Attribute(int attribute) const;

  // The PCI bus id, "%04x:%02x:%02x.0" of domain, bus and device.
  // [api.device.pci.get-bus-id-format]
  std::string PciBusId() const;

  // The cache preference of mcDeviceSetCacheConfig (a hint); initially
  // mcFuncCachePreferNone. The caller validates `config`.
  // [api.device.func.device-cache-config]
  mcFuncCache_t cache_config() const { return cache_config_.load(); }
  void set_cache_config(mcFuncCache_t config) { cache_config_.store(config); }

  // The flags of mcSetDeviceFlags; initially mcDeviceScheduleAuto. The
  // caller validates `flags`. [api.device.flags.set-and-get]
  unsigned flags() const { return flags_.load(); }
  void set_flags(unsigned flags) { flags_.store(flags); }

  // Back to the defaults: limits, cache preference, flags.
  // [api.device.reset.restores-defaults]
  void ResetSettings();

  // Makes `fault` (a sticky code) the device's sticky error, unless one is
  // already pending: the first fault is the one reported.
  void RecordFault(mcError_t fault);
  // The pending sticky error, or mcSuccess.
  mcError_t sticky_error() const { return sticky_error_.load(); }
  // OK if a call may use the device: mcErrorDevicesUnavailable when its
  // compute mode refuses this process a context (compute_mode.h), else the
  // sticky error as a status, if any.
  absl::Status CheckUsable() const;
  // Clears the sticky error. [api.error.sticky.reset-recovery]
  void ClearFault() { sticky_error_.store(mcSuccess); }

  // The device's limits (mcDeviceSetLimit / mcDeviceGetLimit).
  DeviceLimits& limits() { return limits_; }
  const DeviceLimits& limits() const { return limits_; }

 private:
  const int ordinal_;
  const int system_index_;
  const mcDeviceProp_t properties_;
  std::atomic<mcError_t> sticky_error_{mcSuccess};
  DeviceLimits limits_;
  std::atomic<mcFuncCache_t> cache_config_{mcFuncCachePreferNone};
  std::atomic<unsigned> flags_{mcDeviceScheduleAuto};
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_H_
