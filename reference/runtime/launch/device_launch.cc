// Copyright mxcts authors.
//
// The engine calls these while a grid runs, on its OS thread, from device
// code; the runtime's locks they take (the image registry's, a device's
// limits) are never held while device work runs. Errors are the host
// launch's: ValidateLaunchConfiguration and ValidateKernelResources give
// the same error for the same configuration wherever the launch is written.
// A device-side launch has no mcFuncSetAttribute settings of its own (they
// are keyed by the host stub), so it is checked with the defaults.
//
// Tested by conformance/api/dynamic_parallelism.

#include "reference/runtime/launch/device_launch.h"

#include <memory>
#include <utility>

#include "reference/device/device_runtime.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/images/image_registry.h"
#include "reference/runtime/launch/launcher.h"

namespace mxcts::runtime {
namespace {

mcError_t PrepareChild(int device_ordinal, const void* kernel, dim3 grid,
                       dim3 block, size_t shared_bytes, void** args,
                       device::PreparedChildGrid* child) {
  absl::StatusOr<Device*> device = DeviceTable::Get().DeviceAt(device_ordinal);
  if (!device.ok()) return ToMcError(device.status());
  const mcDeviceProp_t& properties = (*device)->properties();
  // [api.devrt.launch.invalid-configuration-fails-launch]
  absl::Status status =
      ValidateLaunchConfiguration(properties, grid, block, shared_bytes);
  if (!status.ok()) return ToMcError(status);
  absl::StatusOr<KernelHandle> handle =
      ImageRegistry::Get().ResolveDeviceFunction(kernel);
  if (!handle.ok()) return ToMcError(handle.status());
  status = ValidateKernelResources(properties, *handle, KernelSettings{}, block,
                                   shared_bytes);
  if (!status.ok()) return ToMcError(status);
  // [lang.launch.args-copied-at-launch]
  absl::StatusOr<KernelArguments> copied =
      KernelArguments::Copy(*handle->record, args);
  if (!copied.ok()) return ToMcError(copied.status());
  auto arguments = std::make_shared<KernelArguments>(std::move(*copied));
  child->kernel_name = handle->name;
  child->entry = handle->record->entry;
  child->run_threads = handle->record->run_threads;
  child->args = arguments->pointers();
  child->arguments = std::move(arguments);
  return mcSuccess;
}

const __mc_internal::KernelRecord* FindKernel(const void* kernel) {
  absl::StatusOr<KernelHandle> handle =
      ImageRegistry::Get().ResolveDeviceFunction(kernel);
  return handle.ok() ? handle->record : nullptr;
}

mcError_t GetLimit(int device_ordinal, size_t* value, int limit) {
  absl::StatusOr<Device*> device = DeviceTable::Get().DeviceAt(device_ordinal);
  if (!device.ok()) return ToMcError(device.status());
  absl::StatusOr<size_t> result = (*device)->limits().Get(limit);
  if (!result.ok()) return ToMcError(result.status());
  *value = *result;
  return mcSuccess;
}

mcError_t GetAttribute(int* value, int attribute, int device_ordinal) {
  // [api.devrt.api.device-queries-optional] The host call's answer.
  absl::StatusOr<Device*> device = DeviceTable::Get().DeviceAt(device_ordinal);
  if (!device.ok()) return ToMcError(device.status());
  absl::StatusOr<int> result = (*device)->Attribute(attribute);
  if (!result.ok()) return ToMcError(result.status());
  *value = *result;
  return mcSuccess;
}

const char* Name(mcError_t error) { return ErrorName(error); }
const char* Description(mcError_t error) { return ErrorDescription(error); }

const device::DeviceRuntimeServices kServices = {
    &PrepareChild, &FindKernel, &GetLimit, &GetAttribute, &Name, &Description,
};

}  // namespace

void InstallDeviceRuntime(const Device& device) {
  device::SetDeviceRuntimeServices(&kServices);
  device::DeviceRuntimeLimits limits;
  limits.device = device.ordinal();
  limits.sync_depth =
      device.limits().Get(mcLimitDevRuntimeSyncDepth).value_or(2);
  limits.pending_launch_count =
      device.limits().Get(mcLimitDevRuntimePendingLaunchCount).value_or(2048);
  device::SetDeviceRuntimeLimits(limits);
}

}  // namespace mxcts::runtime
