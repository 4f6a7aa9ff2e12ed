// Copyright mxcts authors.
//
// The device entry points [api.device]: counting and selecting devices,
// properties and attributes, synchronizing and resetting, versions. Queries
// of properties work on a device with a sticky error; synchronization
// reports it; reset clears it.
//
// Tested by api_device_test.cc.

#include <cstring>

#include "absl/strings/str_cat.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api_entry.h"
#include "reference/runtime/device_config.h"
#include "reference/runtime/runtime.h"
#include "reference/runtime/status_macros.h"

using mxcts::runtime::Device;
using mxcts::runtime::McStatus;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;
using mxcts::runtime::ThreadState;

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
    Runtime& runtime = Runtime::Get();
    MX_ASSIGN_OR_RETURN(Device * device, runtime.CurrentDevice());
    // [api.device.synchronize.waits-for-all-work]: work of other threads
    // holds the lock until it completes.
    absl::MutexLock lock(&runtime.execution_mutex());
    Runtime::SynchronizationPoint();
    // [api.device.synchronize.returns-work-error]
    return device->CheckUsable();
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
    return absl::OkStatus();
  });
}

mcError_t mcDeviceSetLimit(mcLimit_t limit, size_t value) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDevice());
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
    if (version ==
        nullptr) {  // [api.device.version.runtime-null-is-invalid-value]
      return McStatus(mcErrorInvalidValue,
                      "mcRuntimeGetVersion: version is null");
    }
    *version = mxcts::runtime::config::kRuntimeVersion;
    return absl::OkStatus();
  });
}

mcError_t mcDriverGetVersion(int* version) {
  return RunApi([&]() -> absl::Status {
    if (version ==
        nullptr) {  // [api.device.version.driver-null-is-invalid-value]
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

}  // extern "C"
