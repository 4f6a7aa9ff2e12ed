// Copyright mxcts authors.
//
// reference/runtime/runtime.h: the process's runtime: its devices, the
// calling thread's current device, and the lock that orders device work.
//
// The runtime initializes on the first call that needs a device, reading
// MXCTS_DEVICE_COUNT, MACA_VISIBLE_DEVICES and MACA_DEVICE_ORDER (and the
// trap variables of trap_environment.h) once
// [api.env.general.read-at-initialization]
// [api.device.context.implicit-initialization]. Calls that do device work
// (launches, copies, sets, frees, synchronization, reset) hold the execution
// lock while they do it, so work from several host threads is executed one
// piece at a time, each piece complete before the next starts: with eager
// execution that is every ordering the streams of the API can require.
//
//   Runtime& runtime = Runtime::Get();
//   absl::StatusOr<Device*> device = runtime.CurrentDeviceForWork();
//   absl::MutexLock lock(&runtime.execution_mutex());
//   ... do the work ...

#ifndef MXCTS_REFERENCE_RUNTIME_RUNTIME_H_
#define MXCTS_REFERENCE_RUNTIME_RUNTIME_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "reference/runtime/device.h"

namespace mxcts::runtime {

class Runtime {
 public:
  // The runtime, initialized on first use.
  static Runtime& Get();
  // The runtime if some call has initialized it, else null (for calls that
  // must not initialize it, such as mcGetLastError).
  static Runtime* GetIfInitialized();

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
  // host synchronizes with a device, and at exit.
  static void SynchronizationPoint();

  // Releases everything `device` owns (allocations, streams), restores its
  // variables and clears its sticky error. The caller holds the execution
  // lock. [api.device.reset.destroys-allocations]
  void ResetDevice(Device& device);

 private:
  Runtime();

  std::vector<std::unique_ptr<Device>> devices_;
  absl::Mutex execution_mutex_;
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_RUNTIME_H_
