// Copyright mxcts authors.
//
// The device entry points [api.device]: counting and selecting devices,
// properties and attributes, limits, synchronizing and resetting, PCI bus
// ids and UUIDs, cache and shared memory configuration, device flags,
// versions, initialization, the persisting L2 reset and the profiler
// switches. Kernel attributes and the occupancy calculators are in
// api_function.cc.
//
// Queries of properties work on a device with a sticky error;
// synchronization reports it; reset clears it. Limits cannot change while
// work submitted to the device has not completed: the limits apply to work
// when it runs, so a change would reach work submitted before it.
//
// Tested by api_device_test.cc (and the api_device_*_test.cc variants that
// run under other environments).

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/devices/device_config.h"
#include "reference/runtime/devices/kernel_attributes.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/process/runtime.h"
#include "reference/runtime/timeline/device_work.h"

using mxcts::runtime::Device;
using mxcts::runtime::DeviceLimits;
using mxcts::runtime::KernelSettingsTable;
using mxcts::runtime::McStatus;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;
using mxcts::runtime::ThreadState;

namespace {

bool IsFuncCache(int value) {
  return value == mcFuncCachePreferNone || value == mcFuncCachePreferShared ||
         value == mcFuncCachePreferL1 || value == mcFuncCachePreferEqual;
}

bool IsSharedMemConfig(int value) {
  return value == mcSharedMemBankSizeDefault ||
         value == mcSharedMemBankSizeFourByte ||
         value == mcSharedMemBankSizeEightByte;
}

// One hexadecimal field of a PCI bus id, 1 to `max_digits` digits.
bool ParseHexField(absl::string_view text, size_t max_digits, int* value) {
  if (text.empty() || text.size() > max_digits ||
      !std::all_of(text.begin(), text.end(), absl::ascii_isxdigit)) {
    return false;
  }
  return absl::SimpleHexAtoi(text, value);
}

// A PCI location parsed from "[domain:]bus:device.function".
struct PciLocation {
  int domain = 0;
  int bus = 0;
  int device = 0;
  int function = 0;
};

bool ParsePciBusId(absl::string_view text, PciLocation* location) {
  std::vector<absl::string_view> parts = absl::StrSplit(text, ':');
  if (parts.size() == 3) {
    if (!ParseHexField(parts[0], 8, &location->domain)) return false;
    parts.erase(parts.begin());
  }
  if (parts.size() != 2) return false;
  std::vector<absl::string_view> slot = absl::StrSplit(parts[1], '.');
  return slot.size() == 2 && ParseHexField(parts[0], 2, &location->bus) &&
         ParseHexField(slot[0], 2, &location->device) &&
         ParseHexField(slot[1], 1, &location->function) &&
         location->function < 8;
}

// How many of the fields set in `wanted` `actual` has.
// [api.device.choose.best-match]
int MatchScore(const mcDeviceProp_t& wanted, const mcDeviceProp_t& actual) {
  int score = 0;
  if (wanted.name[0] != '\0' &&
      std::strncmp(wanted.name, actual.name, sizeof(wanted.name)) == 0) {
    ++score;
  }
  auto match = [&score](auto wanted_value, auto actual_value) {
    if (wanted_value != 0 && wanted_value == actual_value) ++score;
  };
  match(wanted.major, actual.major);
  match(wanted.minor, actual.minor);
  match(wanted.totalGlobalMem, actual.totalGlobalMem);
  match(wanted.sharedMemPerBlock, actual.sharedMemPerBlock);
  match(wanted.regsPerBlock, actual.regsPerBlock);
  match(wanted.warpSize, actual.warpSize);
  match(wanted.maxThreadsPerBlock, actual.maxThreadsPerBlock);
  match(wanted.multiProcessorCount, actual.multiProcessorCount);
  match(wanted.clockRate, actual.clockRate);
  match(wanted.totalConstMem, actual.totalConstMem);
  match(wanted.integrated, actual.integrated);
  match(wanted.canMapHostMemory, actual.canMapHostMemory);
  match(wanted.concurrentKernels, actual.concurrentKernels);
  match(wanted.managedMemory, actual.managedMemory);
  match(wanted.unifiedAddressing, actual.unifiedAddressing);
  match(wanted.cooperativeLaunch, actual.cooperativeLaunch);
  match(wanted.pciBusID, actual.pciBusID);
  match(wanted.pciDeviceID, actual.pciDeviceID);
  match(wanted.pciDomainID, actual.pciDomainID);
  match(wanted.waveSize, actual.waveSize);
  return score;
}

}  // namespace

