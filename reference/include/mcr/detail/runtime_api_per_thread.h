// Copyright mxcts authors.
//
// mcr/detail/runtime_api_per_thread.h: the part of mc_runtime_api.h that
// selects, per translation unit, what stream 0 names: the entry points a
// unit compiled with the per-thread default stream calls, and the macros
// that make its calls reach them. Include mc_runtime_api.h (or
// mc_runtime.h), not this header: it relies on the declarations made there.
//
// A unit is compiled with the per-thread default stream when
// MACA_API_PER_THREAD_DEFAULT_STREAM is defined (with any value) before the
// runtime header is first included: by `-DMACA_API_PER_THREAD_DEFAULT_STREAM`
// or by mxcc's `--default-stream per-thread` (also spelled
// `--default-stream=per-thread` and `-fgpu-default-stream=per-thread`),
// which defines it. (mxcc includes mc_runtime.h ahead of an MXMACA source,
// so a #define in the source itself comes too late.) In such a unit, stream
// 0 and an omitted stream name the calling thread's per-thread default
// stream (mcStreamPerThread) instead of the legacy default stream
// (mcStreamLegacy), and the calls that use the default stream implicitly
// (mcMemcpy, mcMemset, ...) use the per-thread one. Other units of the same
// program keep the legacy default stream.
// [api.sync.per-thread.compile-option-selects]
//
// It works as the vendor's runtime does, by renaming: under the macro each
// function that takes a stream is renamed to its `_ptsz` form, and each call
// that uses the default stream implicitly to its `_ptds` form
// [api.sync.per-thread.renamed-entry-points]. Both forms are declared and
// exported whether or not the macro is defined.
//
//   // a.cu, compiled with mxcc --default-stream per-thread -c a.cu
//   mcMemcpyAsync(d, h, n, mcMemcpyHostToDevice);  // mcMemcpyAsync_ptsz:
//                                                  // this thread's stream
//   Kernel<<<grid, block>>>(d);                    // this thread's stream
//   mcStreamSynchronize(0);                        // waits for it only
//
// Kernel launches written `k<<<g, b, ns, s>>>(a)` are not calls the
// preprocessor sees; they read the same macro through the launch ABI
// (launch_abi.h, kPerThreadDefaultStream).

#ifndef MCR_DETAIL_RUNTIME_API_PER_THREAD_H_
#define MCR_DETAIL_RUNTIME_API_PER_THREAD_H_

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// `_ptsz` forms: each is the function without the suffix, with stream 0
// read as mcStreamPerThread; every other stream (mcStreamLegacy included)
// is passed through unchanged. Arguments, results, errors and
// synchronization are those of the function without the suffix, whose
// declaration documents them. mcStreamCopyAttribute_ptsz reads 0 so in
// either position; the callback of mcStreamAddCallback_ptsz receives the
// stream the work went to (mcStreamPerThread for 0).
// --------------------------------------------------------------------------

// Streams (runtime_api_stream.h).
mcError_t mcStreamDestroy_ptsz(mcStream_t stream);
mcError_t mcStreamQuery_ptsz(mcStream_t stream);
mcError_t mcStreamSynchronize_ptsz(mcStream_t stream);
mcError_t mcStreamWaitEvent_ptsz(mcStream_t stream, mcEvent_t event,
                                 unsigned int flags __MC_DEFAULT(0));
mcError_t mcStreamGetFlags_ptsz(mcStream_t stream, unsigned int* flags);
mcError_t mcStreamGetPriority_ptsz(mcStream_t stream, int* priority);
mcError_t mcStreamGetDevice_ptsz(mcStream_t stream, int* device);
mcError_t mcStreamSetAttribute_ptsz(mcStream_t stream, mcStreamAttrID attr,
                                    const mcStreamAttrValue* value);
mcError_t mcStreamGetAttribute_ptsz(mcStream_t stream, mcStreamAttrID attr,
                                    mcStreamAttrValue* value);
mcError_t mcStreamCopyAttribute_ptsz(mcStream_t dst, mcStream_t src);
mcError_t mcStreamAttachMemAsync_ptsz(
    mcStream_t stream, void* devPtr, size_t length __MC_DEFAULT(0),
    unsigned int flags __MC_DEFAULT(mcMemAttachSingle));
mcError_t mcStreamAddCallback_ptsz(mcStream_t stream,
                                   mcStreamCallback_t callback, void* userData,
                                   unsigned int flags);
