// Copyright mxcts authors.
//
// MXCTS_DEVICE_CONFIG is applied in three steps. Each entry is parsed and
// checked alone against a table of the fields the reference lets a user
// change, each with the range it can honour; a failing entry is dropped
// with a warning. The surviving entries are applied in order to a copy of
// the default profile of each device they name. Then each device is
// checked as a whole (the per-block limits fit the multiprocessor's) and
// its tied values are derived; a device that fails keeps the default.
//
// Tested by device_profile_test.cc.

#include "reference/runtime/devices/device_profile.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "reference/device/engine.h"
#include "reference/runtime/devices/device_config.h"

namespace mxcts::runtime {
namespace {

constexpr int64_t kIntMax = std::numeric_limits<int>::max();

// One field a user may change: its name, how many integers its value has
// (0 for the name), their range, and how to store them.
struct Field {
  const char* name;
  int arity;
  int64_t min;
  int64_t max;
  std::function<void(mcDeviceProp_t&, const int64_t*)> store;
};

// A flag the reference supports may be turned off, never on.
int64_t DefaultFlag(int mcDeviceProp::*member) {
  return config::DefaultDeviceProperties(0).*member;
}

template <typename T>
Field Scalar(const char* name, T mcDeviceProp::*member, int64_t min,
             int64_t max) {
  return {name, 1, min, max, [member](mcDeviceProp_t& p, const int64_t* v) {
            p.*member = static_cast<T>(v[0]);
          }};
}

Field Flag(const char* name, int mcDeviceProp::*member) {
  return Scalar(name, member, 0, DefaultFlag(member));
}

Field Triple(const char* name, int (mcDeviceProp::*member)[3], int64_t min,
             int64_t max) {
  return {name, 3, min, max, [member](mcDeviceProp_t& p, const int64_t* v) {
            for (int i = 0; i < 3; ++i) (p.*member)[i] = static_cast<int>(v[i]);
          }};
}

const std::vector<Field>& Fields() {
  using P = mcDeviceProp;
  static const std::vector<Field>* fields = new std::vector<Field>{
      {"name", 0, 1, sizeof(P::name) - 1, nullptr},
      Scalar("totalGlobalMem", &P::totalGlobalMem, int64_t{1} << 20,
             static_cast<int64_t>(config::kTotalGlobalMem)),
      // The engine's shared arena and block size bound these.
      Scalar("sharedMemPerBlock", &P::sharedMemPerBlock, 1024,
             static_cast<int64_t>(device::kSharedBytesPerBlock)),
      Scalar("sharedMemPerMultiprocessor", &P::sharedMemPerMultiprocessor, 1024,
             int64_t{16} << 20),
      Scalar("regsPerBlock", &P::regsPerBlock, 1, int64_t{1} << 24),
      Scalar("regsPerMultiprocessor", &P::regsPerMultiprocessor, 1,
             int64_t{1} << 24),
      Scalar("maxThreadsPerBlock", &P::maxThreadsPerBlock, config::kWaveSize,
             device::kMaxThreadsPerBlock),
      Triple("maxThreadsDim", &P::maxThreadsDim, 1,
             device::kMaxThreadsPerBlock),
      Triple("maxGridSize", &P::maxGridSize, 1, kIntMax),
      Scalar("maxThreadsPerMultiProcessor", &P::maxThreadsPerMultiProcessor,
             config::kWaveSize, 65536),
      Scalar("maxBlocksPerMultiProcessor", &P::maxBlocksPerMultiProcessor, 1,
             1024),
      Scalar("multiProcessorCount", &P::multiProcessorCount, 1, 4096),
      Scalar("major", &P::major, 1, 99),
      Scalar("minor", &P::minor, 0, 9),
      Scalar("clockRate", &P::clockRate, 1, kIntMax),
      Scalar("memoryClockRate", &P::memoryClockRate, 1, kIntMax),
      Scalar("memoryBusWidth", &P::memoryBusWidth, 1, 65536),
      Scalar("l2CacheSize", &P::l2CacheSize, 0, kIntMax),
      Scalar("asyncEngineCount", &P::asyncEngineCount, 0, 8),
      Scalar("pciDomainID", &P::pciDomainID, 0, 0xffff),
      Scalar("pciBusID", &P::pciBusID, 0, 0xff),
      Scalar("pciDeviceID", &P::pciDeviceID, 0, 0x1f),
      Scalar("multiGpuBoardGroupID", &P::multiGpuBoardGroupID, 0, kIntMax),
      Scalar("isMultiGpuBoard", &P::isMultiGpuBoard, 0, 1),
      Scalar("ECCEnabled", &P::ECCEnabled, 0, 1),
      Scalar("kernelExecTimeoutEnabled", &P::kernelExecTimeoutEnabled, 0, 1),
      Scalar("globalL1CacheSupported", &P::globalL1CacheSupported, 0, 1),
      Scalar("localL1CacheSupported", &P::localL1CacheSupported, 0, 1),
      // compute_mode.h; 1, the deprecated exclusive-thread mode, is refused
      // by CompleteProfile.
      Scalar("computeMode", &P::computeMode, mcComputeModeDefault,
             mcComputeModeExclusiveProcess),
      Flag("deviceOverlap", &P::deviceOverlap),
      Flag("canMapHostMemory", &P::canMapHostMemory),
      Flag("concurrentKernels", &P::concurrentKernels),
      Flag("managedMemory", &P::managedMemory),
      Flag("concurrentManagedAccess", &P::concurrentManagedAccess),
      Flag("cooperativeLaunch", &P::cooperativeLaunch),
      Flag("memoryPoolsSupported", &P::memoryPoolsSupported),
      Flag("hostRegisterSupported", &P::hostRegisterSupported),
      // [api.stream.priority-range.unsupported-device-reports-zero]
      Flag("streamPrioritiesSupported", &P::streamPrioritiesSupported),
  };
  return *fields;
}

const Field* FindField(absl::string_view name) {
  for (const Field& field : Fields()) {
    if (name == field.name) return &field;
  }
  return nullptr;
}

std::optional<int64_t> ParseInteger(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  int64_t value = 0;
  if (absl::StartsWith(text, "0x") || absl::StartsWith(text, "0X")) {
    text.remove_prefix(2);
    if (text.empty() || !absl::SimpleHexAtoi(text, &value)) return {};
    return value;
  }
  if (text.empty() ||
      !std::all_of(text.begin(), text.end(), absl::ascii_isdigit) ||
      !absl::SimpleAtoi(text, &value)) {
    return {};
  }
  return value;
}

// One entry that passed its own checks.
struct Entry {
  int device = -1;  // -1: every device
  const Field* field = nullptr;
  std::string text;  // the name's value
  int64_t values[3] = {0, 0, 0};
};

// Parses `raw`; on failure says why in `why`.
std::optional<Entry> ParseEntry(absl::string_view raw, int count,
                                std::string& why) {
  Entry entry;
  const size_t equals = raw.find('=');
  if (equals == absl::string_view::npos) {
    why = "no '='";
    return {};
  }
  absl::string_view key = absl::StripAsciiWhitespace(raw.substr(0, equals));
  absl::string_view value = raw.substr(equals + 1);
  const size_t colon = key.find(':');
  if (colon != absl::string_view::npos) {
    std::optional<int64_t> index = ParseInteger(key.substr(0, colon));
    if (!index.has_value() || *index < 0 || *index >= count) {
      why = absl::StrCat("no system device '", key.substr(0, colon), "'");
      return {};
    }
    entry.device = static_cast<int>(*index);
    key = absl::StripAsciiWhitespace(key.substr(colon + 1));
  }
  entry.field = FindField(key);
  if (entry.field == nullptr) {
    why = absl::StrCat("'", key, "' is not a field the reference can change");
    return {};
  }
  if (entry.field->arity == 0) {
    value = absl::StripAsciiWhitespace(value);
    if (value.empty() || value.size() > static_cast<size_t>(entry.field->max)) {
      why = absl::StrCat("the name must have 1 to ", entry.field->max,
                         " characters");
      return {};
    }
    entry.text = std::string(value);
    return entry;
  }
  std::vector<absl::string_view> parts = absl::StrSplit(value, ',');
  if (static_cast<int>(parts.size()) != entry.field->arity) {
    why = absl::StrCat(key, " takes ", entry.field->arity, " value(s)");
    return {};
  }
  for (int i = 0; i < entry.field->arity; ++i) {
    std::optional<int64_t> number = ParseInteger(parts[i]);
    if (!number.has_value() || *number < entry.field->min ||
        *number > entry.field->max) {
      why = absl::StrCat(key, " must be from ", entry.field->min, " to ",
                         entry.field->max);
      return {};
    }
    entry.values[i] = *number;
  }
  return entry;
}

void Apply(const Entry& entry, mcDeviceProp_t& p) {
  if (entry.field->arity == 0) {
    std::memset(p.name, 0, sizeof(p.name));
    std::memcpy(p.name, entry.text.data(), entry.text.size());
    return;
  }
  entry.field->store(p, entry.values);
}

// Checks the device as a whole and derives its tied values; false if the
// values contradict each other, with the reason in `why`.
bool CompleteProfile(mcDeviceProp_t& p, std::string& why) {
  if (p.sharedMemPerBlock > p.sharedMemPerMultiprocessor) {
    why = "sharedMemPerBlock exceeds sharedMemPerMultiprocessor";
  } else if (p.maxThreadsPerBlock > p.maxThreadsPerMultiProcessor) {
    why = "maxThreadsPerBlock exceeds maxThreadsPerMultiProcessor";
  } else if (p.regsPerBlock > p.regsPerMultiprocessor) {
    why = "regsPerBlock exceeds regsPerMultiprocessor";
  } else if (p.maxThreadsPerBlock % config::kWaveSize != 0 ||
             p.maxThreadsPerMultiProcessor % config::kWaveSize != 0) {
    why = "thread limits must be whole waves of 64";
  } else if (p.computeMode == mcComputeModeExclusive) {
    why = "computeMode 1 (exclusive thread) is not offered";
  } else if (p.concurrentManagedAccess > p.managedMemory) {
    why = "concurrentManagedAccess needs managedMemory";
  } else {
    for (int& extent : p.maxThreadsDim) {
      extent = std::min(extent, p.maxThreadsPerBlock);
    }
    p.sharedMemPerBlockOptin = p.sharedMemPerBlock;
    return true;
  }
  return false;
}

}  // namespace

DeviceProfiles BuildDeviceProfiles(const char* config_text, int count) {
  DeviceProfiles profiles;
  for (int i = 0; i < count; ++i) {
    profiles.devices.push_back(config::DefaultDeviceProperties(i));
  }
  if (config_text == nullptr) return profiles;
  std::vector<mcDeviceProp_t> changed = profiles.devices;
  for (absl::string_view raw : absl::StrSplit(config_text, ';')) {
    if (absl::StripAsciiWhitespace(raw).empty()) continue;
    std::string why;
    std::optional<Entry> entry = ParseEntry(raw, count, why);
    if (!entry.has_value()) {
      profiles.warnings.push_back(
          absl::StrCat("MXCTS_DEVICE_CONFIG: ignoring '", raw, "': ", why));
      continue;
    }
    for (int i = 0; i < count; ++i) {
      if (entry->device < 0 || entry->device == i) Apply(*entry, changed[i]);
    }
  }
  for (int i = 0; i < count; ++i) {
    std::string why;
    if (CompleteProfile(changed[i], why)) {
      profiles.devices[i] = changed[i];
    } else {
      profiles.warnings.push_back(
          absl::StrCat("MXCTS_DEVICE_CONFIG: device ", i,
                       " keeps the default profile: ", why));
    }
  }
  return profiles;
}

const mcDeviceProp_t& SystemDeviceProperties(int system_index) {
  static const std::vector<mcDeviceProp_t>* devices = [] {
    DeviceProfiles profiles = BuildDeviceProfiles(
        std::getenv("MXCTS_DEVICE_CONFIG"), config::kMaxDeviceCount);
    for (const std::string& warning : profiles.warnings) {
      std::fprintf(stderr, "mxcts: %s\n", warning.c_str());
    }
    return new std::vector<mcDeviceProp_t>(std::move(profiles.devices));
  }();
  return devices->at(static_cast<size_t>(system_index));
}

}  // namespace mxcts::runtime
