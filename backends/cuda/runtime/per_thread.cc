// Copyright mxcts authors.
//
// The entry points a unit compiled with the per-thread default stream calls
// (reference/include/mcr/detail/runtime_api_per_thread.h): the `_ptsz`
// forms read stream 0 as mcStreamPerThread, which is CUDA's
// cudaStreamPerThread, and pass every other stream through; the `_ptds`
// forms order their work in the calling thread's per-thread default stream
// instead of the legacy one.
//
// A `_ptds` form is the asynchronous form of its call in mcStreamPerThread.
// The copies then wait for that stream, as the copies without the suffix
// return only once the copy is done; the memory sets do not, as the sets
// without the suffix may return before the device has written.
// [api.sync.per-thread.renamed-entry-points]

#include "backends/cuda/include/mc_runtime_api.h"

namespace {

// Stream 0 as a unit with the per-thread default stream means it.
mcStream_t PerThread(mcStream_t stream) {
  return stream == nullptr ? mcStreamPerThread : stream;
}

// The per-thread stream's result after `submitted`, for the copies that
// return once the copy is done.
mcError_t WaitedFor(mcError_t submitted) {
  if (submitted != mcSuccess) return submitted;
  return mcStreamSynchronize(mcStreamPerThread);
}

}  // namespace

extern "C" {

// Streams.
mcError_t mcStreamDestroy_ptsz(mcStream_t stream) {
  return mcStreamDestroy(PerThread(stream));
}
mcError_t mcStreamQuery_ptsz(mcStream_t stream) {
  return mcStreamQuery(PerThread(stream));
}
mcError_t mcStreamSynchronize_ptsz(mcStream_t stream) {
  return mcStreamSynchronize(PerThread(stream));
}
mcError_t mcStreamWaitEvent_ptsz(mcStream_t stream, mcEvent_t event,
                                 unsigned int flags) {
  return mcStreamWaitEvent(PerThread(stream), event, flags);
}
mcError_t mcStreamGetFlags_ptsz(mcStream_t stream, unsigned int* flags) {
  return mcStreamGetFlags(PerThread(stream), flags);
}
mcError_t mcStreamGetPriority_ptsz(mcStream_t stream, int* priority) {
  return mcStreamGetPriority(PerThread(stream), priority);
}
mcError_t mcStreamGetDevice_ptsz(mcStream_t stream, int* device) {
  return mcStreamGetDevice(PerThread(stream), device);
}
mcError_t mcStreamSetAttribute_ptsz(mcStream_t stream, mcStreamAttrID attr,
                                    const mcStreamAttrValue* value) {
  return mcStreamSetAttribute(PerThread(stream), attr, value);
}
mcError_t mcStreamGetAttribute_ptsz(mcStream_t stream, mcStreamAttrID attr,
                                    mcStreamAttrValue* value) {
  return mcStreamGetAttribute(PerThread(stream), attr, value);
}
mcError_t mcStreamCopyAttribute_ptsz(mcStream_t dst, mcStream_t src) {
  return mcStreamCopyAttribute(PerThread(dst), PerThread(src));
}
mcError_t mcStreamAttachMemAsync_ptsz(mcStream_t stream, void* devPtr,
                                      size_t length, unsigned int flags) {
  return mcStreamAttachMemAsync(PerThread(stream), devPtr, length, flags);
}
mcError_t mcStreamAddCallback_ptsz(mcStream_t stream,
                                   mcStreamCallback_t callback, void* userData,
                                   unsigned int flags) {
  return mcStreamAddCallback(PerThread(stream), callback, userData, flags);
}
mcError_t mcLaunchHostFunc_ptsz(mcStream_t stream, mcHostFn_t fn,
                                void* userData) {
  return mcLaunchHostFunc(PerThread(stream), fn, userData);
}

// Events.
mcError_t mcEventRecord_ptsz(mcEvent_t event, mcStream_t stream) {
  return mcEventRecord(event, PerThread(stream));
}
mcError_t mcEventRecordWithFlags_ptsz(mcEvent_t event, mcStream_t stream,
                                      unsigned int flags) {
  return mcEventRecordWithFlags(event, PerThread(stream), flags);
}

// Launch.
mcError_t mcLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block,
                              void** args, size_t sharedMem,
                              mcStream_t stream) {
  return mcLaunchKernel(func, grid, block, args, sharedMem, PerThread(stream));
}
mcError_t mcLaunchCooperativeKernel_ptsz(const void* func, dim3 gridDim,
                                         dim3 blockDim, void** args,
                                         size_t sharedMem, mcStream_t stream) {
  return mcLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem,
                                   PerThread(stream));
}

