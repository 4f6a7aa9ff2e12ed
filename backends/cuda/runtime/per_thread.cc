// Copyright mxcts authors.
//
// The `_ptds` entry points a unit compiled with the per-thread default
// stream calls (reference/include/mcr/detail/runtime_api_per_thread.h):
// each orders its work in the calling thread's per-thread default stream
// instead of the legacy one. The `_ptsz` forms, plain forwards over the
// MXMACA API, are the reference's too: runtime_common/per_thread_forwards.cc,
// compiled into this library.
//
// A `_ptds` form is the asynchronous form of its call in mcStreamPerThread.
// The copies then wait for that stream, as the copies without the suffix
// return only once the copy is done; the memory sets do not, as the sets
// without the suffix may return before the device has written.
// [api.sync.per-thread.renamed-entry-points]

#include "backends/cuda/include/mc_runtime_api.h"

namespace {

// The per-thread stream's result after `submitted`, for the copies that
// return once the copy is done.
mcError_t WaitedFor(mcError_t submitted) {
  if (submitted != mcSuccess) return submitted;
  return mcStreamSynchronize(mcStreamPerThread);
}

}  // namespace

extern "C" {

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
