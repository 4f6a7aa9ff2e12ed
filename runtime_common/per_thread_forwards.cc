// Copyright mxcts authors.
//
// The `_ptsz` entry points (mcr/detail/runtime_api_per_thread.h): what a
// translation unit compiled with the per-thread default stream calls in
// place of each function that takes a stream
// [api.sync.per-thread.compile-option-selects]
// [api.sync.per-thread.renamed-entry-points].
//
// Each is a forward: it reads stream 0 as mcStreamPerThread and calls the
// function without the suffix, which validates, runs and records the last
// error exactly as for a direct call with mcStreamPerThread. Every other
// handle, mcStreamLegacy included, passes through, so a per-thread unit
// still reaches the legacy stream by naming it.
//
// The forwards depend on the MXMACA API only, never on how a backend
// implements it, so this one file is compiled into every backend's runtime
// library (the reference's //reference/runtime/api and the CUDA adapter's
// //backends/cuda:runtime), each time against that backend's own
// mc_runtime_api.h, found on its include path.
//
// The `_ptds` forms of the calls that use the default stream implicitly
// (mcMemcpy_ptds, mcMemset_ptds, ...) are not forwards: the function
// without the suffix has no stream argument to pass, so each backend writes
// them itself (the reference beside each plain function, the CUDA adapter
// in backends/cuda/runtime/per_thread.cc).
//
// Tested by reference/runtime/api/api_per_thread_test.cc.

#include "mc_runtime_api.h"

namespace {

// What stream 0 names in a unit compiled with the per-thread default stream.
mcStream_t PerThreadIfZero(mcStream_t stream) {
  return stream == nullptr ? mcStreamPerThread : stream;
}

}  // namespace

extern "C" {

// --- Streams. ---

mcError_t mcStreamDestroy_ptsz(mcStream_t stream) {
  return mcStreamDestroy(PerThreadIfZero(stream));
}

mcError_t mcStreamQuery_ptsz(mcStream_t stream) {
  return mcStreamQuery(PerThreadIfZero(stream));
}

mcError_t mcStreamSynchronize_ptsz(mcStream_t stream) {
  return mcStreamSynchronize(PerThreadIfZero(stream));
}

mcError_t mcStreamWaitEvent_ptsz(mcStream_t stream, mcEvent_t event,
                                 unsigned int flags) {
  return mcStreamWaitEvent(PerThreadIfZero(stream), event, flags);
}

mcError_t mcStreamGetFlags_ptsz(mcStream_t stream, unsigned int* flags) {
  return mcStreamGetFlags(PerThreadIfZero(stream), flags);
}

mcError_t mcStreamGetPriority_ptsz(mcStream_t stream, int* priority) {
  return mcStreamGetPriority(PerThreadIfZero(stream), priority);
}

mcError_t mcStreamGetDevice_ptsz(mcStream_t stream, int* device) {
  return mcStreamGetDevice(PerThreadIfZero(stream), device);
}

mcError_t mcStreamSetAttribute_ptsz(mcStream_t stream, mcStreamAttrID attr,
                                    const mcStreamAttrValue* value) {
  return mcStreamSetAttribute(PerThreadIfZero(stream), attr, value);
}

mcError_t mcStreamGetAttribute_ptsz(mcStream_t stream, mcStreamAttrID attr,
                                    mcStreamAttrValue* value) {
  return mcStreamGetAttribute(PerThreadIfZero(stream), attr, value);
}

mcError_t mcStreamCopyAttribute_ptsz(mcStream_t dst, mcStream_t src) {
  return mcStreamCopyAttribute(PerThreadIfZero(dst), PerThreadIfZero(src));
}

mcError_t mcStreamAttachMemAsync_ptsz(mcStream_t stream, void* devPtr,
                                      size_t length, unsigned int flags) {
  return mcStreamAttachMemAsync(PerThreadIfZero(stream), devPtr, length, flags);
}

mcError_t mcStreamAddCallback_ptsz(mcStream_t stream,
                                   mcStreamCallback_t callback, void* userData,
                                   unsigned int flags) {
  return mcStreamAddCallback(PerThreadIfZero(stream), callback, userData,
                             flags);
}

mcError_t mcLaunchHostFunc_ptsz(mcStream_t stream, mcHostFn_t fn,
                                void* userData) {
  return mcLaunchHostFunc(PerThreadIfZero(stream), fn, userData);
}

// --- Events. ---

mcError_t mcEventRecord_ptsz(mcEvent_t event, mcStream_t stream) {
  return mcEventRecord(event, PerThreadIfZero(stream));
}

mcError_t mcEventRecordWithFlags_ptsz(mcEvent_t event, mcStream_t stream,
                                      unsigned int flags) {
  return mcEventRecordWithFlags(event, PerThreadIfZero(stream), flags);
}

// --- Launch. ---

mcError_t mcLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block,
                              void** args, size_t sharedMem,
                              mcStream_t stream) {
  return mcLaunchKernel(func, grid, block, args, sharedMem,
                        PerThreadIfZero(stream));
}

