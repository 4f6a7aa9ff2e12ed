// Copyright mxcts authors.
//
// reference/runtime/devices/device_table.h: the process's visible devices,
// the calling thread's current device among them, and the lock under which
// the devices run their work.
//
// The table is made on first use, by whichever layer asks first, from
// MXCTS_DEVICE_COUNT, MACA_VISIBLE_DEVICES and MACA_DEVICE_ORDER, read once
// [api.env.general.read-at-initialization]. Just before, it runs the
// process initializer that the process layer (process/runtime.cc) registers
// when the runtime is loaded: that is how the rest of the environment (the
// trap variables) is in force before any device exists, without this layer
// knowing the layers above. The entry points and the layers below them
// (timeline, memory, peer access, launches) use the table to find a device
// by ordinal and to take the execution lock. Calls that do device work
// (launches, copies, sets, frees, synchronization, reset) hold the execution
// lock while they do it, so work from several host threads is executed one
// piece at a time, each piece complete before the next starts.
//
//   DeviceTable& devices = DeviceTable::Get();
//   absl::StatusOr<Device*> device = devices.CurrentDeviceForWork();
//   absl::MutexLock lock(&devices.execution_mutex());
//   ... do the work ...

#ifndef MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_TABLE_H_
#define MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_TABLE_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "reference/runtime/devices/device.h"

namespace mxcts::runtime {

class DeviceTable {
 public:
  // The table, made on first use.
  static DeviceTable& Get();
  // The table if it has been made, else null (for calls that must not
  // initialize the runtime, such as mcGetLastError).
  static DeviceTable* GetIfInitialized();

  // Makes `initializer` run once, right before the table is made. Called
  // by the process layer while the runtime is loaded, before any table
  // exists; a later call replaces the initializer.
  static void SetProcessInitializer(void (*initializer)());

  // The number of visible devices. [api.device.count.stable-for-process]
  int device_count() const { return static_cast<int>(devices_.size()); }
  // The device with `ordinal`. mcErrorNoDevice if no device is visible,
  // mcErrorInvalidDevice if `ordinal` is out of range.
  absl::StatusOr<Device*> DeviceAt(int ordinal) const;
  // The calling thread's current device (errors as DeviceAt).
  absl::StatusOr<Device*> CurrentDevice() const;
  // The current device, or its sticky error if it has one: the start of
  // every call that does work on the current device.
  absl::StatusOr<Device*> CurrentDeviceForWork() const;

  // Held while device work runs. Taken before any other runtime lock.
  absl::Mutex& execution_mutex() { return execution_mutex_; }

  // Writes pending device printf output: done at every point where the
  // host synchronizes with a device.
  static void SynchronizationPoint();
  // At process exit: discards pending device printf output, saying on
  // stderr how much was lost. [lang.printf.flush.at-process-exit]
  static void DiscardOutputAtExit();

 private:
  DeviceTable();

  std::vector<std::unique_ptr<Device>> devices_;
  absl::Mutex execution_mutex_;
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_DEVICES_DEVICE_TABLE_H_