// Modules.
mcError_t mcModuleLaunchKernel_ptsz(
    mcFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, mcStream_t stream,
    void** kernelParams, void** extra) {
  return mcModuleLaunchKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX,
                              blockDimY, blockDimZ, sharedMemBytes,
                              PerThread(stream), kernelParams, extra);
}

// Memory.
mcError_t mcMemPrefetchAsync_ptsz(const void* devPtr, size_t count,
                                  int dstDevice, mcStream_t stream) {
  return mcMemPrefetchAsync(devPtr, count, dstDevice, PerThread(stream));
}
mcError_t mcMemPrefetchAsync_v2_ptsz(const void* devPtr, size_t count,
                                     mcMemLocation location, unsigned int flags,
                                     mcStream_t stream) {
  return mcMemPrefetchAsync_v2(devPtr, count, location, flags,
                               PerThread(stream));
}
mcError_t mcMemcpyAsync_ptsz(void* dst, const void* src, size_t count,
                             mcMemcpyKind kind, mcStream_t stream) {
  return mcMemcpyAsync(dst, src, count, kind, PerThread(stream));
}
mcError_t mcMemcpy2DAsync_ptsz(void* dst, size_t dpitch, const void* src,
                               size_t spitch, size_t width, size_t height,
                               mcMemcpyKind kind, mcStream_t stream) {
  return mcMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind,
                         PerThread(stream));
}
mcError_t mcMemcpy3DAsync_ptsz(const mcMemcpy3DParms* p, mcStream_t stream) {
  return mcMemcpy3DAsync(p, PerThread(stream));
}
mcError_t mcMemcpyHtoDAsync_ptsz(mcDeviceptr_t dst, const void* src,
                                 size_t byteCount, mcStream_t stream) {
  return mcMemcpyHtoDAsync(dst, src, byteCount, PerThread(stream));
}
mcError_t mcMemcpyDtoHAsync_ptsz(void* dst, mcDeviceptr_t src, size_t byteCount,
                                 mcStream_t stream) {
  return mcMemcpyDtoHAsync(dst, src, byteCount, PerThread(stream));
}
mcError_t mcMemcpyDtoDAsync_ptsz(mcDeviceptr_t dst, mcDeviceptr_t src,
                                 size_t byteCount, mcStream_t stream) {
  return mcMemcpyDtoDAsync(dst, src, byteCount, PerThread(stream));
}
mcError_t mcMemsetAsync_ptsz(void* ptr, int value, size_t count,
                             mcStream_t stream) {
  return mcMemsetAsync(ptr, value, count, PerThread(stream));
}
mcError_t mcMemset2DAsync_ptsz(void* ptr, size_t pitch, int value, size_t width,
                               size_t height, mcStream_t stream) {
  return mcMemset2DAsync(ptr, pitch, value, width, height, PerThread(stream));
}
mcError_t mcMemset3DAsync_ptsz(mcPitchedPtr pitchedDevPtr, int value,
                               mcExtent extent, mcStream_t stream) {
  return mcMemset3DAsync(pitchedDevPtr, value, extent, PerThread(stream));
}
mcError_t mcMemsetD8Async_ptsz(mcDeviceptr_t dst, unsigned char value,
                               size_t count, mcStream_t stream) {
  return mcMemsetD8Async(dst, value, count, PerThread(stream));
}
mcError_t mcMemsetD16Async_ptsz(mcDeviceptr_t dst, unsigned short value,
                                size_t count, mcStream_t stream) {
  return mcMemsetD16Async(dst, value, count, PerThread(stream));
}
mcError_t mcMemsetD32Async_ptsz(mcDeviceptr_t dst, unsigned int value,
                                size_t count, mcStream_t stream) {
  return mcMemsetD32Async(dst, value, count, PerThread(stream));
}
mcError_t mcMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src,
                                     size_t count, size_t offset,
                                     mcMemcpyKind kind, mcStream_t stream) {
  return mcMemcpyToSymbolAsync(symbol, src, count, offset, kind,
                               PerThread(stream));
}
mcError_t mcMemcpyFromSymbolAsync_ptsz(void* dst, const void* symbol,
                                       size_t count, size_t offset,
                                       mcMemcpyKind kind, mcStream_t stream) {
  return mcMemcpyFromSymbolAsync(dst, symbol, count, offset, kind,
                                 PerThread(stream));
}

