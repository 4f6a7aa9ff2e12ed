// Copyright mxcts authors.
//
// The module API (runtime_api_module.h) over CUDA's driver API
// (cuModuleLoadData, cuModuleGetFunction, cuLaunchKernel, ...), found
// through driver_api.h. An mcModule_t and an mcFunction_t are the adapter's
// own records around CUDA's handles, never reused: an unloaded module's
// handles, and made-up ones, are mcErrorInvalidResourceHandle
// [api.module.unload.invalid-handle]
// [api.module.launch.invalid-function-handle], where CUDA would crash.
//
// Images are checked before CUDA sees them (module_image.h). A launch is
// checked as MXMACA defines it: the arguments given one way exactly, the
// `extra` buffer against the kernel's parameters, the grid and block
// against the device's limits, the block against the kernel's
// __launch_bounds__ (mcErrorLaunchOutOfResources).

#include "backends/cuda/runtime/modules.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <sys/stat.h>

#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "backends/cuda/include/mc_runtime_api.h"
#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/driver_api.h"
#include "backends/cuda/runtime/environment.h"
#include "backends/cuda/runtime/handles.h"
#include "backends/cuda/runtime/module_image.h"

namespace mxcts::cuda_backend {
namespace {

struct Module;

struct Function {
  CUfunction cuda = nullptr;
  Module* module = nullptr;
};

struct Module {
  CUmodule cuda = nullptr;
  int device = 0;
  std::map<std::string, Function*> functions;
};

struct State {
  std::mutex mutex;
  std::set<Module*> live;
  // How many modules are loaded, read without the lock: while none is, a
  // kernel given to mcLaunchKernel is no module function, and the launch
  // pays no lock.
  std::atomic<int> loaded{0};
};

State& Modules() {
  static State* state = new State();
  return *state;
}

// Call locked.
Module* LiveModule(State& s, mcModule_t handle) {
  Module* module = reinterpret_cast<Module*>(handle);
  return s.live.count(module) == 1 ? module : nullptr;
}

// The function `handle` names if its module is loaded, else null. A
// function record is only dereferenced once found among the live modules'.
Function* LiveFunction(State& s, mcFunction_t handle) {
  Function* function = reinterpret_cast<Function*>(handle);
  for (Module* module : s.live) {
    for (const auto& entry : module->functions) {
      if (entry.second == function) return function;
    }
  }
  return nullptr;
}

// The MXMACA code of a driver result.
mcError_t FromDriver(CUresult result) {
  if (result == CUDA_SUCCESS) return mcSuccess;
  // The driver's codes below 1000 are the runtime's of the same number.
  return Fail(FromCuda(static_cast<cudaError_t>(result)));
}

// Makes the current device's primary context current for the driver calls;
// its ordinal in `*device`.
mcError_t CurrentContext(int* device) {
  mcError_t error = Check(cudaGetDevice(device));
  if (error != mcSuccess) return error;
  return Check(cudaSetDevice(*device));
}

// MACA_MODULE_LOADING [api.module.loading.lazy-and-eager]: true for EAGER
// (in any case); a value that is neither LAZY nor EAGER is reported once
// and loads lazily [api.module.loading.invalid-value-is-lazy].
bool EagerLoading() {
  const char* value = getenv("MACA_MODULE_LOADING");
  if (value == nullptr || value[0] == '\0') return false;
  std::string upper;
  for (const char* c = value; *c != '\0'; ++c) {
    upper += static_cast<char>(toupper(static_cast<unsigned char>(*c)));
  }
  if (upper == "EAGER") return true;
  if (upper != "LAZY") {
    static std::mutex* mutex = new std::mutex();
    static std::set<std::string>* reported = new std::set<std::string>();
    std::lock_guard<std::mutex> lock(*mutex);
    if (reported->insert(value).second) {
      fprintf(stderr,
              "mcModuleLoad: MACA_MODULE_LOADING=%s is neither LAZY nor "
              "EAGER; modules load lazily\n",
              value);
    }
  }
  return false;
}

// Loads the code of every function of `module` now, so that loading errors
// surface at the load (EAGER); CUDA otherwise loads each at its first use.
CUresult LoadEveryFunction(CUmodule module) {
  unsigned int count = 0;
  CUresult result = CallDriver<decltype(&cuModuleGetFunctionCount)>(
      "cuModuleGetFunctionCount", &count, module);
  if (result != CUDA_SUCCESS || count == 0) return result;
  std::vector<CUfunction> functions(count);
  result = CallDriver<decltype(&cuModuleEnumerateFunctions)>(
      "cuModuleEnumerateFunctions", functions.data(), count, module);
  for (size_t i = 0; result == CUDA_SUCCESS && i < functions.size(); ++i) {
    result = CallDriver<decltype(&cuFuncLoad)>("cuFuncLoad", functions[i]);
  }
  return result;
}

// Loads `image` (its size `available`, 0 if unknown) for the current device.
mcError_t Load(mcModule_t* module, const void* image, size_t available) {
  const char* code = nullptr;
  size_t code_size = 0;
  if (LocateImage(image, available, &code, &code_size) == ImageKind::kInvalid) {
    // [api.module.load-data.invalid-image]
    return Fail(mcErrorInvalidKernelImage);
  }
  int device = 0;
  mcError_t error = CurrentContext(&device);
  if (error != mcSuccess) return error;
  const bool eager = EagerLoading();
  CUmodule cuda = nullptr;
  CUresult result = CallDriver<decltype(&cuModuleLoadData)>(
      "cuModuleLoadData", &cuda, static_cast<const void*>(code));
  if (result == CUDA_SUCCESS && eager) {
    result = LoadEveryFunction(cuda);
    if (result != CUDA_SUCCESS) {
      CallDriver<decltype(&cuModuleUnload)>("cuModuleUnload", cuda);
    }
  }
  if (result != CUDA_SUCCESS) {
    if (result == CUDA_ERROR_NO_BINARY_FOR_GPU) {
      return Fail(mcErrorNoKernelImageForDevice);
    }
    if (result == CUDA_ERROR_OUT_OF_MEMORY) return FromDriver(result);
    return Fail(mcErrorInvalidKernelImage);
  }
  Module* loaded = new Module();
  loaded->cuda = cuda;
  loaded->device = device;
  State& s = Modules();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.live.insert(loaded);
  s.loaded.store(static_cast<int>(s.live.size()), std::memory_order_release);
  *module = reinterpret_cast<mcModule_t>(loaded);
  return mcSuccess;
}

// The device's limit `attribute`.
int DeviceLimit(int device, cudaDeviceAttr attribute) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, attribute, device) != cudaSuccess) {
    cudaGetLastError();
  }
  return value;
}

