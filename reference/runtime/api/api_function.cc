// Copyright mxcts authors.
//
// The kernel entry points [api.device.func] [api.device.occupancy]:
// mcFuncGetAttributes, mcFuncSetAttribute, mcFuncSetCacheConfig,
// mcFuncSetSharedMemConfig and the occupancy calculators. Each checks its
// plain arguments, then resolves `func` on the current device through the
// image registry (which loads the kernel's image for the device if needed:
// a function that is not a kernel is mcErrorInvalidDeviceFunction), then
// asks kernel_attributes.h or occupancy.h.
//
// Tested by api_function_test.cc.

#include "absl/strings/str_cat.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/devices/kernel_attributes.h"
#include "reference/runtime/devices/occupancy.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/images/image_registry.h"
#include "reference/runtime/process/runtime.h"

using mxcts::runtime::Device;
using mxcts::runtime::ImageRegistry;
using mxcts::runtime::KernelResourcesOn;
using mxcts::runtime::KernelSettings;
using mxcts::runtime::KernelSettingsTable;
using mxcts::runtime::McStatus;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;

namespace {

// The current device and what `func`'s record says, after checking that
// `func` is a kernel with code for it.
// [api.device.func.non-kernel-is-invalid-device-function]
// [api.device.occupancy.non-kernel-is-invalid-device-function]
struct KernelOnDevice {
  Device* device = nullptr;
  mxcts::runtime::KernelFacts facts;
};
absl::StatusOr<KernelOnDevice> DeviceOfKernel(const void* func) {
  MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDevice());
  MX_ASSIGN_OR_RETURN(
      mxcts::runtime::KernelHandle kernel,
      ImageRegistry::Get().ResolveKernel(func, device->ordinal()));
  return KernelOnDevice{device, kernel.facts()};
}

absl::Status CheckOccupancyFlags(const char* call, unsigned flags) {
  // [api.device.occupancy.invalid-flags-is-invalid-value]
  // [api.device.occupancy.flags] The one flag changes nothing here.
  if ((flags & ~static_cast<unsigned>(mcOccupancyDisableCachingOverride)) !=
      0) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrCat(call, ": ", flags,
                                 " is not a combination of occupancy flags"));
  }
  return absl::OkStatus();
}

absl::Status MaxActiveBlocks(int* numBlocks, const void* func, int blockSize,
                             size_t dynamicSMemSize, unsigned flags) {
  const char* call = "mcOccupancyMaxActiveBlocksPerMultiprocessor";
  // [api.device.occupancy.max-active-blocks-null-is-invalid-value]
  if (numBlocks == nullptr || blockSize <= 0) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrCat(call, ": numBlocks is null or blockSize ",
                                 blockSize, " is not positive"));
  }
  MX_RETURN_IF_ERROR(CheckOccupancyFlags(call, flags));
  MX_ASSIGN_OR_RETURN(KernelOnDevice kernel, DeviceOfKernel(func));
  Device* device = kernel.device;
  const mcDeviceProp_t& p = device->properties();
  *numBlocks = mxcts::runtime::MaxActiveBlocksPerMultiprocessor(
      p, KernelResourcesOn(p, kernel.facts), blockSize, dynamicSMemSize);
  return absl::OkStatus();
}

absl::Status MaxPotentialBlockSize(int* minGridSize, int* blockSize,
                                   const void* func, size_t dynamicSMemSize,
                                   int blockSizeLimit, unsigned flags) {
  const char* call = "mcOccupancyMaxPotentialBlockSize";
  // [api.device.occupancy.max-potential-null-is-invalid-value]
  if (minGridSize == nullptr || blockSize == nullptr || blockSizeLimit < 0) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrCat(call, ": an output is null or the limit ",
                                 blockSizeLimit, " is negative"));
  }
  MX_RETURN_IF_ERROR(CheckOccupancyFlags(call, flags));
  MX_ASSIGN_OR_RETURN(KernelOnDevice kernel, DeviceOfKernel(func));
  Device* device = kernel.device;
  const mcDeviceProp_t& p = device->properties();
  mxcts::runtime::BlockSizeChoice choice =
      mxcts::runtime::MaxPotentialBlockSize(
          p, KernelResourcesOn(p, kernel.facts),
          [dynamicSMemSize](int) { return dynamicSMemSize; }, blockSizeLimit);
  *minGridSize = choice.min_grid_size;
  *blockSize = choice.block_size;
  return absl::OkStatus();
}

}  // namespace

