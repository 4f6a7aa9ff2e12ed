// Copyright mxcts authors.
//
// Parsing of the device enumeration variables. An entry is a decimal
// system index, surrounded by optional blanks; device UUID entries are not
// accepted yet (mcUuid_t is not part of the API yet), so a UUID entry ends
// the list like any other entry that names no device.
//
// Tested by visible_devices_test.cc.

#include "reference/runtime/visible_devices.h"

#include <algorithm>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "reference/runtime/device_config.h"

namespace mxcts::runtime {

int SimulatedDeviceCount(const char* value) {
  int count = 0;
  if (value != nullptr &&
      absl::SimpleAtoi(absl::StripAsciiWhitespace(value), &count) &&
      count >= 0 && count <= config::kMaxDeviceCount) {
    return count;
  }
  return config::kDefaultDeviceCount;
}

std::vector<int> VisibleSystemDevices(const char* value, int system_count) {
  std::vector<int> visible;
  if (value == nullptr) {  // [api.env.visible-devices.unset-all-visible]
    for (int i = 0; i < system_count; ++i) visible.push_back(i);
    return visible;
  }
  // An empty value selects nothing. [api.env.visible-devices.none-visible]
  if (absl::StripAsciiWhitespace(value).empty()) return visible;
  for (absl::string_view entry : absl::StrSplit(value, ',')) {
    entry = absl::StripAsciiWhitespace(entry);
    int index = -1;
    // [api.env.visible-devices.index-entries]
    bool names_device =
        !entry.empty() &&
        std::all_of(entry.begin(), entry.end(), absl::ascii_isdigit) &&
        absl::SimpleAtoi(entry, &index) && index >= 0 && index < system_count;
    bool repeated = names_device && std::find(visible.begin(), visible.end(),
                                              index) != visible.end();
    if (!names_device || repeated) break;
    visible.push_back(index);
  }
  return visible;
}

}  // namespace mxcts::runtime