// Stream-ordered allocation.
mcError_t mcMallocAsync_ptsz(void** ptr, size_t size, mcStream_t stream) {
  return mcMallocAsync(ptr, size, PerThread(stream));
}
mcError_t mcMallocFromPoolAsync_ptsz(void** ptr, size_t size, mcMemPool_t pool,
                                     mcStream_t stream) {
  return mcMallocFromPoolAsync(ptr, size, pool, PerThread(stream));
}
mcError_t mcFreeAsync_ptsz(void* ptr, mcStream_t stream) {
  return mcFreeAsync(ptr, PerThread(stream));
}

// Peer copies.
mcError_t mcMemcpyPeerAsync_ptsz(void* dst, int dstDevice, const void* src,
                                 int srcDevice, size_t count,
                                 mcStream_t stream) {
  return mcMemcpyPeerAsync(dst, dstDevice, src, srcDevice, count,
                           PerThread(stream));
}

// Graphs and stream capture.
mcError_t mcGraphUpload_ptsz(mcGraphExec_t exec, mcStream_t stream) {
  return mcGraphUpload(exec, PerThread(stream));
}
mcError_t mcGraphLaunch_ptsz(mcGraphExec_t exec, mcStream_t stream) {
  return mcGraphLaunch(exec, PerThread(stream));
}
mcError_t mcStreamBeginCapture_ptsz(mcStream_t stream,
                                    mcStreamCaptureMode mode) {
  return mcStreamBeginCapture(PerThread(stream), mode);
}
mcError_t mcStreamEndCapture_ptsz(mcStream_t stream, mcGraph_t* graph) {
  return mcStreamEndCapture(PerThread(stream), graph);
}
mcError_t mcStreamIsCapturing_ptsz(mcStream_t stream,
                                   mcStreamCaptureStatus* status) {
  return mcStreamIsCapturing(PerThread(stream), status);
}
mcError_t mcStreamGetCaptureInfo_ptsz(mcStream_t stream,
                                      mcStreamCaptureStatus* status,
                                      unsigned long long* id) {
  return mcStreamGetCaptureInfo(PerThread(stream), status, id);
}
mcError_t mcStreamGetCaptureInfo_v2_ptsz(mcStream_t stream,
                                         mcStreamCaptureStatus* status,
                                         unsigned long long* id,
                                         mcGraph_t* graph,
                                         const mcGraphNode_t** dependencies,
                                         size_t* numDependencies) {
  return mcStreamGetCaptureInfo_v2(PerThread(stream), status, id, graph,
                                   dependencies, numDependencies);
}
mcError_t mcStreamUpdateCaptureDependencies_ptsz(mcStream_t stream,
                                                 mcGraphNode_t* nodes,
                                                 size_t numDependencies,
                                                 unsigned int flags) {
  return mcStreamUpdateCaptureDependencies(PerThread(stream), nodes,
                                           numDependencies, flags);
}

