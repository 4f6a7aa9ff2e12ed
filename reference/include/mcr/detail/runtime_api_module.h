// Copyright mxcts authors.
//
// mcr/detail/runtime_api_module.h: the part of mc_runtime_api.h that
// declares the module API: device images loaded while the program runs
// (made by mcrtc, mcrtc.h, or by `mxcc --genco`), their kernels and
// variables, and launches of those kernels. Include mc_runtime_api.h (or
// mc_runtime.h), not this header: it relies on the definitions made there.
//
//   mcModule_t module;
//   mcModuleLoadData(&module, image);            // bytes of an image
//   mcFunction_t kernel;
//   mcModuleGetFunction(&kernel, module, "scale");
//   void* args[] = {&data, &factor};
//   mcModuleLaunchKernel(kernel, blocks, 1, 1, 256, 1, 1, 0, stream, args,
//                        NULL);
//   mcModuleUnload(module);
//
// A module is loaded for the device current when it is loaded, and its
// functions launch on that device only. MACA_MODULE_LOADING (LAZY, the
// default, or EAGER) chooses when a module's code is loaded for its device:
// at the first call that needs a kernel or variable of it, or by the load
// call itself; errors of loading surface there
// [api.module.loading.lazy-and-eager].

#ifndef MCR_DETAIL_RUNTIME_API_MODULE_H_
#define MCR_DETAIL_RUNTIME_API_MODULE_H_

#ifdef __cplusplus
extern "C" {
#endif

// Loads the device image stored in the file `fname` for the current device
// and stores its handle in `*module`.
// Errors (no module is made): mcErrorInvalidValue if `module` or `fname` is
// null; mcErrorFileNotFound if `fname` names no readable file;
// mcErrorInvalidKernelImage if the file holds no valid image (truncated,
// corrupt, another format); mcErrorNoKernelImageForDevice (EAGER loading)
// if the image was built for another architecture than the device's.
// [api.module.load.loads-file] [api.module.load.missing-file]
// [api.module.load.invalid-file-content] [api.module.load.null-invalid-value]
mcError_t mcModuleLoad(mcModule_t* module, const char* fname);

// Loads the device image at `image` (what mcrtcGetCode or mcrtcGetBitcode
// copied out, or the bytes of an `mxcc --genco` output) for the current
// device. The image's header says its size; the bytes are copied, so the
// caller may free `image` when the call returns.
// Errors: mcErrorInvalidValue if `module` or `image` is null;
// mcErrorInvalidKernelImage if the bytes are no valid image;
// mcErrorNoKernelImageForDevice as mcModuleLoad.
// [api.module.load-data.loads-image] [api.module.load-data.invalid-image]
// [api.module.load-data.null-invalid-value]
mcError_t mcModuleLoadData(mcModule_t* module, const void* image);

// mcModuleLoadData with `numOptions` JIT options (`options[i]` with the
// value `optionValues[i]`). The reference writes an empty string into the
// log buffers it is given (mcJitOptionInfoLogBuffer,
// mcJitOptionErrorLogBuffer, when their size is given and not 0) and
// ignores the other options.
// Errors: those of mcModuleLoadData; mcErrorInvalidValue if `numOptions` is
// not 0 and `options` or `optionValues` is null, or an option is not an
// mcJitOption. [api.module.load-data-ex.options]
// [api.module.load-data-ex.null-options-invalid-value]
mcError_t mcModuleLoadDataEx(mcModule_t* module, const void* image,
                             unsigned int numOptions, mcJitOption* options,
                             void** optionValues);

// Waits for the work of the module's device to finish, then unloads
// `module`; its function handles and variable addresses become invalid.
// Errors: mcErrorInvalidResourceHandle if `module` is null or not a loaded
// module. [api.module.unload.releases-module]
// [api.module.unload.invalid-handle]
mcError_t mcModuleUnload(mcModule_t module);

// Stores in `*function` the kernel of `module` whose symbol is `kname`: an
// `extern "C"` kernel's name, or another kernel's mangled name (as
// mcrtcGetLoweredName gives it). The same name gives the same handle.
// Errors: mcErrorInvalidValue if `function` or `kname` is null;
// mcErrorInvalidResourceHandle if `module` is not a loaded module;
// mcErrorSymbolNotFound if no kernel of the module has that name; under
// LAZY loading, the errors of loading the module's code.
// [api.module.get-function.finds-kernel] [api.module.get-function.unknown-name]
// [api.module.get-function.null-invalid-value]
mcError_t mcModuleGetFunction(mcFunction_t* function, mcModule_t module,
                              const char* kname);

// Stores the device address and the size of the module's __device__ or
// __constant__ variable `name` (its symbol: the plain name at namespace
// scope outside any namespace, the mangled name inside one) in `*dptr` and
// `*bytes`; either may be null.
// Errors: mcErrorInvalidValue if `name` is null; mcErrorInvalidResourceHandle
// for a module that is not loaded; mcErrorSymbolNotFound if the module has
// no such variable; under LAZY loading, the errors of loading the module's
// code. [api.module.get-global.finds-variable]
// [api.module.get-global.unknown-name]
mcError_t mcModuleGetGlobal(mcDeviceptr_t* dptr, size_t* bytes, mcModule_t hmod,
                            const char* name);

// Launches `f` on a grid of gridDimX x gridDimY x gridDimZ blocks of
// blockDimX x blockDimY x blockDimZ threads with `sharedMemBytes` of dynamic
// shared memory, in `stream`, as mcLaunchKernel does. The arguments are
// given either in `kernelParams` (kernelParams[i] points at argument i) or
// in `extra` (MC_LAUNCH_PARAM_BUFFER_POINTER, buffer,
// MC_LAUNCH_PARAM_BUFFER_SIZE, &size, MC_LAUNCH_PARAM_END, the buffer
// holding the arguments laid out as a structure's members); a kernel
// without parameters may have both null.
// Errors (nothing runs): mcErrorInvalidResourceHandle if `f` is not a
// function of a loaded module, or its module belongs to another device than
// the current one, or `stream` is not live; mcErrorInvalidValue if both
// `kernelParams` and `extra` are given, if neither is for a kernel with
// parameters, if `extra` is malformed or its buffer too small, for a zero
// extent, a block over the device's limits or `sharedMemBytes` over
// sharedMemPerBlock; mcErrorLaunchOutOfResources for a block over the
// kernel's __launch_bounds__.
// [api.module.launch.kernel-params] [api.module.launch.extra-buffer]
// [api.module.launch.both-params-and-extra-invalid-value]
// [api.module.launch.bad-configuration-invalid-value]
// [api.module.launch.invalid-function-handle]
mcError_t mcModuleLaunchKernel(mcFunction_t f, unsigned int gridDimX,
                               unsigned int gridDimY, unsigned int gridDimZ,
                               unsigned int blockDimX, unsigned int blockDimY,
                               unsigned int blockDimZ,
                               unsigned int sharedMemBytes, mcStream_t stream,
                               void** kernelParams, void** extra);

// Stores attribute `attrib` of module function `hfunc` in `*value`: the
// fields of mcFuncGetAttributes, one at a time.
// Errors: mcErrorInvalidValue if `value` is null or `attrib` is not an
// mcFunction_attribute below MC_FUNC_ATTRIBUTE_MAX;
// mcErrorInvalidResourceHandle if `hfunc` is not a function of a loaded
// module. [api.module.function.get-attribute]
mcError_t mcFuncGetAttribute(int* value, mcFunction_attribute attrib,
                             mcFunction_t hfunc);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_MODULE_H_
