// Copyright mxcts authors.
//
// mcLaunchCooperativeKernel and mcLaunchCooperativeKernelMultiDevice
// (docs/spec/api-cooperative-groups.md, "Cooperative launch"). A cooperative
// launch is a launch (launcher.h) that is also checked for co-residency and
// runs with every block alive, so that grid_group::sync() completes; in a
// capturing stream it becomes a cooperative kernel node.
//
// The reference's devices do not support multi-device cooperative launches
// (cooperativeMultiDeviceLaunch 0, capabilities.txt): the multi-device call
// validates its list as the spec orders and then answers
// mcErrorNotSupported [api.coop.multi-device.unsupported].
//
// Tested by conformance/api/cooperative_groups.

#include <set>
#include <vector>

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/launch/launcher.h"
#include "reference/runtime/timeline/stream.h"

namespace mxcts::runtime {
namespace {

bool SameDim(dim3 a, dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

absl::Status LaunchCooperativeMultiDevice(const mcLaunchParams* list,
                                          unsigned int count,
                                          unsigned int flags) {
  DeviceTable& devices = DeviceTable::Get();
  // [api.coop.multi-device.entries-must-match]
  if (list == nullptr || count == 0 ||
      count > static_cast<unsigned>(devices.device_count())) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("launchParamsList %p with %u entries (%d "
                                    "devices)",
                                    list, count, devices.device_count()));
  }
  const unsigned known_flags = mcCooperativeLaunchMultiDeviceNoPreSync |
                               mcCooperativeLaunchMultiDeviceNoPostSync;
  if ((flags & ~known_flags) != 0) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("flags 0x%x are not multi-device "
                                    "cooperative launch flags",
                                    flags));
  }
  for (unsigned i = 1; i < count; ++i) {
    if (list[i].func != list[0].func ||
        !SameDim(list[i].gridDim, list[0].gridDim) ||
        !SameDim(list[i].blockDim, list[0].blockDim) ||
        list[i].sharedMem != list[0].sharedMem) {
      return McStatus(
          mcErrorInvalidValue,
          absl::StrFormat("entry %u does not launch the same kernel with the "
                          "same grid, block and shared memory as entry 0",
                          i));
    }
  }
  MX_ASSIGN_OR_RETURN(Device * current, devices.CurrentDevice());
  std::set<int> seen;
  std::vector<Device*> targets;
  for (unsigned i = 0; i < count; ++i) {
    MX_ASSIGN_OR_RETURN(int device, StreamTable::Get().DeviceOf(
                                        list[i].stream, current->ordinal()));
    // [api.coop.multi-device.distinct-devices]
    if (!seen.insert(device).second) {
      return McStatus(
          mcErrorInvalidDevice,
          absl::StrFormat("entries of the list share device %d", device));
    }
    MX_ASSIGN_OR_RETURN(Device * target, devices.DeviceAt(device));
    targets.push_back(target);
  }
  // [api.coop.multi-device.unsupported]
  for (Device* target : targets) {
    if (target->properties().cooperativeMultiDeviceLaunch == 0) {
      return McStatus(mcErrorNotSupported,
                      absl::StrFormat("device %d does not support "
                                      "multi-device cooperative launches",
                                      target->ordinal()));
    }
  }
  return McStatus(mcErrorNotSupported,
                  "multi-device cooperative launches are not implemented");
}

}  // namespace
}  // namespace mxcts::runtime

extern "C" mcError_t mcLaunchCooperativeKernel(const void* func, dim3 gridDim,
                                               dim3 blockDim, void** args,
                                               size_t sharedMem,
                                               mcStream_t stream) {
  return mxcts::runtime::RunApi([&] {
    mxcts::runtime::LaunchRequest request{func, gridDim,   blockDim,
                                          args, sharedMem, stream};
    request.cooperative = true;
    // [api.coop.launch.runs-kernel]
    // [api.graph.capture.records-instead-of-executing]
    return mxcts::runtime::LaunchOrCapture(request);
  });
}

extern "C" mcError_t mcLaunchCooperativeKernelMultiDevice(
    mcLaunchParams* launchParamsList, unsigned int numDevices,
    unsigned int flags) {
  return mxcts::runtime::RunApi([&] {
    return mxcts::runtime::LaunchCooperativeMultiDevice(launchParamsList,
                                                        numDevices, flags);
  });
}