// The `_ptds` forms: copies wait for the per-thread stream, sets do not.
mcError_t mcMemcpy_ptds(void* dst, const void* src, size_t count,
                        mcMemcpyKind kind) {
  return WaitedFor(mcMemcpyAsync(dst, src, count, kind, mcStreamPerThread));
}
mcError_t mcMemcpy2D_ptds(void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t height,
                          mcMemcpyKind kind) {
  return WaitedFor(mcMemcpy2DAsync(dst, dpitch, src, spitch, width, height,
                                   kind, mcStreamPerThread));
}
mcError_t mcMemcpy3D_ptds(const mcMemcpy3DParms* p) {
  return WaitedFor(mcMemcpy3DAsync(p, mcStreamPerThread));
}
mcError_t mcMemcpyHtoD_ptds(mcDeviceptr_t dst, const void* src,
                            size_t byteCount) {
  return WaitedFor(mcMemcpyHtoDAsync(dst, src, byteCount, mcStreamPerThread));
}
mcError_t mcMemcpyDtoH_ptds(void* dst, mcDeviceptr_t src, size_t byteCount) {
  return WaitedFor(mcMemcpyDtoHAsync(dst, src, byteCount, mcStreamPerThread));
}
mcError_t mcMemcpyDtoD_ptds(mcDeviceptr_t dst, mcDeviceptr_t src,
                            size_t byteCount) {
  return WaitedFor(mcMemcpyDtoDAsync(dst, src, byteCount, mcStreamPerThread));
}
mcError_t mcMemcpyToSymbol_ptds(const void* symbol, const void* src,
                                size_t count, size_t offset,
                                mcMemcpyKind kind) {
  return WaitedFor(mcMemcpyToSymbolAsync(symbol, src, count, offset, kind,
                                         mcStreamPerThread));
}
mcError_t mcMemcpyFromSymbol_ptds(void* dst, const void* symbol, size_t count,
                                  size_t offset, mcMemcpyKind kind) {
  return WaitedFor(mcMemcpyFromSymbolAsync(dst, symbol, count, offset, kind,
                                           mcStreamPerThread));
}
mcError_t mcMemcpyPeer_ptds(void* dst, int dstDevice, const void* src,
                            int srcDevice, size_t count) {
  return WaitedFor(mcMemcpyPeerAsync(dst, dstDevice, src, srcDevice, count,
                                     mcStreamPerThread));
}
mcError_t mcMemset_ptds(void* ptr, int value, size_t count) {
  return mcMemsetAsync(ptr, value, count, mcStreamPerThread);
}
mcError_t mcMemset2D_ptds(void* ptr, size_t pitch, int value, size_t width,
                          size_t height) {
  return mcMemset2DAsync(ptr, pitch, value, width, height, mcStreamPerThread);
}
mcError_t mcMemset3D_ptds(mcPitchedPtr pitchedDevPtr, int value,
                          mcExtent extent) {
  return mcMemset3DAsync(pitchedDevPtr, value, extent, mcStreamPerThread);
}
mcError_t mcMemsetD8_ptds(mcDeviceptr_t dst, unsigned char value,
                          size_t count) {
  return mcMemsetD8Async(dst, value, count, mcStreamPerThread);
}
mcError_t mcMemsetD16_ptds(mcDeviceptr_t dst, unsigned short value,
                           size_t count) {
  return mcMemsetD16Async(dst, value, count, mcStreamPerThread);
}
mcError_t mcMemsetD32_ptds(mcDeviceptr_t dst, unsigned int value,
                           size_t count) {
  return mcMemsetD32Async(dst, value, count, mcStreamPerThread);
}

}  // extern "C"