// The bytes of `function`'s parameters (0 for none), from the driver.
size_t ParameterBytes(CUfunction function, bool* known) {
  size_t total = 0;
  *known = true;
  // A function CUDA loads lazily reports no parameters until loaded.
  CallDriver<decltype(&cuFuncLoad)>("cuFuncLoad", function);
  for (size_t index = 0;; ++index) {
    size_t offset = 0;
    size_t size = 0;
    const CUresult result = CallDriver<decltype(&cuFuncGetParamInfo)>(
        "cuFuncGetParamInfo", function, index, &offset, &size);
    if (result == CUDA_ERROR_NOT_SUPPORTED) {
      *known = false;
      return 0;
    }
    if (result != CUDA_SUCCESS) return total;
    if (offset + size > total) total = offset + size;
  }
}

// mcModuleLaunchKernel, cooperatively if `cooperative`.
mcError_t Launch(mcFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                 unsigned int gridDimZ, unsigned int blockDimX,
                 unsigned int blockDimY, unsigned int blockDimZ,
                 unsigned int sharedMemBytes, mcStream_t stream,
                 void** kernelParams, void** extra, bool cooperative) {
  CUfunction cuda = nullptr;
  int module_device = 0;
  {
    State& s = Modules();
    std::lock_guard<std::mutex> lock(s.mutex);
    Function* live = LiveFunction(s, f);
    // [api.module.launch.invalid-function-handle]
    if (live == nullptr) return Fail(mcErrorInvalidResourceHandle);
    cuda = live->cuda;
    module_device = live->module->device;
  }
  int device = 0;
  mcError_t error = CurrentContext(&device);
  if (error != mcSuccess) return error;
  // A module's functions launch on its device only.
  if (device != module_device) return Fail(mcErrorInvalidResourceHandle);
  MXCTS_CHECK_STREAM(stream);
  // The arguments, given one way exactly
  // [api.module.launch.both-params-and-extra-invalid-value]
  // [api.module.launch.extra-buffer].
  bool known = false;
  const size_t parameter_bytes = ParameterBytes(cuda, &known);
  if (kernelParams != nullptr && extra != nullptr) {
    return Fail(mcErrorInvalidValue);
  }
  void* buffer = nullptr;
  size_t* buffer_size = nullptr;
  if (extra != nullptr) {
    for (size_t i = 0; extra[i] != MC_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == MC_LAUNCH_PARAM_BUFFER_POINTER) {
        buffer = extra[i + 1];
      } else if (extra[i] == MC_LAUNCH_PARAM_BUFFER_SIZE) {
        buffer_size = static_cast<size_t*>(extra[i + 1]);
      } else {
        return Fail(mcErrorInvalidValue);
      }
    }
    if (buffer == nullptr || buffer_size == nullptr ||
        (known && *buffer_size < parameter_bytes)) {
      return Fail(mcErrorInvalidValue);
    }
  } else if (kernelParams == nullptr && known && parameter_bytes > 0) {
    return Fail(mcErrorInvalidValue);
  }
  // The configuration against the device's limits
  // [api.module.launch.bad-configuration-invalid-value].
  const unsigned long long threads =
      static_cast<unsigned long long>(blockDimX) * blockDimY * blockDimZ;
  if (gridDimX == 0 || gridDimY == 0 || gridDimZ == 0 || threads == 0 ||
      gridDimX >
          static_cast<unsigned>(DeviceLimit(device, cudaDevAttrMaxGridDimX)) ||
      gridDimY >
          static_cast<unsigned>(DeviceLimit(device, cudaDevAttrMaxGridDimY)) ||
      gridDimZ >
          static_cast<unsigned>(DeviceLimit(device, cudaDevAttrMaxGridDimZ)) ||
      blockDimX >
          static_cast<unsigned>(DeviceLimit(device, cudaDevAttrMaxBlockDimX)) ||
      blockDimY >
          static_cast<unsigned>(DeviceLimit(device, cudaDevAttrMaxBlockDimY)) ||
      blockDimZ >
          static_cast<unsigned>(DeviceLimit(device, cudaDevAttrMaxBlockDimZ)) ||
      threads > static_cast<unsigned long long>(
                    DeviceLimit(device, cudaDevAttrMaxThreadsPerBlock)) ||
      sharedMemBytes > static_cast<unsigned>(DeviceLimit(
                           device, cudaDevAttrMaxSharedMemoryPerBlock))) {
    return Fail(mcErrorInvalidValue);
  }
  // The kernel's own bound (__launch_bounds__).
  int kernel_threads = 0;
  if (CallDriver<decltype(&cuFuncGetAttribute)>(
          "cuFuncGetAttribute", &kernel_threads,
          CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, cuda) == CUDA_SUCCESS &&
      threads > static_cast<unsigned long long>(kernel_threads)) {
    return Fail(mcErrorLaunchOutOfResources);
  }
  void* cuda_extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buffer,
                        CU_LAUNCH_PARAM_BUFFER_SIZE, buffer_size,
                        CU_LAUNCH_PARAM_END};
  const CUresult result =
      cooperative
          ? CallDriver<decltype(&cuLaunchCooperativeKernel)>(
                "cuLaunchCooperativeKernel", cuda, gridDimX, gridDimY, gridDimZ,
                blockDimX, blockDimY, blockDimZ, sharedMemBytes,
                reinterpret_cast<CUstream>(stream), kernelParams)
          : CallDriver<decltype(&cuLaunchKernel)>(
                "cuLaunchKernel", cuda, gridDimX, gridDimY, gridDimZ, blockDimX,
                blockDimY, blockDimZ, sharedMemBytes,
                reinterpret_cast<CUstream>(stream), kernelParams,
                extra != nullptr ? cuda_extra : nullptr);
  return FromDriver(result);
}

