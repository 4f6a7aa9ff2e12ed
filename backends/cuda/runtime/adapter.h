// Copyright mxcts authors.
//
// What every part of the CUDA backend's runtime shares: the conversion of
// CUDA's results to mcError_t, the adapter's own record of the last error,
// and the casts between MXMACA's and CUDA's handles.
//
// The last error. CUDA keeps a last error per host thread, set by its
// failing calls; the adapter also fails calls itself, before CUDA sees them
// (a check MXMACA makes and CUDA does not). Those failures are recorded in
// the adapter's own per-thread slot, and mcGetLastError / mcPeekAtLastError
// report the adapter's record first, then CUDA's.

#ifndef MXCTS_BACKENDS_CUDA_RUNTIME_ADAPTER_H_
#define MXCTS_BACKENDS_CUDA_RUNTIME_ADAPTER_H_

#include <cuda_runtime_api.h>

#include "backends/cuda/include/mc_runtime_api.h"

namespace mxcts::cuda_backend {

// The MXMACA code of a CUDA result. Total over cudaError_t: a CUDA code
// MXMACA has no enumerator for maps to the nearest MXMACA meaning.
mcError_t FromCuda(cudaError_t error);

// The CUDA code whose meaning `error` has, for CUDA's descriptions; false
// when `error` is MXMACA's alone.
bool ToCuda(mcError_t error, cudaError_t* cuda);

// Records `error` (unless mcSuccess) as the calling thread's last error,
// for a failure CUDA did not see, and returns it.
mcError_t Fail(mcError_t error);

// The result of a CUDA call, as an mcError_t, recorded as the thread's last
// error in place of CUDA's own record: mcGetLastError then returns exactly
// the code the failing call returned, although CUDA sometimes records
// another code than it returns. mcErrorNotReady is no error to record
// [api.error.last.not-ready-not-recorded].
inline mcError_t Check(cudaError_t error) {
  if (error == cudaSuccess || error == cudaErrorNotReady) {
    return FromCuda(error);
  }
  cudaGetLastError();
  return Fail(FromCuda(error));
}

// The sticky device fault the process has seen (mcSuccess if none), and
// its end at mcDeviceReset (errors.cc).
mcError_t StickyFault();
void ClearStickyFault();

// The adapter's recorded error of this thread; `reset` clears it.
mcError_t TakeRecordedError(bool reset);

inline cudaStream_t ToCuda(mcStream_t stream) {
  return reinterpret_cast<cudaStream_t>(stream);
}
inline cudaEvent_t ToCuda(mcEvent_t event) {
  return reinterpret_cast<cudaEvent_t>(event);
}
inline mcStream_t FromCuda(cudaStream_t stream) {
  return reinterpret_cast<mcStream_t>(stream);
}
inline mcEvent_t FromCuda(cudaEvent_t event) {
  return reinterpret_cast<mcEvent_t>(event);
}

// MXMACA's pitched pointers, extents and positions have CUDA's fields.
inline cudaPitchedPtr ToCuda(const mcPitchedPtr& p) {
  cudaPitchedPtr cuda;
  cuda.ptr = p.ptr;
  cuda.pitch = p.pitch;
  cuda.xsize = p.xsize;
  cuda.ysize = p.ysize;
  return cuda;
}
inline cudaExtent ToCuda(const mcExtent& e) {
  cudaExtent cuda;
  cuda.width = e.width;
  cuda.height = e.height;
  cuda.depth = e.depth;
  return cuda;
}
inline cudaPos ToCuda(const mcPos& p) {
  cudaPos cuda;
  cuda.x = p.x;
  cuda.y = p.y;
  cuda.z = p.z;
  return cuda;
}

// MXMACA's enumerations of copy kinds, limits, attributes, cache and
// shared-memory configurations carry CUDA's values (mc_runtime_types.h says
// so for each), so they convert by value.
template <class CudaEnum, class McEnum>
inline CudaEnum SameValue(McEnum value) {
  return static_cast<CudaEnum>(static_cast<int>(value));
}

// The CUDA form of a 3D copy between linear memory: positions, pointers,
// extent and kind. The arrays are not converted; the adapter creates none,
// so its callers refuse copies that name one before they convert.
inline cudaMemcpy3DParms ToCudaLinearCopy(const mcMemcpy3DParms& p) {
  cudaMemcpy3DParms cuda{};
  cuda.srcPos = ToCuda(p.srcPos);
  cuda.srcPtr = ToCuda(p.srcPtr);
  cuda.dstPos = ToCuda(p.dstPos);
  cuda.dstPtr = ToCuda(p.dstPtr);
  cuda.extent = ToCuda(p.extent);
  cuda.kind = SameValue<cudaMemcpyKind>(p.kind);
  return cuda;
}

}  // namespace mxcts::cuda_backend

#endif  // MXCTS_BACKENDS_CUDA_RUNTIME_ADAPTER_H_