mcError_t mcModuleLaunchKernel_ptsz(
    mcFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, mcStream_t stream,
    void** kernelParams, void** extra) {
  return mcModuleLaunchKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX,
                              blockDimY, blockDimZ, sharedMemBytes,
                              PerThreadIfZero(stream), kernelParams, extra);
}

mcError_t mcLaunchCooperativeKernel_ptsz(const void* func, dim3 gridDim,
                                         dim3 blockDim, void** args,
                                         size_t sharedMem, mcStream_t stream) {
  return mcLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem,
                                   PerThreadIfZero(stream));
}

// --- Memory. ---

mcError_t mcMemPrefetchAsync_ptsz(const void* devPtr, size_t count,
                                  int dstDevice, mcStream_t stream) {
  return mcMemPrefetchAsync(devPtr, count, dstDevice, PerThreadIfZero(stream));
}

mcError_t mcMemPrefetchAsync_v2_ptsz(const void* devPtr, size_t count,
                                     mcMemLocation location, unsigned int flags,
                                     mcStream_t stream) {
  return mcMemPrefetchAsync_v2(devPtr, count, location, flags,
                               PerThreadIfZero(stream));
}

mcError_t mcMemcpyAsync_ptsz(void* dst, const void* src, size_t count,
                             mcMemcpyKind kind, mcStream_t stream) {
  return mcMemcpyAsync(dst, src, count, kind, PerThreadIfZero(stream));
}

mcError_t mcMemcpy2DAsync_ptsz(void* dst, size_t dpitch, const void* src,
                               size_t spitch, size_t width, size_t height,
                               mcMemcpyKind kind, mcStream_t stream) {
  return mcMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind,
                         PerThreadIfZero(stream));
}

mcError_t mcMemcpy3DAsync_ptsz(const mcMemcpy3DParms* p, mcStream_t stream) {
  return mcMemcpy3DAsync(p, PerThreadIfZero(stream));
}

mcError_t mcMemcpyHtoDAsync_ptsz(mcDeviceptr_t dst, const void* src,
                                 size_t byteCount, mcStream_t stream) {
  return mcMemcpyHtoDAsync(dst, src, byteCount, PerThreadIfZero(stream));
}

mcError_t mcMemcpyDtoHAsync_ptsz(void* dst, mcDeviceptr_t src, size_t byteCount,
                                 mcStream_t stream) {
  return mcMemcpyDtoHAsync(dst, src, byteCount, PerThreadIfZero(stream));
}

mcError_t mcMemcpyDtoDAsync_ptsz(mcDeviceptr_t dst, mcDeviceptr_t src,
                                 size_t byteCount, mcStream_t stream) {
  return mcMemcpyDtoDAsync(dst, src, byteCount, PerThreadIfZero(stream));
}

mcError_t mcMemsetAsync_ptsz(void* ptr, int value, size_t count,
                             mcStream_t stream) {
  return mcMemsetAsync(ptr, value, count, PerThreadIfZero(stream));
}

mcError_t mcMemset2DAsync_ptsz(void* ptr, size_t pitch, int value, size_t width,
                               size_t height, mcStream_t stream) {
  return mcMemset2DAsync(ptr, pitch, value, width, height,
                         PerThreadIfZero(stream));
}

mcError_t mcMemset3DAsync_ptsz(mcPitchedPtr pitchedDevPtr, int value,
                               mcExtent extent, mcStream_t stream) {
  return mcMemset3DAsync(pitchedDevPtr, value, extent, PerThreadIfZero(stream));
}