// Fills `attr` from the driver's attributes of `cuda`.
mcError_t Attributes(CUfunction cuda, mcFuncAttributes* attr) {
  int values[MC_FUNC_ATTRIBUTE_MAX] = {};
  for (int i = 0; i < MC_FUNC_ATTRIBUTE_MAX; ++i) {
    const CUresult result = CallDriver<decltype(&cuFuncGetAttribute)>(
        "cuFuncGetAttribute", &values[i], static_cast<CUfunction_attribute>(i),
        cuda);
    if (result != CUDA_SUCCESS) return FromDriver(result);
  }
  attr->maxThreadsPerBlock = values[MC_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK];
  attr->sharedSizeBytes = values[MC_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES];
  attr->constSizeBytes = values[MC_FUNC_ATTRIBUTE_CONST_SIZE_BYTES];
  attr->localSizeBytes = values[MC_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES];
  attr->numRegs = values[MC_FUNC_ATTRIBUTE_NUM_REGS];
  attr->ptxVersion = values[MC_FUNC_ATTRIBUTE_PTX_VERSION];
  attr->binaryVersion = values[MC_FUNC_ATTRIBUTE_BINARY_VERSION];
  attr->cacheModeCA = values[MC_FUNC_ATTRIBUTE_CACHE_MODE_CA];
  attr->maxDynamicSharedSizeBytes =
      values[MC_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES];
  attr->preferredShmemCarveout =
      values[MC_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT];
  return mcSuccess;
}

}  // namespace

