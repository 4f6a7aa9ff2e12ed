// Copyright mxcts authors.
//
// Parsing of the device enumeration variables. An entry of
// MACA_VISIBLE_DEVICES, blanks around it ignored, is a decimal index into
// the enumeration order or a UUID text compared without regard to case;
// anything else names no device and ends the list. The enumeration order
// is a stable sort of the system devices, so devices equal under the
// order's key keep the order MXCTS_DEVICE_COUNT numbers them in.
//
// Tested by visible_devices_test.cc.

#include "reference/runtime/devices/visible_devices.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <tuple>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "reference/logging/log.h"
#include "reference/runtime/devices/device_config.h"
#include "reference/runtime/devices/device_profile.h"
#include "reference/runtime/environment/environment_settings.h"

namespace mxcts::runtime {
namespace {

auto PciKey(const mcDeviceProp_t& p) {
  return std::make_tuple(p.pciDomainID, p.pciBusID, p.pciDeviceID);
}

// The system index `entry` names in `enumeration`, or -1.
int NamedDevice(absl::string_view entry, const std::vector<int>& enumeration,
                const std::vector<mcDeviceProp_t>& system) {
  if (entry.empty()) return -1;
  if (std::all_of(entry.begin(), entry.end(), absl::ascii_isdigit)) {
    // [api.env.visible-devices.index-entries]
    int index = -1;
    if (!absl::SimpleAtoi(entry, &index) || index < 0 ||
        index >= static_cast<int>(enumeration.size())) {
      return -1;
    }
    return enumeration[index];
  }
  // [api.env.visible-devices.uuid-entries]
  for (int system_index : enumeration) {
    if (absl::EqualsIgnoreCase(entry, UuidText(system[system_index].uuid))) {
      return system_index;
    }
  }
  return -1;
}

}  // namespace

int SimulatedDeviceCount(const char* value) {
  int count = 0;
  if (value != nullptr &&
      absl::SimpleAtoi(absl::StripAsciiWhitespace(value), &count) &&
      count >= 0 && count <= config::kMaxDeviceCount) {
    return count;
  }
  return config::kDefaultDeviceCount;
}

std::vector<int> EnumerationOrder(const std::vector<mcDeviceProp_t>& system,
                                  DeviceOrder order) {
  std::vector<int> indices(system.size());
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<int>(i);
  std::stable_sort(indices.begin(), indices.end(), [&](int a, int b) {
    const mcDeviceProp_t& pa = system[a];
    const mcDeviceProp_t& pb = system[b];
    if (order == DeviceOrder::kFastestFirst &&
        std::tie(pa.major, pa.minor) != std::tie(pb.major, pb.minor)) {
      // Highest compute capability first.
      return std::tie(pa.major, pa.minor) > std::tie(pb.major, pb.minor);
    }
    return PciKey(pa) < PciKey(pb);
  });
  return indices;
}

std::string UuidText(const mcUuid_t& uuid) {
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    absl::StrAppendFormat(&text, "%02x",
                          static_cast<unsigned char>(uuid.bytes[i]));
  }
  return text;
}

std::vector<int> SelectVisibleDevices(
    const char* value, const std::vector<int>& enumeration,
    const std::vector<mcDeviceProp_t>& system) {
  // [api.env.visible-devices.unset-all-visible]
  if (value == nullptr) return enumeration;
  std::vector<int> visible;
  // An empty value selects nothing. [api.env.visible-devices.none-visible]
  if (absl::StripAsciiWhitespace(value).empty()) return visible;
  for (absl::string_view entry : absl::StrSplit(value, ',')) {
    int device =
        NamedDevice(absl::StripAsciiWhitespace(entry), enumeration, system);
    bool repeated =
        std::find(visible.begin(), visible.end(), device) != visible.end();
    if (device < 0 || repeated) {
      // [api.env.visible-devices.invalid-entry-truncates]
      // [api.env.visible-devices.duplicate-entry]
      // [api.env.general.invalid-value-warns]
      MCR_LOGW(
          "MACA_VISIBLE_DEVICES=\"%s\": entry \"%s\" %s; it and the "
          "entries after it are ignored",
          value, std::string(entry).c_str(),
          repeated ? "repeats a device" : "names no device");
      break;
    }
    visible.push_back(device);
  }
  return visible;
}

std::vector<int> VisibleSystemDevices(const char* value, int system_count) {
  std::vector<mcDeviceProp_t> system;
  for (int i = 0; i < system_count; ++i) {
    system.push_back(SystemDeviceProperties(i));
  }
  // [api.env.general.read-at-initialization] Read with MACA_VISIBLE_DEVICES,
  // when the runtime initializes.
  const DeviceOrder order = ProcessEnvironment().device_order_pci_bus_id
                                ? DeviceOrder::kPciBusId
                                : DeviceOrder::kFastestFirst;
  return SelectVisibleDevices(value, EnumerationOrder(system, order), system);
}

}  // namespace mxcts::runtime
