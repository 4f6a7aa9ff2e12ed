// Copyright mxcts authors.
//
// mcrtc.h of the native CUDA twin: runtime compilation is NVRTC's. A
// native program compiles for the GPU it runs on and loads the CUBIN, which
// is what the CUDA backend's mcrtc does (backends/cuda/runtime/rtc.cc), so
// the twin's compile names the current device's architecture and its code
// is the CUBIN.

#ifndef MXCTS_PERF_NATIVE_CUDA_MCRTC_H_
#define MXCTS_PERF_NATIVE_CUDA_MCRTC_H_

#include <cuda_runtime.h>
#include <nvrtc.h>

#include <string>
#include <vector>

using mcrtcProgram = nvrtcProgram;
using mcrtcResult = nvrtcResult;
constexpr nvrtcResult MCRTC_SUCCESS = NVRTC_SUCCESS;

#define mcrtcCreateProgram nvrtcCreateProgram
#define mcrtcDestroyProgram nvrtcDestroyProgram
#define mcrtcGetErrorString nvrtcGetErrorString
#define mcrtcGetCodeSize nvrtcGetCUBINSize
#define mcrtcGetCode nvrtcGetCUBIN

// The program's options followed by the current device's architecture
// (sm_<major><minor>).
inline nvrtcResult mcrtcCompileProgram(nvrtcProgram program, int count,
                                       const char* const* options) {
  int device = 0;
  int major = 0;
  int minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                             device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor,
                             device) != cudaSuccess) {
    return NVRTC_ERROR_INVALID_INPUT;
  }
  const std::string architecture =
      "--gpu-architecture=sm_" + std::to_string(major) + std::to_string(minor);
  std::vector<const char*> all(options, options + (count > 0 ? count : 0));
  all.push_back(architecture.c_str());
  return nvrtcCompileProgram(program, static_cast<int>(all.size()), all.data());
}

#endif  // MXCTS_PERF_NATIVE_CUDA_MCRTC_H_