bool IsModuleFunction(const void* func) {
  State& s = Modules();
  if (s.loaded.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard<std::mutex> lock(s.mutex);
  return LiveFunction(s, reinterpret_cast<mcFunction_t>(
                             const_cast<void*>(func))) != nullptr;
}

mcError_t LaunchModuleFunction(const void* func, dim3 grid, dim3 block,
                               void** args, size_t sharedMem, mcStream_t stream,
                               bool cooperative) {
  if (sharedMem > UINT32_MAX) return Fail(mcErrorInvalidValue);
  return Launch(reinterpret_cast<mcFunction_t>(const_cast<void*>(func)), grid.x,
                grid.y, grid.z, block.x, block.y, block.z,
                static_cast<unsigned int>(sharedMem), stream, args, nullptr,
                cooperative);
}

mcError_t ModuleFunctionAttributes(const void* func, mcFuncAttributes* attr) {
  if (attr == nullptr) return Fail(mcErrorInvalidValue);
  CUfunction cuda = nullptr;
  {
    State& s = Modules();
    std::lock_guard<std::mutex> lock(s.mutex);
    Function* live = LiveFunction(
        s, reinterpret_cast<mcFunction_t>(const_cast<void*>(func)));
    if (live == nullptr) return Fail(mcErrorInvalidDeviceFunction);
    cuda = live->cuda;
  }
  int device = 0;
  mcError_t error = CurrentContext(&device);
  if (error != mcSuccess) return error;
  return Attributes(cuda, attr);
}

void ForgetDeviceModules(int device) {
  State& s = Modules();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (auto it = s.live.begin(); it != s.live.end();) {
    it = (*it)->device == device ? s.live.erase(it) : std::next(it);
  }
  s.loaded.store(static_cast<int>(s.live.size()), std::memory_order_release);
}

}  // namespace mxcts::cuda_backend

using mxcts::cuda_backend::Check;
using mxcts::cuda_backend::Fail;
using mxcts::cuda_backend::Function;
using mxcts::cuda_backend::Module;
using mxcts::cuda_backend::Modules;
using mxcts::cuda_backend::State;

extern "C" {

mcError_t mcModuleLoadData(mcModule_t* module, const void* image) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // [api.module.load-data.null-invalid-value]
  if (module == nullptr || image == nullptr) return Fail(mcErrorInvalidValue);
  return mxcts::cuda_backend::Load(module, image, 0);
}

