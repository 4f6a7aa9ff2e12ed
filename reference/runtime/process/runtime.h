// Copyright mxcts authors.
//
// reference/runtime/process/runtime.h: the process's runtime: initialization
// from the environment, and the device-level operations that span every
// subsystem (reset).
//
// The runtime initializes on the first call that needs a device: the device
// table (devices/device_table.h) is made, which first runs this layer's
// process initializer (the trap variables of trap_environment.h and
// MACA_MPS_MODE, mps_mode.h), then reads MXCTS_DEVICE_COUNT,
// MACA_VISIBLE_DEVICES and MACA_DEVICE_ORDER, all once
// [api.env.general.read-at-initialization]
// [api.device.context.implicit-initialization]. Every entry point that
// touches a device starts here; the device lookups and the execution lock
// are the device table's, forwarded so that an entry point names one object.
//
//   Runtime& runtime = Runtime::Get();
//   absl::StatusOr<Device*> device = runtime.CurrentDeviceForWork();
//   absl::MutexLock lock(&runtime.execution_mutex());
//   ... do the work ...

#ifndef MXCTS_REFERENCE_RUNTIME_PROCESS_RUNTIME_H_
#define MXCTS_REFERENCE_RUNTIME_PROCESS_RUNTIME_H_

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "reference/runtime/devices/device.h"
#include "reference/runtime/devices/device_table.h"

namespace mxcts::runtime {

class Runtime {
 public:
  // The runtime, initialized on first use.
  static Runtime& Get();

  // The device table's answers (device_table.h).
  int device_count() const { return devices_.device_count(); }
  absl::StatusOr<Device*> DeviceAt(int ordinal) const {
    return devices_.DeviceAt(ordinal);
  }
  absl::StatusOr<Device*> CurrentDevice() const {
    return devices_.CurrentDevice();
  }
  absl::StatusOr<Device*> CurrentDeviceForWork() const {
    return devices_.CurrentDeviceForWork();
  }
  absl::Mutex& execution_mutex() { return devices_.execution_mutex(); }
  static void SynchronizationPoint() { DeviceTable::SynchronizationPoint(); }

  // Releases everything `device` owns (allocations, streams, events, peer
  // access, loaded images), restores its variables and clears its sticky
  // error. The caller holds the execution lock.
  // [api.device.reset.destroys-allocations]
  void ResetDevice(Device& device);

 private:
  Runtime();

  DeviceTable& devices_;
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_PROCESS_RUNTIME_H_
