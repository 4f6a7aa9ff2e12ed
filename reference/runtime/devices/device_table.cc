// Copyright mxcts authors.
//
// reference/runtime/devices/device_table.cc: the process's visible devices
// and the execution lock.

#include "reference/runtime/devices/device_table.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "reference/device/engine.h"
#include "reference/runtime/devices/visible_devices.h"
#include "reference/runtime/environment/environment_settings.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/host_thread/thread_state.h"

namespace mxcts::runtime {

namespace {
std::atomic<DeviceTable*> initialized_table{nullptr};
std::atomic<void (*)()> process_initializer{nullptr};
}  // namespace

void DeviceTable::SetProcessInitializer(void (*initializer)()) {
  process_initializer.store(initializer);
}

DeviceTable& DeviceTable::Get() {
  static DeviceTable* table = [] {
    if (void (*initialize)() = process_initializer.load()) initialize();
    DeviceTable* created = new DeviceTable;
    initialized_table.store(created);
    return created;
  }();
  return *table;
}

DeviceTable* DeviceTable::GetIfInitialized() {
  return initialized_table.load();
}

DeviceTable::DeviceTable() {
  int system_count = SimulatedDeviceCount(std::getenv("MXCTS_DEVICE_COUNT"));
  // [api.env.general.read-at-initialization]
  const std::optional<std::string>& visible_value =
      ProcessEnvironment().visible_devices;
  std::vector<int> visible = VisibleSystemDevices(
      visible_value ? visible_value->c_str() : nullptr, system_count);
  for (size_t ordinal = 0; ordinal < visible.size(); ++ordinal) {
    devices_.push_back(
        std::make_unique<Device>(static_cast<int>(ordinal), visible[ordinal]));
  }
  std::atexit([] { DiscardOutputAtExit(); });
}

absl::StatusOr<Device*> DeviceTable::DeviceAt(int ordinal) const {
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

absl::StatusOr<Device*> DeviceTable::CurrentDevice() const {
  return DeviceAt(ThreadState::Current().current_device());
}

absl::StatusOr<Device*> DeviceTable::CurrentDeviceForWork() const {
  absl::StatusOr<Device*> device = CurrentDevice();
  if (!device.ok()) return device;
  absl::Status usable = (*device)->CheckUsable();
  if (!usable.ok()) return usable;
  return device;
}

void DeviceTable::SynchronizationPoint() { mxcts::device::FlushDevicePrintf(); }

void DeviceTable::DiscardOutputAtExit() {
  // [lang.printf.flush.at-process-exit] A device flushes its printf buffer
  // only at synchronization points; a process that exits without one after
  // its last printing kernel gets none of that output, in every timeline
  // mode. The reference says what was lost, so that the program's author
  // learns why.
  const std::string unwritten = mxcts::device::TakeDevicePrintfOutput();
  if (unwritten.empty()) return;
  std::fprintf(
      stderr,
      "mxmaca: %zu bytes of device printf output were not written: "
      "the process exited without a synchronization point after the "
      "kernels that printed them [lang.printf.flush.at-process-exit]\n",
      unwritten.size());
}

}  // namespace mxcts::runtime
