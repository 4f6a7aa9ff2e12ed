// Copyright mxcts authors.
//
// Runtime initialization and the device-level operations that span several
// runtime objects. The Runtime object is created on first use and never
// destroyed, so calls made while the process exits (from other static
// destructors) still find it; pending device printf output is written by an
// exit handler registered at initialization.
//
// Tested by runtime_test.cc and the api_*_test.cc files.

#include "reference/runtime/runtime.h"

#include <atomic>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "reference/device/engine.h"
#include "reference/runtime/error_mapping.h"
#include "reference/runtime/event.h"
#include "reference/runtime/image_registry.h"
#include "reference/runtime/memory_manager.h"
#include "reference/runtime/peer_access.h"
#include "reference/runtime/stream.h"
#include "reference/runtime/thread_state.h"
#include "reference/runtime/timeline.h"
#include "reference/runtime/trap_environment.h"
#include "reference/runtime/visible_devices.h"

namespace mxcts::runtime {

namespace {
std::atomic<Runtime*> initialized_runtime{nullptr};
}  // namespace

Runtime& Runtime::Get() {
  static Runtime* runtime = [] {
    Runtime* created = new Runtime;
    initialized_runtime.store(created);
    return created;
  }();
  return *runtime;
}

Runtime* Runtime::GetIfInitialized() { return initialized_runtime.load(); }

Runtime::Runtime() {
#ifdef NDEBUG
  // The system's absl is built with its deadlock detection on, which
  // quadruples the cost of every lock an entry point takes. Optimized
  // builds of the runtime turn it off; test builds (no NDEBUG) keep it, so
  // the tests still catch lock-order inversions.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
#endif
  // [api.env.general.read-at-initialization] MACA_TRAP_HANDLER,
  // MACA_KERNEL_TIMEOUT and MXCTS_MEMCHECK, before any allocation.
  ApplyTrapEnvironment(ReadTrapEnvironment());
  int system_count = SimulatedDeviceCount(std::getenv("MXCTS_DEVICE_COUNT"));
  std::vector<int> visible =
      VisibleSystemDevices(std::getenv("MACA_VISIBLE_DEVICES"), system_count);
  for (size_t ordinal = 0; ordinal < visible.size(); ++ordinal) {
    devices_.push_back(
        std::make_unique<Device>(static_cast<int>(ordinal), visible[ordinal]));
  }
  std::atexit([] { SynchronizationPoint(); });
}

absl::StatusOr<Device*> Runtime::DeviceAt(int ordinal) const {
  if (devices_.empty()) {  // [api.env.visible-devices.none-visible]
    return McStatus(mcErrorNoDevice, "no device is visible");
  }
  if (ordinal < 0 || ordinal >= device_count()) {
    return McStatus(mcErrorInvalidDevice,
                    absl::StrCat("device ", ordinal, " does not exist (",
                                 device_count(), " visible)"));
  }
  return devices_[ordinal].get();
}

absl::StatusOr<Device*> Runtime::CurrentDevice() const {
  return DeviceAt(ThreadState::Current().current_device());
}

absl::StatusOr<Device*> Runtime::CurrentDeviceForWork() const {
  absl::StatusOr<Device*> device = CurrentDevice();
  if (!device.ok()) return device;
  absl::Status usable = (*device)->CheckUsable();
  if (!usable.ok()) return usable;
  return device;
}

void Runtime::SynchronizationPoint() { mxcts::device::FlushDevicePrintf(); }

void Runtime::ResetDevice(Device& device) {
  // [api.device.reset.waits-for-pending-work] (work of a faulted device is
  // skipped, not run).
  Timeline& timeline = Timeline::Get();
  timeline.RunDevice(device.ordinal());
  SynchronizationPoint();
  timeline.TakePendingError(device.ordinal());
  // [api.event.destroy.device-reset-destroys]
  EventTable::Get().DestroyAll(device.ordinal());
  // [api.peer.enable.persists-until-disabled]: access from and to the
  // device ends.
  ResetPeerAccess(device.ordinal());
  MemoryManager::Get().ReleaseDevice(device.ordinal());
  StreamTable::Get().DestroyAll(device.ordinal());
  ImageRegistry::Get().ResetDevice(device.ordinal());
  // [lang.malloc.lifetime.released-by-device-reset] The engine's heap and
  // printf buffer are shared by the simulated devices, so resetting any
  // device releases the heap of all (printf output was flushed before).
  mxcts::device::ResetDeviceState();
  device.ClearFault();
}

}  // namespace mxcts::runtime