extern "C" {

mcError_t mcGetDeviceCount(int* count) {
  return RunApi([&]() -> absl::Status {
    if (count == nullptr) {  // [api.device.count.null-is-invalid-value]
      return McStatus(mcErrorInvalidValue, "mcGetDeviceCount: count is null");
    }
    *count = Runtime::Get().device_count();
    if (*count == 0) {  // [api.device.count.no-device-is-no-device]
      return McStatus(mcErrorNoDevice, "mcGetDeviceCount: no device visible");
    }
    return absl::OkStatus();
  });
}

mcError_t mcSetDevice(int device) {
  return RunApi([&]() -> absl::Status {
    // [api.device.set.invalid-ordinal-is-invalid-device]
    MX_RETURN_IF_ERROR(Runtime::Get().DeviceAt(device).status());
    ThreadState::Current().set_current_device(device);
    return absl::OkStatus();
  });
}

mcError_t mcGetDevice(int* device) {
  return RunApi([&]() -> absl::Status {
    if (device == nullptr) {  // [api.device.get.null-is-invalid-value]
      return McStatus(mcErrorInvalidValue, "mcGetDevice: device is null");
    }
    MX_ASSIGN_OR_RETURN(Device * current, Runtime::Get().CurrentDevice());
    *device = current->ordinal();
    return absl::OkStatus();
  });
}

mcError_t mcGetDeviceProperties(mcDeviceProp_t* prop, int device) {
  return RunApi([&]() -> absl::Status {
    if (prop == nullptr) {  // [api.device.props.null-is-invalid-value]
      return McStatus(mcErrorInvalidValue,
                      "mcGetDeviceProperties: prop is null");
    }
    // [api.device.props.invalid-ordinal-is-invalid-device]
    MX_ASSIGN_OR_RETURN(Device * d, Runtime::Get().DeviceAt(device));
    std::memcpy(prop, &d->properties(), sizeof(*prop));
    return absl::OkStatus();
  });
}

mcError_t mcDeviceGetAttribute(int* value, mcDeviceAttribute_t attr,
                               int device) {
  return RunApi([&]() -> absl::Status {
    if (value == nullptr) {  // [api.device.attribute.null-is-invalid-value]
      return McStatus(mcErrorInvalidValue,
                      "mcDeviceGetAttribute: value is null");
    }
    // [api.device.attribute.invalid-ordinal-is-invalid-device]
    MX_ASSIGN_OR_RETURN(Device * d, Runtime::Get().DeviceAt(device));
    MX_ASSIGN_OR_RETURN(*value, d->Attribute(static_cast<int>(attr)));
    return absl::OkStatus();
  });
}

mcError_t mcDeviceSynchronize(void) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDevice());
    // [api.graph.capture.sync-call-unsupported]
    MX_RETURN_IF_ERROR(
        mxcts::runtime::CheckDeviceSynchronizeDuringCapture(device->ordinal()));
    // [api.device.synchronize.waits-for-all-work]
    // [api.device.synchronize.returns-work-error]
    return mxcts::runtime::SynchronizeDevice(device->ordinal());
  });
}

mcError_t mcDeviceReset(void) {
  return RunApi([&]() -> absl::Status {
    Runtime& runtime = Runtime::Get();
    MX_ASSIGN_OR_RETURN(Device * device, runtime.CurrentDevice());
    absl::MutexLock lock(&runtime.execution_mutex());
    // [api.device.reset.waits-for-pending-work]
    Runtime::SynchronizationPoint();
    runtime.ResetDevice(*device);
    // [api.device.reset.restores-defaults]
    device->ResetSettings();
    KernelSettingsTable::Get().ResetDevice(device->ordinal());
    return absl::OkStatus();
  });
}

mcError_t mcDeviceSetLimit(mcLimit_t limit, size_t value) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDevice());
    // [api.device.limit.unsupported-limit-on-set] before anything else, so
    // that the error names the first thing wrong with the call.
    if (!DeviceLimits::IsSupported(limit)) {
      return device->limits().Set(static_cast<int>(limit), value);
    }
    // [api.device.limit.set-while-work-pending]
    if (mxcts::runtime::HasPendingWork(device->ordinal())) {
      return McStatus(
          mcErrorNotPermitted,
          absl::StrCat("mcDeviceSetLimit: device ", device->ordinal(),
                       " has work that has not completed; "
                       "synchronize before changing a limit"));
    }
    return device->limits().Set(static_cast<int>(limit), value);
  });
}

mcError_t mcDeviceGetLimit(size_t* value, mcLimit_t limit) {
  return RunApi([&]() -> absl::Status {
    if (value == nullptr) {  // [api.device.limit.get-null-is-invalid-value]
      return McStatus(mcErrorInvalidValue, "mcDeviceGetLimit: value is null");
    }
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDevice());
    MX_ASSIGN_OR_RETURN(*value, device->limits().Get(static_cast<int>(limit)));
    return absl::OkStatus();
  });
}