mcError_t mcModuleLoad(mcModule_t* module, const char* fname) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // [api.module.load.null-invalid-value]
  if (module == nullptr || fname == nullptr) return Fail(mcErrorInvalidValue);
  // [api.module.load.missing-file]: a directory is no file either
  // (reading one would throw).
  struct stat status;
  if (stat(fname, &status) != 0 || !S_ISREG(status.st_mode)) {
    return Fail(mcErrorFileNotFound);
  }
  std::ifstream in(fname, std::ios::binary);
  if (!in) return Fail(mcErrorFileNotFound);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                          std::istreambuf_iterator<char>());
  if (bytes.empty()) return Fail(mcErrorInvalidKernelImage);
  // [api.module.load.invalid-file-content]
  return mxcts::cuda_backend::Load(module, bytes.data(), bytes.size());
}

mcError_t mcModuleLoadDataEx(mcModule_t* module, const void* image,
                             unsigned int numOptions, mcJitOption* options,
                             void** optionValues) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (module == nullptr || image == nullptr) return Fail(mcErrorInvalidValue);
  // [api.module.load-data-ex.null-options-invalid-value]
  if (numOptions != 0 && (options == nullptr || optionValues == nullptr)) {
    return Fail(mcErrorInvalidValue);
  }
  for (unsigned int i = 0; i < numOptions; ++i) {
    const int option = static_cast<int>(options[i]);
    if (option < 0 || option >= mcJitOptionNumOptions) {
      return Fail(mcErrorInvalidValue);
    }
  }
  // The image needs no further compilation: the log buffers given are
  // filled with empty logs and the other options change nothing
  // [api.module.load-data-ex.options].
  for (unsigned int i = 0; i < numOptions; ++i) {
    const mcJitOption size_option = options[i] == mcJitOptionInfoLogBuffer
                                        ? mcJitOptionInfoLogBufferSizeBytes
                                        : mcJitOptionErrorLogBufferSizeBytes;
    if (options[i] != mcJitOptionInfoLogBuffer &&
        options[i] != mcJitOptionErrorLogBuffer) {
      continue;
    }
    for (unsigned int j = 0; j < numOptions; ++j) {
      if (options[j] == size_option &&
          reinterpret_cast<uintptr_t>(optionValues[j]) != 0 &&
          optionValues[i] != nullptr) {
        static_cast<char*>(optionValues[i])[0] = '\0';
      }
    }
  }
  return mxcts::cuda_backend::Load(module, image, 0);
}

mcError_t mcModuleUnload(mcModule_t module) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  State& s = Modules();
  Module* live = nullptr;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    live = mxcts::cuda_backend::LiveModule(s, module);
    // [api.module.unload.invalid-handle]
    if (live == nullptr) return Fail(mcErrorInvalidResourceHandle);
    s.live.erase(live);
    s.loaded.store(static_cast<int>(s.live.size()), std::memory_order_release);
  }
  // The device's work may still run the module's code
  // [api.module.unload.releases-module].
  int current = 0;
  cudaGetDevice(&current);
  cudaSetDevice(live->device);
  cudaDeviceSynchronize();
  const CUresult result =
      mxcts::cuda_backend::CallDriver<decltype(&cuModuleUnload)>(
          "cuModuleUnload", live->cuda);
  cudaSetDevice(current);
  cudaGetLastError();
  return mxcts::cuda_backend::FromDriver(result);
}

