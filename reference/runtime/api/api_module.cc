// Copyright mxcts authors.
//
// The module API (mcr/detail/runtime_api_module.h; docs/spec/
// api-compilation.md, "Modules"): mcModuleLoad, mcModuleLoadData,
// mcModuleLoadDataEx, mcModuleUnload, mcModuleGetFunction,
// mcModuleGetGlobal, mcModuleLaunchKernel and mcFuncGetAttribute. Each
// checks its plain arguments and hands the rest to the module table
// (modules/module_table.h). A module function's handle is registered with
// the image registry as a kernel, so its launch is an ordinary launch
// (launcher.h) or, in a capturing stream, a kernel node.
//
// Tested by conformance/api/compilation.

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/module_image/module_image.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/devices/kernel_attributes.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/images/image_registry.h"
#include "reference/runtime/launch/launcher.h"
#include "reference/runtime/modules/module_table.h"
#include "reference/runtime/process/runtime.h"
#include "reference/runtime/timeline/device_work.h"

namespace mxcts::runtime {
namespace {

// The whole file `path`, or mcErrorFileNotFound naming it and why.
// [api.module.load.missing-file]
absl::StatusOr<std::vector<unsigned char>> ReadImageFile(const char* path) {
  auto not_found = [path](const std::string& why) {
    return McStatus(
        mcErrorFileNotFound,
        absl::StrCat("mcModuleLoad: cannot read '", path, "': ", why));
  };
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return not_found(strerror(errno));
  struct stat info;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    close(fd);
    return not_found("not a regular file");
  }
  const uint64_t limit =
      module_image::kMaxPayloadSize + module_image::kHeaderSize;
  if (static_cast<uint64_t>(info.st_size) > limit) {
    close(fd);
    return McStatus(mcErrorInvalidKernelImage,
                    absl::StrFormat("mcModuleLoad: '%s' has %d bytes, more "
                                    "than any module image",
                                    path, info.st_size));
  }
  std::vector<unsigned char> bytes(static_cast<size_t>(info.st_size));
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(fd);
      return not_found(n < 0 ? strerror(errno) : "it shrank while read");
    }
    done += static_cast<size_t>(n);
  }
  close(fd);
  return bytes;
}

absl::StatusOr<mcModule_t> LoadForCurrentDevice(const unsigned char* bytes,
                                                size_t available) {
  MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDevice());
  return ModuleTable::Get().Load(bytes, available, device->ordinal());
}

// The function `f` and the current device, which must be its module's.
// [api.module.context.other-device-invalid-handle]
struct FunctionOnDevice {
  ModuleFunction* function;
  Device* device;
};
absl::StatusOr<FunctionOnDevice> FunctionForCurrentDevice(mcFunction_t f) {
  MX_ASSIGN_OR_RETURN(ModuleFunction * function,
                      ModuleTable::Get().FindFunction(f));
  MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDevice());
  if (function->module->device() != device->ordinal()) {
    return McStatus(
        mcErrorInvalidResourceHandle,
        absl::StrFormat("function '%s' belongs to a module of device %d, and "
                        "the current device is %d",
                        function->name, function->module->device(),
                        device->ordinal()));
  }
  return FunctionOnDevice{function, device};
}

absl::Status ModuleLaunch(mcFunction_t f, dim3 grid, dim3 block,
                          unsigned shared_bytes, mcStream_t stream,
                          void** kernel_params, void** extra) {
  MX_ASSIGN_OR_RETURN(FunctionOnDevice target, FunctionForCurrentDevice(f));
  // [api.module.launch.both-params-and-extra-invalid-value]
  if (kernel_params != nullptr && extra != nullptr) {
    return McStatus(mcErrorInvalidValue,
                    "mcModuleLaunchKernel: kernelParams and extra are both "
                    "given");
  }
  // [api.module.launch.bad-configuration-invalid-value] The driver-style
  // call answers a bad configuration with mcErrorInvalidValue.
  absl::Status configuration = ValidateLaunchConfiguration(
      target.device->properties(), grid, block, shared_bytes);
  if (!configuration.ok()) {
    return McStatus(mcErrorInvalidValue, absl::StrCat("mcModuleLaunchKernel: ",
                                                      configuration.message()));
  }
  const __mc_internal::KernelRecord& record = *target.function->record;
  void** args = kernel_params;
  std::vector<void*> unpacked;
  if (extra != nullptr) {  // [api.module.launch.extra-buffer]
    MX_ASSIGN_OR_RETURN(unpacked, UnpackExtraArguments(record, extra));
    args = unpacked.data();
  } else if (args == nullptr && record.param_count > 0) {
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat("mcModuleLaunchKernel: kernel '%s' takes %u "
                        "arguments, and neither kernelParams nor extra is "
                        "given",
                        target.function->name, record.param_count));
  }
  // [api.module.launch.kernel-params]
  LaunchRequest request{target.function, grid,  block, args,
                        shared_bytes,    stream};
  return LaunchOrCapture(request);
}