mcError_t mcRuntimeGetVersion(int* version) {
  return RunApi([&]() -> absl::Status {
    // [api.device.version.runtime-null-is-invalid-value]
    if (version == nullptr) {
      return McStatus(mcErrorInvalidValue,
                      "mcRuntimeGetVersion: version is null");
    }
    *version = mxcts::runtime::config::kRuntimeVersion;
    return absl::OkStatus();
  });
}

mcError_t mcDriverGetVersion(int* version) {
  return RunApi([&]() -> absl::Status {
    // [api.device.version.driver-null-is-invalid-value]
    if (version == nullptr) {
      return McStatus(mcErrorInvalidValue,
                      "mcDriverGetVersion: version is null");
    }
    *version = mxcts::runtime::config::kDriverVersion;
    return absl::OkStatus();
  });
}

mcError_t mcInit(unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    if (flags != 0) {  // [api.device.init.nonzero-flags-is-invalid-value]
      return McStatus(mcErrorInvalidValue,
                      absl::StrCat("mcInit: flags must be 0, not ", flags));
    }
    // [api.device.init.initializes] [api.error.return.initialization-failure]
    if (Runtime::Get().device_count() == 0) {
      return McStatus(mcErrorNoDevice, "mcInit: no device visible");
    }
    return absl::OkStatus();
  });
}

mcError_t mcDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  return RunApi([&]() -> absl::Status {
    // [api.device.pci.get-bus-id-null-is-invalid-value]
    if (pciBusId == nullptr || len <= 0) {
      return McStatus(mcErrorInvalidValue,
                      "mcDeviceGetPCIBusId: the buffer is null or empty");
    }
    // [api.device.pci.get-bus-id-invalid-device]
    MX_ASSIGN_OR_RETURN(Device * d, Runtime::Get().DeviceAt(device));
    // [api.device.pci.get-bus-id-format] Truncated, always terminated.
    std::snprintf(pciBusId, static_cast<size_t>(len), "%s",
                  d->PciBusId().c_str());
    return absl::OkStatus();
  });
}

mcError_t mcDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  return RunApi([&]() -> absl::Status {
    PciLocation wanted;
    // [api.device.pci.get-by-bus-id-null-is-invalid-value]
    if (device == nullptr || pciBusId == nullptr ||
        !ParsePciBusId(pciBusId, &wanted)) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrCat("mcDeviceGetByPCIBusId: '",
                                   pciBusId == nullptr ? "(null)" : pciBusId,
                                   "' is not a PCI bus id"));
    }
    Runtime& runtime = Runtime::Get();
    for (int ordinal = 0; ordinal < runtime.device_count(); ++ordinal) {
      MX_ASSIGN_OR_RETURN(Device * d, runtime.DeviceAt(ordinal));
      const mcDeviceProp_t& p = d->properties();
      // [api.device.pci.get-by-bus-id-round-trip] Every device is
      // function 0.
      if (p.pciDomainID == wanted.domain && p.pciBusID == wanted.bus &&
          p.pciDeviceID == wanted.device && wanted.function == 0) {
        *device = ordinal;
        return absl::OkStatus();
      }
    }
    // With no visible device at all, the call fails for want of a device
    // [api.device.visible-devices.none-is-no-device]; otherwise the id
    // names none [api.device.pci.get-by-bus-id-unknown-is-invalid-device].
    MX_RETURN_IF_ERROR(runtime.DeviceAt(0).status());
    return McStatus(mcErrorInvalidDevice,
                    absl::StrCat("mcDeviceGetByPCIBusId: no visible device "
                                 "is at ",
                                 pciBusId));
  });
}

mcError_t mcDeviceGetUuid(mcUuid_t* uuid, int device) {
  return RunApi([&]() -> absl::Status {
    if (uuid == nullptr) {  // [api.device.uuid.null-is-invalid-value]
      return McStatus(mcErrorInvalidValue, "mcDeviceGetUuid: uuid is null");
    }
    // [api.device.uuid.invalid-ordinal-is-invalid-device]
    MX_ASSIGN_OR_RETURN(Device * d, Runtime::Get().DeviceAt(device));
    *uuid = d->properties().uuid;  // [api.device.uuid.returns-device-uuid]
    return absl::OkStatus();
  });
}

mcError_t mcDeviceSetCacheConfig(mcFuncCache_t cacheConfig) {
  return RunApi([&]() -> absl::Status {
    // [api.device.func.cache-config-bad-value-is-invalid-value]
    if (!IsFuncCache(cacheConfig)) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrCat("mcDeviceSetCacheConfig: ",
                                   static_cast<int>(cacheConfig),
                                   " is not an mcFuncCache_t"));
    }
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDevice());
    device->set_cache_config(
        cacheConfig);  // [api.device.func.device-cache-config]
    return absl::OkStatus();
  });
}