mcError_t mcLaunchHostFunc_ptsz(mcStream_t stream, mcHostFn_t fn,
                                void* userData);

// Events (runtime_api_event.h).
mcError_t mcEventRecord_ptsz(mcEvent_t event,
                             mcStream_t stream __MC_DEFAULT(0));
mcError_t mcEventRecordWithFlags_ptsz(mcEvent_t event,
                                      mcStream_t stream __MC_DEFAULT(0),
                                      unsigned int flags __MC_DEFAULT(0));

// Launch (runtime_api_launch.h).
mcError_t mcLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block,
                              void** args, size_t sharedMem, mcStream_t stream);
mcError_t mcLaunchCooperativeKernel_ptsz(const void* func, dim3 gridDim,
                                         dim3 blockDim, void** args,
                                         size_t sharedMem, mcStream_t stream);

// Modules (runtime_api_module.h).
mcError_t mcModuleLaunchKernel_ptsz(
    mcFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, mcStream_t stream,
    void** kernelParams, void** extra);

// Memory (runtime_api_memory.h).
mcError_t mcMemPrefetchAsync_ptsz(const void* devPtr, size_t count,
                                  int dstDevice,
                                  mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemPrefetchAsync_v2_ptsz(const void* devPtr, size_t count,
                                     mcMemLocation location, unsigned int flags,
                                     mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemcpyAsync_ptsz(void* dst, const void* src, size_t count,
                             mcMemcpyKind kind,
                             mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemcpy2DAsync_ptsz(void* dst, size_t dpitch, const void* src,
                               size_t spitch, size_t width, size_t height,
                               mcMemcpyKind kind,
                               mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemcpy3DAsync_ptsz(const mcMemcpy3DParms* p,
                               mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemcpyHtoDAsync_ptsz(mcDeviceptr_t dst, const void* src,
                                 size_t byteCount, mcStream_t stream);
mcError_t mcMemcpyDtoHAsync_ptsz(void* dst, mcDeviceptr_t src, size_t byteCount,
                                 mcStream_t stream);
mcError_t mcMemcpyDtoDAsync_ptsz(mcDeviceptr_t dst, mcDeviceptr_t src,
                                 size_t byteCount, mcStream_t stream);
mcError_t mcMemsetAsync_ptsz(void* ptr, int value, size_t count,
                             mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemset2DAsync_ptsz(void* ptr, size_t pitch, int value, size_t width,
                               size_t height,
                               mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemset3DAsync_ptsz(mcPitchedPtr pitchedDevPtr, int value,
                               mcExtent extent,
                               mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemsetD8Async_ptsz(mcDeviceptr_t dst, unsigned char value,
                               size_t count, mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemsetD16Async_ptsz(mcDeviceptr_t dst, unsigned short value,
                                size_t count,
                                mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemsetD32Async_ptsz(mcDeviceptr_t dst, unsigned int value,
                                size_t count,
                                mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src,
                                     size_t count, size_t offset,
                                     mcMemcpyKind kind,
                                     mcStream_t stream __MC_DEFAULT(0));
mcError_t mcMemcpyFromSymbolAsync_ptsz(void* dst, const void* symbol,
                                       size_t count, size_t offset,
                                       mcMemcpyKind kind,
                                       mcStream_t stream __MC_DEFAULT(0));

// Stream-ordered allocation (runtime_api_pool.h).
mcError_t mcMallocAsync_ptsz(void** ptr, size_t size, mcStream_t stream);
mcError_t mcMallocFromPoolAsync_ptsz(void** ptr, size_t size, mcMemPool_t pool,
                                     mcStream_t stream);
mcError_t mcFreeAsync_ptsz(void* ptr, mcStream_t stream);

// Peer copies (runtime_api_peer.h).
mcError_t mcMemcpyPeerAsync_ptsz(void* dst, int dstDevice, const void* src,
                                 int srcDevice, size_t count,
                                 mcStream_t stream __MC_DEFAULT(0));

// Graphs and stream capture (runtime_api_graph.h).
mcError_t mcGraphUpload_ptsz(mcGraphExec_t exec, mcStream_t stream);
mcError_t mcGraphLaunch_ptsz(mcGraphExec_t exec, mcStream_t stream);
mcError_t mcStreamBeginCapture_ptsz(mcStream_t stream,
                                    mcStreamCaptureMode mode);
mcError_t mcStreamEndCapture_ptsz(mcStream_t stream, mcGraph_t* graph);
mcError_t mcStreamIsCapturing_ptsz(mcStream_t stream,
                                   mcStreamCaptureStatus* status);
mcError_t mcStreamGetCaptureInfo_ptsz(mcStream_t stream,
                                      mcStreamCaptureStatus* status,
                                      unsigned long long* id);
mcError_t mcStreamGetCaptureInfo_v2_ptsz(mcStream_t stream,
                                         mcStreamCaptureStatus* status,
                                         unsigned long long* id,
                                         mcGraph_t* graph,
                                         const mcGraphNode_t** dependencies,
                                         size_t* numDependencies);
mcError_t mcStreamUpdateCaptureDependencies_ptsz(mcStream_t stream,
                                                 mcGraphNode_t* nodes,
                                                 size_t numDependencies,
                                                 unsigned int flags);

// --------------------------------------------------------------------------
// `_ptds` forms: each is the function without the suffix, with the work it
// orders in the current device's default stream ordered in the calling
// thread's per-thread default stream instead of the legacy default stream:
// it starts after the work enqueued before it into that stream (and, the
// per-thread stream being a blocking stream, after earlier legacy work),
// and not after the work of other threads' per-thread streams or of other
// blocking streams. How long it blocks the host, its arguments, results
// and errors are those of the function without the suffix.
// mcMemcpyPeer_ptds still waits for the work already issued to the three
// devices involved [api.peer.copy.sync-serialized-with-devices].
// --------------------------------------------------------------------------

mcError_t mcMemcpy_ptds(void* dst, const void* src, size_t count,
                        mcMemcpyKind kind);
mcError_t mcMemcpy2D_ptds(void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t height,
                          mcMemcpyKind kind);
mcError_t mcMemcpy3D_ptds(const mcMemcpy3DParms* p);
mcError_t mcMemcpyHtoD_ptds(mcDeviceptr_t dst, const void* src,
                            size_t byteCount);
mcError_t mcMemcpyDtoH_ptds(void* dst, mcDeviceptr_t src, size_t byteCount);
mcError_t mcMemcpyDtoD_ptds(mcDeviceptr_t dst, mcDeviceptr_t src,
                            size_t byteCount);
mcError_t mcMemcpyToSymbol_ptds(const void* symbol, const void* src,
                                size_t count, size_t offset __MC_DEFAULT(0),
                                mcMemcpyKind kind
                                    __MC_DEFAULT(mcMemcpyHostToDevice));
mcError_t mcMemcpyFromSymbol_ptds(
    void* dst, const void* symbol, size_t count, size_t offset __MC_DEFAULT(0),
    mcMemcpyKind kind __MC_DEFAULT(mcMemcpyDeviceToHost));
mcError_t mcMemcpyPeer_ptds(void* dst, int dstDevice, const void* src,
                            int srcDevice, size_t count);
mcError_t mcMemset_ptds(void* ptr, int value, size_t count);
mcError_t mcMemset2D_ptds(void* ptr, size_t pitch, int value, size_t width,
                          size_t height);
mcError_t mcMemset3D_ptds(mcPitchedPtr pitchedDevPtr, int value,
                          mcExtent extent);
mcError_t mcMemsetD8_ptds(mcDeviceptr_t dst, unsigned char value, size_t count);
mcError_t mcMemsetD16_ptds(mcDeviceptr_t dst, unsigned short value,
                           size_t count);
mcError_t mcMemsetD32_ptds(mcDeviceptr_t dst, unsigned int value, size_t count);

#ifdef __cplusplus
}  // extern "C"
#endif

// --------------------------------------------------------------------------
// The renaming. Object-like macros, so that the name is renamed wherever it
// appears after this point: in calls, in `&mcMemcpyAsync`, and in the C++
// overloads and templates mc_runtime.h declares with the same names (which
// then call the renamed C functions). Kept in the order of the
// declarations above; the runtime's tests check that the two lists agree.
// --------------------------------------------------------------------------

#ifdef MACA_API_PER_THREAD_DEFAULT_STREAM

#define mcStreamDestroy mcStreamDestroy_ptsz
#define mcStreamQuery mcStreamQuery_ptsz
#define mcStreamSynchronize mcStreamSynchronize_ptsz
#define mcStreamWaitEvent mcStreamWaitEvent_ptsz
#define mcStreamGetFlags mcStreamGetFlags_ptsz
#define mcStreamGetPriority mcStreamGetPriority_ptsz
#define mcStreamGetDevice mcStreamGetDevice_ptsz
#define mcStreamSetAttribute mcStreamSetAttribute_ptsz
#define mcStreamGetAttribute mcStreamGetAttribute_ptsz
#define mcStreamCopyAttribute mcStreamCopyAttribute_ptsz
#define mcStreamAttachMemAsync mcStreamAttachMemAsync_ptsz
#define mcStreamAddCallback mcStreamAddCallback_ptsz
#define mcLaunchHostFunc mcLaunchHostFunc_ptsz
#define mcEventRecord mcEventRecord_ptsz
#define mcEventRecordWithFlags mcEventRecordWithFlags_ptsz
#define mcLaunchKernel mcLaunchKernel_ptsz
#define mcLaunchCooperativeKernel mcLaunchCooperativeKernel_ptsz
#define mcModuleLaunchKernel mcModuleLaunchKernel_ptsz
#define mcMemPrefetchAsync mcMemPrefetchAsync_ptsz
#define mcMemPrefetchAsync_v2 mcMemPrefetchAsync_v2_ptsz
#define mcMemcpyAsync mcMemcpyAsync_ptsz
#define mcMemcpy2DAsync mcMemcpy2DAsync_ptsz
#define mcMemcpy3DAsync mcMemcpy3DAsync_ptsz
#define mcMemcpyHtoDAsync mcMemcpyHtoDAsync_ptsz
#define mcMemcpyDtoHAsync mcMemcpyDtoHAsync_ptsz
#define mcMemcpyDtoDAsync mcMemcpyDtoDAsync_ptsz
#define mcMemsetAsync mcMemsetAsync_ptsz
#define mcMemset2DAsync mcMemset2DAsync_ptsz
#define mcMemset3DAsync mcMemset3DAsync_ptsz
#define mcMemsetD8Async mcMemsetD8Async_ptsz
#define mcMemsetD16Async mcMemsetD16Async_ptsz
#define mcMemsetD32Async mcMemsetD32Async_ptsz
#define mcMemcpyToSymbolAsync mcMemcpyToSymbolAsync_ptsz
#define mcMemcpyFromSymbolAsync mcMemcpyFromSymbolAsync_ptsz
#define mcMemcpyPeerAsync mcMemcpyPeerAsync_ptsz
#define mcGraphUpload mcGraphUpload_ptsz
#define mcGraphLaunch mcGraphLaunch_ptsz
#define mcStreamBeginCapture mcStreamBeginCapture_ptsz
#define mcStreamEndCapture mcStreamEndCapture_ptsz
#define mcStreamIsCapturing mcStreamIsCapturing_ptsz
#define mcStreamGetCaptureInfo mcStreamGetCaptureInfo_ptsz
#define mcStreamGetCaptureInfo_v2 mcStreamGetCaptureInfo_v2_ptsz
#define mcStreamUpdateCaptureDependencies mcStreamUpdateCaptureDependencies_ptsz
#define mcMallocAsync mcMallocAsync_ptsz
#define mcMallocFromPoolAsync mcMallocFromPoolAsync_ptsz
#define mcFreeAsync mcFreeAsync_ptsz

#define mcMemcpy mcMemcpy_ptds
#define mcMemcpy2D mcMemcpy2D_ptds
#define mcMemcpy3D mcMemcpy3D_ptds
#define mcMemcpyHtoD mcMemcpyHtoD_ptds
#define mcMemcpyDtoH mcMemcpyDtoH_ptds
#define mcMemcpyDtoD mcMemcpyDtoD_ptds
#define mcMemcpyToSymbol mcMemcpyToSymbol_ptds
#define mcMemcpyFromSymbol mcMemcpyFromSymbol_ptds
#define mcMemcpyPeer mcMemcpyPeer_ptds
#define mcMemset mcMemset_ptds
#define mcMemset2D mcMemset2D_ptds
#define mcMemset3D mcMemset3D_ptds
#define mcMemsetD8 mcMemsetD8_ptds
#define mcMemsetD16 mcMemsetD16_ptds
#define mcMemsetD32 mcMemsetD32_ptds

#endif  // MACA_API_PER_THREAD_DEFAULT_STREAM

#endif  // MCR_DETAIL_RUNTIME_API_PER_THREAD_H_