// One field of mcFuncAttributes. [api.module.function.get-attribute]
int AttributeField(const mcFuncAttributes& a, mcFunction_attribute attribute) {
  switch (attribute) {
    case MC_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      return a.maxThreadsPerBlock;
    case MC_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
      return static_cast<int>(a.sharedSizeBytes);
    case MC_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
      return static_cast<int>(a.constSizeBytes);
    case MC_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
      return static_cast<int>(a.localSizeBytes);
    case MC_FUNC_ATTRIBUTE_NUM_REGS:
      return a.numRegs;
    case MC_FUNC_ATTRIBUTE_PTX_VERSION:
      return a.ptxVersion;
    case MC_FUNC_ATTRIBUTE_BINARY_VERSION:
      return a.binaryVersion;
    case MC_FUNC_ATTRIBUTE_CACHE_MODE_CA:
      return a.cacheModeCA;
    case MC_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      return a.maxDynamicSharedSizeBytes;
    case MC_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      return a.preferredShmemCarveout;
    default:
      return 0;
  }
}

}  // namespace
}  // namespace mxcts::runtime

using mxcts::runtime::McStatus;
using mxcts::runtime::ModuleTable;
using mxcts::runtime::RunApi;

extern "C" {

mcError_t mcModuleLoad(mcModule_t* module, const char* fname) {
  return RunApi([&]() -> absl::Status {
    // [api.module.load.null-invalid-value]
    if (module == nullptr || fname == nullptr) {
      return McStatus(mcErrorInvalidValue,
                      "mcModuleLoad: module or fname is null");
    }
    MX_ASSIGN_OR_RETURN(std::vector<unsigned char> bytes,
                        mxcts::runtime::ReadImageFile(fname));
    // [api.module.load.loads-file] [api.module.load.invalid-file-content]
    absl::StatusOr<mcModule_t> loaded =
        mxcts::runtime::LoadForCurrentDevice(bytes.data(), bytes.size());
    if (!loaded.ok()) {
      return absl::Status(loaded.status().code(),
                          absl::StrCat(fname, ": ", loaded.status().message()));
    }
    *module = *loaded;
    return absl::OkStatus();
  });
}

mcError_t mcModuleLoadData(mcModule_t* module, const void* image) {
  return RunApi([&]() -> absl::Status {
    // [api.module.load-data.null-invalid-value]
    if (module == nullptr || image == nullptr) {
      return McStatus(mcErrorInvalidValue,
                      "mcModuleLoadData: module or image is null");
    }
    // [api.module.load-data.loads-image]
    MX_ASSIGN_OR_RETURN(*module, mxcts::runtime::LoadForCurrentDevice(
                                     static_cast<const unsigned char*>(image),
                                     mxcts::module_image::kSizeUnknown));
    return absl::OkStatus();
  });
}

mcError_t mcModuleLoadDataEx(mcModule_t* module, const void* image,
                             unsigned int numOptions, mcJitOption* options,
                             void** optionValues) {
  return RunApi([&]() -> absl::Status {
    if (module == nullptr || image == nullptr) {
      return McStatus(mcErrorInvalidValue,
                      "mcModuleLoadDataEx: module or image is null");
    }
    // [api.module.load-data-ex.null-options-invalid-value]
    if (numOptions > 0 && (options == nullptr || optionValues == nullptr)) {
      return McStatus(mcErrorInvalidValue,
                      "mcModuleLoadDataEx: options or optionValues is null");
    }
    size_t info_size = 0, error_size = 0;
    char* info_log = nullptr;
    char* error_log = nullptr;
    for (unsigned i = 0; i < numOptions; ++i) {
      const auto value = reinterpret_cast<uintptr_t>(optionValues[i]);
      switch (options[i]) {
        case mcJitOptionInfoLogBuffer:
          info_log = static_cast<char*>(optionValues[i]);
          break;
        case mcJitOptionInfoLogBufferSizeBytes:
          info_size = value;
          break;
        case mcJitOptionErrorLogBuffer:
          error_log = static_cast<char*>(optionValues[i]);
          break;
        case mcJitOptionErrorLogBufferSizeBytes:
          error_size = value;
          break;
        default:
          if (static_cast<unsigned>(options[i]) >=
              static_cast<unsigned>(mcJitOptionNumOptions)) {
            return McStatus(
                mcErrorInvalidValue,
                absl::StrFormat("mcModuleLoadDataEx: options[%u] = %d is not "
                                "an mcJitOption",
                                i, static_cast<int>(options[i])));
          }
          break;  // [api.module.load-data-ex.options] accepted, unused
      }
    }
    // The reference's images need no further compilation: empty logs.
    if (info_log != nullptr && info_size > 0) info_log[0] = '\0';
    if (error_log != nullptr && error_size > 0) error_log[0] = '\0';
    MX_ASSIGN_OR_RETURN(*module, mxcts::runtime::LoadForCurrentDevice(
                                     static_cast<const unsigned char*>(image),
                                     mxcts::module_image::kSizeUnknown));
    return absl::OkStatus();
  });
}

mcError_t mcModuleUnload(mcModule_t module) {
  return RunApi([&]() -> absl::Status {
    // [api.module.unload.invalid-handle]
    MX_ASSIGN_OR_RETURN(mxcts::runtime::Module * loaded,
                        ModuleTable::Get().Find(module));
    // [api.module.unload.waits-for-work] Grids of the module may be queued;
    // their errors are the device's, reported by later calls.
    (void)mxcts::runtime::SynchronizeDevice(loaded->device());
    // [api.module.unload.releases-module]
    return ModuleTable::Get().Unload(module);
  });
}

mcError_t mcModuleGetFunction(mcFunction_t* function, mcModule_t module,
                              const char* kname) {
  return RunApi([&]() -> absl::Status {
    // [api.module.get-function.null-invalid-value]
    if (function == nullptr || kname == nullptr) {
      return McStatus(mcErrorInvalidValue,
                      "mcModuleGetFunction: function or kname is null");
    }
    // [api.module.get-function.finds-kernel]
    MX_ASSIGN_OR_RETURN(*function,
                        ModuleTable::Get().GetFunction(module, kname));
    return absl::OkStatus();
  });
}

mcError_t mcModuleGetGlobal(mcDeviceptr_t* dptr, size_t* bytes, mcModule_t hmod,
                            const char* name) {
  return RunApi([&]() -> absl::Status {
    if (name == nullptr) {
      return McStatus(mcErrorInvalidValue, "mcModuleGetGlobal: name is null");
    }
    MX_ASSIGN_OR_RETURN(mxcts::runtime::Module * module,
                        ModuleTable::Get().Find(hmod));
    // [api.module.get-global.finds-variable]
    MX_ASSIGN_OR_RETURN(mxcts::runtime::ModuleVariable variable,
                        module->GetGlobal(name));
    if (dptr != nullptr) *dptr = variable.address;
    if (bytes != nullptr) *bytes = variable.size;
    return absl::OkStatus();
  });
}

mcError_t mcModuleLaunchKernel(mcFunction_t f, unsigned int gridDimX,
                               unsigned int gridDimY, unsigned int gridDimZ,
                               unsigned int blockDimX, unsigned int blockDimY,
                               unsigned int blockDimZ,
                               unsigned int sharedMemBytes, mcStream_t stream,
                               void** kernelParams, void** extra) {
  return RunApi([&] {
    return mxcts::runtime::ModuleLaunch(f, dim3(gridDimX, gridDimY, gridDimZ),
                                        dim3(blockDimX, blockDimY, blockDimZ),
                                        sharedMemBytes, stream, kernelParams,
                                        extra);
  });
}

mcError_t mcFuncGetAttribute(int* value, mcFunction_attribute attrib,
                             mcFunction_t hfunc) {
  return RunApi([&]() -> absl::Status {
    if (value == nullptr || static_cast<unsigned>(attrib) >=
                                static_cast<unsigned>(MC_FUNC_ATTRIBUTE_MAX)) {
      return McStatus(
          mcErrorInvalidValue,
          absl::StrFormat("mcFuncGetAttribute: value %p, "
                          "attribute %d",
                          static_cast<void*>(value), static_cast<int>(attrib)));
    }
    MX_ASSIGN_OR_RETURN(mxcts::runtime::ModuleFunction * function,
                        ModuleTable::Get().FindFunction(hfunc));
    const int device = function->module->device();
    MX_ASSIGN_OR_RETURN(mxcts::runtime::Device * target,
                        mxcts::runtime::Runtime::Get().DeviceAt(device));
    MX_ASSIGN_OR_RETURN(
        mxcts::runtime::KernelHandle kernel,
        mxcts::runtime::ImageRegistry::Get().ResolveKernel(function, device));
    const mcFuncAttributes attributes = mxcts::runtime::KernelAttributes(
        target->properties(), kernel.facts(),
        mxcts::runtime::KernelSettingsTable::Get().Lookup(function, device));
    *value = mxcts::runtime::AttributeField(attributes, attrib);
    return absl::OkStatus();
  });
}

}  // extern "C"