mcError_t mcDeviceGetCacheConfig(mcFuncCache_t* cacheConfig) {
  return RunApi([&]() -> absl::Status {
    // [api.device.func.cache-config-bad-value-is-invalid-value]
    if (cacheConfig == nullptr) {
      return McStatus(mcErrorInvalidValue,
                      "mcDeviceGetCacheConfig: cacheConfig is null");
    }
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDevice());
    *cacheConfig = device->cache_config();
    return absl::OkStatus();
  });
}

mcError_t mcDeviceSetSharedMemConfig(mcSharedMemConfig config) {
  return RunApi([&]() -> absl::Status {
    // [api.device.shared-mem-config.bad-value-is-invalid-value]
    if (!IsSharedMemConfig(config)) {
      return McStatus(
          mcErrorInvalidValue,
          absl::StrCat("mcDeviceSetSharedMemConfig: ", static_cast<int>(config),
                       " is not an mcSharedMemConfig"));
    }
    // [api.device.shared-mem-config.fixed-four-byte-banks] Nothing to set.
    return Runtime::Get().CurrentDevice().status();
  });
}

mcError_t mcDeviceGetSharedMemConfig(mcSharedMemConfig* config) {
  return RunApi([&]() -> absl::Status {
    // [api.device.shared-mem-config.bad-value-is-invalid-value]
    if (config == nullptr) {
      return McStatus(mcErrorInvalidValue,
                      "mcDeviceGetSharedMemConfig: config is null");
    }
    MX_RETURN_IF_ERROR(Runtime::Get().CurrentDevice().status());
    // [api.device.shared-mem-config.fixed-four-byte-banks]
    *config = mcSharedMemBankSizeFourByte;
    return absl::OkStatus();
  });
}

mcError_t mcChooseDevice(int* device, const mcDeviceProp_t* prop) {
  return RunApi([&]() -> absl::Status {
    if (device == nullptr || prop == nullptr) {
      // [api.device.choose.null-is-invalid-value]
      return McStatus(mcErrorInvalidValue,
                      "mcChooseDevice: device or prop is null");
    }
    Runtime& runtime = Runtime::Get();
    MX_RETURN_IF_ERROR(runtime.DeviceAt(0).status());  // none: NoDevice
    // [api.device.choose.best-match] The first device with the best score.
    int best = 0, best_score = -1;
    for (int ordinal = 0; ordinal < runtime.device_count(); ++ordinal) {
      MX_ASSIGN_OR_RETURN(Device * d, runtime.DeviceAt(ordinal));
      int score = MatchScore(*prop, d->properties());
      if (score > best_score) {
        best = ordinal;
        best_score = score;
      }
    }
    *device = best;
    return absl::OkStatus();
  });
}

mcError_t mcSetDeviceFlags(unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    const unsigned schedule = flags & mcDeviceScheduleMask;
    // [api.device.flags.invalid-flags-is-invalid-value]
    if ((flags & ~static_cast<unsigned>(mcDeviceMask)) != 0 ||
        (schedule & (schedule - 1)) != 0) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrCat("mcSetDeviceFlags: ", flags,
                                   " has unknown bits or more than one "
                                   "scheduling flag"));
    }
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDevice());
    // [api.device.flags.set-and-get] [api.device.flags.after-initialization]
    device->set_flags(flags);
    return absl::OkStatus();
  });
}

mcError_t mcGetDeviceFlags(unsigned int* flags) {
  return RunApi([&]() -> absl::Status {
    if (flags == nullptr) {  // [api.device.flags.get-null-is-invalid-value]
      return McStatus(mcErrorInvalidValue, "mcGetDeviceFlags: flags is null");
    }
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDevice());
    *flags = device->flags();
    return absl::OkStatus();
  });
}

mcError_t mcCtxResetPersistingL2Cache(void) {
  return RunApi([&]() -> absl::Status {
    // [api.device.persisting-l2.reset-succeeds] No device of the reference
    // keeps persisting lines (persistingL2CacheMaxSize is 0): nothing to
    // reset, but the call uses the device, so its sticky error counts.
    return Runtime::Get().CurrentDeviceForWork().status();
  });
}

mcError_t mcProfilerStart(void) {
  // [api.device.profiler.start-stop] No profiler attaches to the reference.
  return RunApi([] { return absl::OkStatus(); });
}

mcError_t mcProfilerStop(void) {
  return RunApi([] { return absl::OkStatus(); });
}

}  // extern "C"
