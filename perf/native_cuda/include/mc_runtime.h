// Copyright mxcts authors.
//
// mc_runtime.h of the native CUDA twin (perf/native_cuda/README.md): the
// MXMACA names that the perf/ benchmarks use, spelled as the CUDA runtime
// spells them, so that the same benchmark sources build into a plain CUDA
// program with nothing between them and CUDA. It is the baseline the CUDA
// backend (backends/cuda) is measured against; it is not an MXMACA
// implementation, and a benchmark that uses a name missing here does not
// build with it (add the name; keep each one CUDA's own call).
//
// Where the MXMACA call form differs from CUDA 13's, a one-line inline
// function makes the call a native program would make (noted there); every
// other name is CUDA's under a second name.

#ifndef MXCTS_PERF_NATIVE_CUDA_MC_RUNTIME_H_
#define MXCTS_PERF_NATIVE_CUDA_MC_RUNTIME_H_

#include <cuda.h>
#include <cuda_runtime.h>

// Types.
using mcError_t = cudaError_t;
using mcStream_t = cudaStream_t;
using mcEvent_t = cudaEvent_t;
using mcGraph_t = cudaGraph_t;
using mcGraphExec_t = cudaGraphExec_t;
using mcGraphNode_t = cudaGraphNode_t;
using mcKernelNodeParams = cudaKernelNodeParams;
using mcMemPool_t = cudaMemPool_t;
using mcMemcpyKind = cudaMemcpyKind;
using mcModule_t = CUmodule;
using mcFunction_t = CUfunction;

// Constants.
constexpr cudaError_t mcSuccess = cudaSuccess;
constexpr cudaMemcpyKind mcMemcpyHostToDevice = cudaMemcpyHostToDevice;
constexpr cudaMemcpyKind mcMemcpyDeviceToHost = cudaMemcpyDeviceToHost;
constexpr cudaMemcpyKind mcMemcpyDefault = cudaMemcpyDefault;
constexpr unsigned mcStreamNonBlocking = cudaStreamNonBlocking;
constexpr unsigned mcEventDefault = cudaEventDefault;
constexpr unsigned mcEventDisableTiming = cudaEventDisableTiming;
constexpr cudaMemPoolAttr mcMemPoolAttrReleaseThreshold =
    cudaMemPoolAttrReleaseThreshold;

// Calls: CUDA's own, including their C++ template overloads.
#define mcDeviceGetDefaultMemPool cudaDeviceGetDefaultMemPool
#define mcDeviceSynchronize cudaDeviceSynchronize
#define mcEventCreateWithFlags cudaEventCreateWithFlags
#define mcEventDestroy cudaEventDestroy
#define mcEventQuery cudaEventQuery
#define mcEventRecord cudaEventRecord
#define mcEventSynchronize cudaEventSynchronize
#define mcFree cudaFree
#define mcFreeAsync cudaFreeAsync
#define mcFreeHost cudaFreeHost
#define mcGetDeviceCount cudaGetDeviceCount
#define mcGetErrorName cudaGetErrorName
#define mcGetErrorString cudaGetErrorString
#define mcGetLastError cudaGetLastError
#define mcGraphAddEmptyNode cudaGraphAddEmptyNode
#define mcGraphAddKernelNode cudaGraphAddKernelNode
#define mcGraphCreate cudaGraphCreate
#define mcGraphDestroy cudaGraphDestroy
#define mcGraphExecDestroy cudaGraphExecDestroy
#define mcGraphLaunch cudaGraphLaunch
#define mcLaunchCooperativeKernel cudaLaunchCooperativeKernel
#define mcMalloc cudaMalloc
#define mcMallocAsync cudaMallocAsync
#define mcMallocHost cudaMallocHost
#define mcMallocManaged cudaMallocManaged
#define mcMemPoolSetAttribute cudaMemPoolSetAttribute
#define mcMemPoolTrimTo cudaMemPoolTrimTo
#define mcMemcpy cudaMemcpy
#define mcMemset cudaMemset
#define mcStreamCreate cudaStreamCreate
#define mcStreamCreateWithFlags cudaStreamCreateWithFlags
#define mcStreamDestroy cudaStreamDestroy
#define mcStreamQuery cudaStreamQuery
#define mcStreamSynchronize cudaStreamSynchronize

// MXMACA keeps the instantiation's error node and log arguments, which
// CUDA 12 replaced by flags; a native program passes no flags.
inline cudaError_t mcGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph,
                                      cudaGraphNode_t* /*error_node*/,
                                      char* /*log*/, size_t /*log_size*/) {
  return cudaGraphInstantiate(exec, graph, 0);
}

// Modules are the driver API's in a native program; its CUresult becomes
// the runtime's error so that the benchmarks' checks read it.
inline cudaError_t NativeCudaResult(CUresult result) {
  return result == CUDA_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}
inline cudaError_t mcModuleLoadData(CUmodule* module, const void* image) {
  return NativeCudaResult(cuModuleLoadData(module, image));
}
inline cudaError_t mcModuleGetFunction(CUfunction* function, CUmodule module,
                                       const char* name) {
  return NativeCudaResult(cuModuleGetFunction(function, module, name));
}
inline cudaError_t mcModuleUnload(CUmodule module) {
  return NativeCudaResult(cuModuleUnload(module));
}

#endif  // MXCTS_PERF_NATIVE_CUDA_MC_RUNTIME_H_