mcError_t mcModuleGetFunction(mcFunction_t* function, mcModule_t module,
                              const char* kname) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // [api.module.get-function.null-invalid-value]
  if (function == nullptr || kname == nullptr) {
    return Fail(mcErrorInvalidValue);
  }
  State& s = Modules();
  std::lock_guard<std::mutex> lock(s.mutex);
  Module* live = mxcts::cuda_backend::LiveModule(s, module);
  if (live == nullptr) return Fail(mcErrorInvalidResourceHandle);
  // The same name gives the same handle
  // [api.module.get-function.finds-kernel].
  auto known = live->functions.find(kname);
  if (known != live->functions.end()) {
    *function = reinterpret_cast<mcFunction_t>(known->second);
    return mcSuccess;
  }
  int device = 0;
  mcError_t error = mxcts::cuda_backend::CurrentContext(&device);
  if (error != mcSuccess) return error;
  CUfunction cuda = nullptr;
  const CUresult result =
      mxcts::cuda_backend::CallDriver<decltype(&cuModuleGetFunction)>(
          "cuModuleGetFunction", &cuda, live->cuda, kname);
  // [api.module.get-function.unknown-name]: CUDA refuses a name it has no
  // symbol of (the empty one, a kernel's as a variable) as an invalid value
  // too; module and name were checked.
  if (result == CUDA_ERROR_NOT_FOUND || result == CUDA_ERROR_INVALID_VALUE) {
    return Fail(mcErrorSymbolNotFound);
  }
  if (result != CUDA_SUCCESS) return mxcts::cuda_backend::FromDriver(result);
  Function* found = new Function{cuda, live};
  live->functions[kname] = found;
  *function = reinterpret_cast<mcFunction_t>(found);
  return mcSuccess;
}

mcError_t mcModuleGetGlobal(mcDeviceptr_t* dptr, size_t* bytes, mcModule_t hmod,
                            const char* name) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (name == nullptr) return Fail(mcErrorInvalidValue);
  State& s = Modules();
  std::lock_guard<std::mutex> lock(s.mutex);
  Module* live = mxcts::cuda_backend::LiveModule(s, hmod);
  if (live == nullptr) return Fail(mcErrorInvalidResourceHandle);
  int device = 0;
  mcError_t error = mxcts::cuda_backend::CurrentContext(&device);
  if (error != mcSuccess) return error;
  CUdeviceptr address = 0;
  size_t size = 0;
  const CUresult result =
      mxcts::cuda_backend::CallDriver<decltype(&cuModuleGetGlobal)>(
          "cuModuleGetGlobal", &address, &size, live->cuda, name);
  // [api.module.get-global.unknown-name]: CUDA refuses a name it has no
  // symbol of (the empty one, a kernel's as a variable) as an invalid value
  // too; module and name were checked.
  if (result == CUDA_ERROR_NOT_FOUND || result == CUDA_ERROR_INVALID_VALUE) {
    return Fail(mcErrorSymbolNotFound);
  }
  if (result != CUDA_SUCCESS) return mxcts::cuda_backend::FromDriver(result);
  // [api.module.get-global.finds-variable]
  if (dptr != nullptr) {
    *dptr = reinterpret_cast<mcDeviceptr_t>(static_cast<uintptr_t>(address));
  }
  if (bytes != nullptr) *bytes = size;
  return mcSuccess;
}

mcError_t mcModuleLaunchKernel(mcFunction_t f, unsigned int gridDimX,
                               unsigned int gridDimY, unsigned int gridDimZ,
                               unsigned int blockDimX, unsigned int blockDimY,
                               unsigned int blockDimZ,
                               unsigned int sharedMemBytes, mcStream_t stream,
                               void** kernelParams, void** extra) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return mxcts::cuda_backend::Launch(
      f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
      sharedMemBytes, stream, kernelParams, extra, /*cooperative=*/false);
}

mcError_t mcFuncGetAttribute(int* value, mcFunction_attribute attrib,
                             mcFunction_t hfunc) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // [api.module.function.get-attribute]
  if (value == nullptr || static_cast<int>(attrib) < 0 ||
      static_cast<int>(attrib) >= MC_FUNC_ATTRIBUTE_MAX) {
    return Fail(mcErrorInvalidValue);
  }
  CUfunction cuda = nullptr;
  {
    State& s = Modules();
    std::lock_guard<std::mutex> lock(s.mutex);
    Function* live = mxcts::cuda_backend::LiveFunction(s, hfunc);
    if (live == nullptr) return Fail(mcErrorInvalidResourceHandle);
    cuda = live->cuda;
  }
  int device = 0;
  mcError_t error = mxcts::cuda_backend::CurrentContext(&device);
  if (error != mcSuccess) return error;
  return mxcts::cuda_backend::FromDriver(
      mxcts::cuda_backend::CallDriver<decltype(&cuFuncGetAttribute)>(
          "cuFuncGetAttribute", value,
          static_cast<CUfunction_attribute>(attrib), cuda));
}

}  // extern "C"