extern "C" {

mcError_t mcFuncGetAttributes(mcFuncAttributes* attr, const void* func) {
  return RunApi([&]() -> absl::Status {
    // [api.device.func.get-attributes-null-is-invalid-value]
    if (attr == nullptr) {
      return McStatus(mcErrorInvalidValue, "mcFuncGetAttributes: attr is null");
    }
    MX_ASSIGN_OR_RETURN(KernelOnDevice kernel, DeviceOfKernel(func));
    Device* device = kernel.device;
    // [api.device.func.get-attributes]
    *attr = mxcts::runtime::KernelAttributes(
        device->properties(), kernel.facts,
        KernelSettingsTable::Get().Lookup(func, device->ordinal()));
    return absl::OkStatus();
  });
}

mcError_t mcFuncSetAttribute(const void* func, mcFuncAttribute attr,
                             int value) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(KernelOnDevice kernel, DeviceOfKernel(func));
    Device* device = kernel.device;
    KernelSettingsTable& table = KernelSettingsTable::Get();
    switch (attr) {
      case mcFuncAttributeMaxDynamicSharedMemorySize: {
        const int most = mxcts::runtime::MaxDynamicSharedLimit(
            device->properties(), kernel.facts);
        // [api.device.func.set-attribute-bad-value-is-invalid-value]
        if (value < 0 || value > most) {
          return McStatus(
              mcErrorInvalidValue,
              absl::StrCat("mcFuncSetAttribute: a block can have 0 to ", most,
                           " bytes of dynamic shared memory, not ", value));
        }
        // [api.device.func.set-max-dynamic-shared]
        table.Update(func, device->ordinal(), [value](KernelSettings& s) {
          s.max_dynamic_shared_bytes = value;
        });
        return absl::OkStatus();
      }
      case mcFuncAttributePreferredSharedMemoryCarveout:
        // [api.device.func.set-attribute-bad-value-is-invalid-value]
        if (value < -1 || value > 100) {
          return McStatus(
              mcErrorInvalidValue,
              absl::StrCat("mcFuncSetAttribute: the carveout is -1 or a "
                           "percentage, not ",
                           value));
        }
        // [api.device.func.set-carveout]
        table.Update(func, device->ordinal(), [value](KernelSettings& s) {
          s.preferred_carveout = value;
        });
        return absl::OkStatus();
      default:
        return McStatus(
            mcErrorInvalidValue,
            absl::StrCat("mcFuncSetAttribute: ", static_cast<int>(attr),
                         " is not an attribute that can be set"));
    }
  });
}

mcError_t mcFuncSetCacheConfig(const void* func, mcFuncCache_t cacheConfig) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(KernelOnDevice kernel, DeviceOfKernel(func));
    Device* device = kernel.device;
    // [api.device.func.cache-config-bad-value-is-invalid-value]
    if (cacheConfig != mcFuncCachePreferNone &&
        cacheConfig != mcFuncCachePreferShared &&
        cacheConfig != mcFuncCachePreferL1 &&
        cacheConfig != mcFuncCachePreferEqual) {
      return McStatus(
          mcErrorInvalidValue,
          absl::StrCat("mcFuncSetCacheConfig: ", static_cast<int>(cacheConfig),
                       " is not an mcFuncCache_t"));
    }
    // [api.device.func.set-cache-config] A hint, recorded.
    KernelSettingsTable::Get().Update(
        func, device->ordinal(),
        [cacheConfig](KernelSettings& s) { s.cache_config = cacheConfig; });
    return absl::OkStatus();
  });
}

mcError_t mcFuncSetSharedMemConfig(const void* func, mcSharedMemConfig config) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(KernelOnDevice kernel, DeviceOfKernel(func));
    Device* device = kernel.device;
    // [api.device.shared-mem-config.bad-value-is-invalid-value]
    if (config != mcSharedMemBankSizeDefault &&
        config != mcSharedMemBankSizeFourByte &&
        config != mcSharedMemBankSizeEightByte) {
      return McStatus(
          mcErrorInvalidValue,
          absl::StrCat("mcFuncSetSharedMemConfig: ", static_cast<int>(config),
                       " is not an mcSharedMemConfig"));
    }
    // [api.device.shared-mem-config.fixed-four-byte-banks]
    KernelSettingsTable::Get().Update(
        func, device->ordinal(),
        [config](KernelSettings& s) { s.shared_mem_config = config; });
    return absl::OkStatus();
  });
}

mcError_t mcOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks,
                                                      const void* func,
                                                      int blockSize,
                                                      size_t dynamicSMemSize) {
  return RunApi([&] {
    return MaxActiveBlocks(numBlocks, func, blockSize, dynamicSMemSize,
                           mcOccupancyDefault);
  });
}

mcError_t mcOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, const void* func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
  return RunApi([&] {
    return MaxActiveBlocks(numBlocks, func, blockSize, dynamicSMemSize, flags);
  });
}

mcError_t mcOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize,
                                           const void* func,
                                           size_t dynamicSMemSize,
                                           int blockSizeLimit) {
  return RunApi([&] {
    return MaxPotentialBlockSize(minGridSize, blockSize, func, dynamicSMemSize,
                                 blockSizeLimit, mcOccupancyDefault);
  });
}

mcError_t mcOccupancyMaxPotentialBlockSizeWithFlags(
    int* minGridSize, int* blockSize, const void* func, size_t dynamicSMemSize,
    int blockSizeLimit, unsigned int flags) {
  return RunApi([&] {
    return MaxPotentialBlockSize(minGridSize, blockSize, func, dynamicSMemSize,
                                 blockSizeLimit, flags);
  });
}

mcError_t mcOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize,
                                                  const void* func,
                                                  int numBlocks,
                                                  int blockSize) {
  return RunApi([&]() -> absl::Status {
    // [api.device.occupancy.available-dynamic-shared-invalid-value]
    if (dynamicSmemSize == nullptr || numBlocks <= 0 || blockSize <= 0) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrCat("mcOccupancyAvailableDynamicSMemPerBlock: "
                                   "the output is null or numBlocks ",
                                   numBlocks, " or blockSize ", blockSize,
                                   " is not positive"));
    }
    MX_ASSIGN_OR_RETURN(KernelOnDevice kernel, DeviceOfKernel(func));
    Device* device = kernel.device;
    const mcDeviceProp_t& p = device->properties();
    // [api.device.occupancy.available-dynamic-shared]
    *dynamicSmemSize = mxcts::runtime::AvailableDynamicSharedPerBlock(
        p, KernelResourcesOn(p, kernel.facts), numBlocks, blockSize);
    return absl::OkStatus();
  });
}

}  // extern "C"
