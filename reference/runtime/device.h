// Copyright mxcts authors.
//
// reference/runtime/device.h: one visible device of the process.
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
//   Device device(/*ordinal=*/0, /*system_index=*/0);
//   device.properties().warpSize;                          // 64
//   device.Attribute(mcDeviceAttributeMaxGridDimX);         // 2147483647
//   device.RecordFault(mcErrorIllegalAddress);
//   device.CheckUsable();   // McStatus(mcErrorIllegalAddress, ...)

#ifndef MXCTS_REFERENCE_RUNTIME_DEVICE_H_
#define MXCTS_REFERENCE_RUNTIME_DEVICE_H_

#include <atomic>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mc_runtime_api.h"
#include "reference/runtime/device_limits.h"

namespace mxcts::runtime {

class Device {
 public:
  Device(int ordinal, int system_index);
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  int ordinal() const { return ordinal_; }
  int system_index() const { return system_index_; }
  const mcDeviceProp_t& properties() const { return properties_; }

  // The value of `attribute`; mcErrorInvalidValue if it is not an
  // mcDeviceAttribute_t enumerator.
  // [api.device.attribute.invalid-attribute-is-invalid-value]
  absl::StatusOr<int> Attribute(int attribute) const;

  // Makes `fault` (a sticky code) the device's sticky error, unless one is
  // already pending: the first fault is the one reported.
  void RecordFault(mcError_t fault);
  // The pending sticky error, or mcSuccess.
  mcError_t sticky_error() const { return sticky_error_.load(); }
  // OK, or the sticky error as a status.
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
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_DEVICE_H_