mcError_t mcMemsetD8Async_ptsz(mcDeviceptr_t dst, unsigned char value,
                               size_t count, mcStream_t stream) {
  return mcMemsetD8Async(dst, value, count, PerThreadIfZero(stream));
}

mcError_t mcMemsetD16Async_ptsz(mcDeviceptr_t dst, unsigned short value,
                                size_t count, mcStream_t stream) {
  return mcMemsetD16Async(dst, value, count, PerThreadIfZero(stream));
}

mcError_t mcMemsetD32Async_ptsz(mcDeviceptr_t dst, unsigned int value,
                                size_t count, mcStream_t stream) {
  return mcMemsetD32Async(dst, value, count, PerThreadIfZero(stream));
}

mcError_t mcMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src,
                                     size_t count, size_t offset,
                                     mcMemcpyKind kind, mcStream_t stream) {
  return mcMemcpyToSymbolAsync(symbol, src, count, offset, kind,
                               PerThreadIfZero(stream));
}

mcError_t mcMemcpyFromSymbolAsync_ptsz(void* dst, const void* symbol,
                                       size_t count, size_t offset,
                                       mcMemcpyKind kind, mcStream_t stream) {
  return mcMemcpyFromSymbolAsync(dst, symbol, count, offset, kind,
                                 PerThreadIfZero(stream));
}

// --- Peer copies. ---

mcError_t mcMemcpyPeerAsync_ptsz(void* dst, int dstDevice, const void* src,
                                 int srcDevice, size_t count,
                                 mcStream_t stream) {
  return mcMemcpyPeerAsync(dst, dstDevice, src, srcDevice, count,
                           PerThreadIfZero(stream));
}

mcError_t mcGraphUpload_ptsz(mcGraphExec_t exec, mcStream_t stream) {
  return mcGraphUpload(exec, PerThreadIfZero(stream));
}

mcError_t mcGraphLaunch_ptsz(mcGraphExec_t exec, mcStream_t stream) {
  return mcGraphLaunch(exec, PerThreadIfZero(stream));
}

mcError_t mcStreamBeginCapture_ptsz(mcStream_t stream,
                                    mcStreamCaptureMode mode) {
  return mcStreamBeginCapture(PerThreadIfZero(stream), mode);
}

mcError_t mcStreamEndCapture_ptsz(mcStream_t stream, mcGraph_t* graph) {
  return mcStreamEndCapture(PerThreadIfZero(stream), graph);
}

mcError_t mcStreamIsCapturing_ptsz(mcStream_t stream,
                                   mcStreamCaptureStatus* status) {
  return mcStreamIsCapturing(PerThreadIfZero(stream), status);
}

mcError_t mcStreamGetCaptureInfo_ptsz(mcStream_t stream,
                                      mcStreamCaptureStatus* status,
                                      unsigned long long* id) {
  return mcStreamGetCaptureInfo(PerThreadIfZero(stream), status, id);
}

mcError_t mcStreamGetCaptureInfo_v2_ptsz(mcStream_t stream,
                                         mcStreamCaptureStatus* status,
                                         unsigned long long* id,
                                         mcGraph_t* graph,
                                         const mcGraphNode_t** dependencies,
                                         size_t* numDependencies) {
  return mcStreamGetCaptureInfo_v2(PerThreadIfZero(stream), status, id, graph,
                                   dependencies, numDependencies);
}

mcError_t mcStreamUpdateCaptureDependencies_ptsz(mcStream_t stream,
                                                 mcGraphNode_t* nodes,
                                                 size_t numDependencies,
                                                 unsigned int flags) {
  return mcStreamUpdateCaptureDependencies(PerThreadIfZero(stream), nodes,
                                           numDependencies, flags);
}

mcError_t mcMallocAsync_ptsz(void** ptr, size_t size, mcStream_t stream) {
  return mcMallocAsync(ptr, size, PerThreadIfZero(stream));
}

mcError_t mcMallocFromPoolAsync_ptsz(void** ptr, size_t size, mcMemPool_t pool,
                                     mcStream_t stream) {
  return mcMallocFromPoolAsync(ptr, size, pool, PerThreadIfZero(stream));
}

mcError_t mcFreeAsync_ptsz(void* ptr, mcStream_t stream) {
  return mcFreeAsync(ptr, PerThreadIfZero(stream));
}

}  // extern "C"
