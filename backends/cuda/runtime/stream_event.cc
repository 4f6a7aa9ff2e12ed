// Copyright mxcts authors.
//
// Streams and events (docs/spec/api-stream.md, api-event.md) over CUDA's.
// An mcStream_t is the cudaStream_t itself, an mcEvent_t the cudaEvent_t;
// the special handles mcStreamLegacy (1) and mcStreamPerThread (2) have
// CUDA's values, so every handle converts by a cast.

#include <cuda_runtime_api.h>

#include <new>

#include "backends/cuda/runtime/adapter.h"

using mxcts::cuda_backend::Check;
using mxcts::cuda_backend::Fail;
using mxcts::cuda_backend::FromCuda;
using mxcts::cuda_backend::ToCuda;

namespace {

// A stream callback with MXMACA's signature, called through CUDA's.
struct Callback {
  mcStreamCallback_t function;
  void* user_data;
};

void CUDART_CB RunCallback(cudaStream_t stream, cudaError_t status,
                           void* data) {
  Callback* callback = static_cast<Callback*>(data);
  callback->function(FromCuda(stream), FromCuda(status), callback->user_data);
  delete callback;
}

}  // namespace

extern "C" {

// --- Streams. ---

mcError_t mcStreamCreate(mcStream_t* stream) {
  if (stream == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaStreamCreate(reinterpret_cast<cudaStream_t*>(stream)));
}

mcError_t mcStreamCreateWithFlags(mcStream_t* stream, unsigned int flags) {
  if (stream == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaStreamCreateWithFlags(
      reinterpret_cast<cudaStream_t*>(stream), flags));
}

mcError_t mcStreamCreateWithPriority(mcStream_t* stream, unsigned int flags,
                                     int priority) {
  if (stream == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaStreamCreateWithPriority(
      reinterpret_cast<cudaStream_t*>(stream), flags, priority));
}

mcError_t mcDeviceGetStreamPriorityRange(int* leastPriority,
                                         int* greatestPriority) {
  return Check(
      cudaDeviceGetStreamPriorityRange(leastPriority, greatestPriority));
}

mcError_t mcStreamDestroy(mcStream_t stream) {
  return Check(cudaStreamDestroy(ToCuda(stream)));
}

mcError_t mcStreamQuery(mcStream_t stream) {
  return Check(cudaStreamQuery(ToCuda(stream)));
}

mcError_t mcStreamSynchronize(mcStream_t stream) {
  return Check(cudaStreamSynchronize(ToCuda(stream)));
}

mcError_t mcStreamWaitEvent(mcStream_t stream, mcEvent_t event,
                            unsigned int flags) {
  return Check(cudaStreamWaitEvent(ToCuda(stream), ToCuda(event), flags));
}

mcError_t mcStreamGetFlags(mcStream_t stream, unsigned int* flags) {
  if (flags == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaStreamGetFlags(ToCuda(stream), flags));
}

mcError_t mcStreamGetPriority(mcStream_t stream, int* priority) {
  if (priority == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaStreamGetPriority(ToCuda(stream), priority));
}

mcError_t mcStreamGetDevice(mcStream_t stream, int* device) {
  if (device == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaStreamGetDevice(ToCuda(stream), device));
}

mcError_t mcStreamSetAttribute(mcStream_t stream, mcStreamAttrID attr,
                               const mcStreamAttrValue* value) {
  if (value == nullptr) return Fail(mcErrorInvalidValue);
  cudaStreamAttrValue cuda = {};
  switch (attr) {
    case mcStreamAttributeAccessPolicyWindow:
      cuda.accessPolicyWindow.base_ptr = value->accessPolicyWindow.base_ptr;
      cuda.accessPolicyWindow.num_bytes = value->accessPolicyWindow.num_bytes;
      cuda.accessPolicyWindow.hitRatio = value->accessPolicyWindow.hitRatio;
      cuda.accessPolicyWindow.hitProp =
          static_cast<cudaAccessProperty>(value->accessPolicyWindow.hitProp);
      cuda.accessPolicyWindow.missProp =
          static_cast<cudaAccessProperty>(value->accessPolicyWindow.missProp);
      return Check(cudaStreamSetAttribute(
          ToCuda(stream), cudaStreamAttributeAccessPolicyWindow, &cuda));
    case mcStreamAttributeSynchronizationPolicy:
      cuda.syncPolicy =
          static_cast<cudaSynchronizationPolicy>(value->syncPolicy);
      return Check(cudaStreamSetAttribute(
          ToCuda(stream), cudaStreamAttributeSynchronizationPolicy, &cuda));
  }
  return Fail(mcErrorInvalidValue);
}

mcError_t mcStreamGetAttribute(mcStream_t stream, mcStreamAttrID attr,
                               mcStreamAttrValue* value) {
  if (value == nullptr) return Fail(mcErrorInvalidValue);
  cudaStreamAttrValue cuda = {};
  mcError_t error;
  switch (attr) {
    case mcStreamAttributeAccessPolicyWindow:
      error = Check(cudaStreamGetAttribute(
          ToCuda(stream), cudaStreamAttributeAccessPolicyWindow, &cuda));
      if (error != mcSuccess) return error;
      value->accessPolicyWindow.base_ptr = cuda.accessPolicyWindow.base_ptr;
      value->accessPolicyWindow.num_bytes = cuda.accessPolicyWindow.num_bytes;
      value->accessPolicyWindow.hitRatio = cuda.accessPolicyWindow.hitRatio;
      value->accessPolicyWindow.hitProp =
          static_cast<mcAccessProperty>(cuda.accessPolicyWindow.hitProp);
      value->accessPolicyWindow.missProp =
          static_cast<mcAccessProperty>(cuda.accessPolicyWindow.missProp);
      return mcSuccess;
    case mcStreamAttributeSynchronizationPolicy:
      error = Check(cudaStreamGetAttribute(
          ToCuda(stream), cudaStreamAttributeSynchronizationPolicy, &cuda));
      if (error != mcSuccess) return error;
      value->syncPolicy = static_cast<mcSynchronizationPolicy>(cuda.syncPolicy);
      return mcSuccess;
  }
  return Fail(mcErrorInvalidValue);
}

mcError_t mcStreamCopyAttribute(mcStream_t dst, mcStream_t src) {
  return Check(cudaStreamCopyAttributes(ToCuda(dst), ToCuda(src)));
}

mcError_t mcStreamAttachMemAsync(mcStream_t stream, void* devPtr, size_t length,
                                 unsigned int flags) {
  return Check(cudaStreamAttachMemAsync(ToCuda(stream), devPtr, length, flags));
}

mcError_t mcStreamAddCallback(mcStream_t stream, mcStreamCallback_t callback,
                              void* userData, unsigned int flags) {
  if (callback == nullptr) return Fail(mcErrorInvalidValue);
  Callback* data = new (std::nothrow) Callback{callback, userData};
  if (data == nullptr) return Fail(mcErrorMemoryAllocation);
  const mcError_t error =
      Check(cudaStreamAddCallback(ToCuda(stream), RunCallback, data, flags));
  if (error != mcSuccess) delete data;
  return error;
}

mcError_t mcLaunchHostFunc(mcStream_t stream, mcHostFn_t fn, void* userData) {
  if (fn == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaLaunchHostFunc(ToCuda(stream), fn, userData));
}

// --- Events. ---

mcError_t mcEventCreate(mcEvent_t* event) {
  if (event == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaEventCreate(reinterpret_cast<cudaEvent_t*>(event)));
}

mcError_t mcEventCreateWithFlags(mcEvent_t* event, unsigned int flags) {
  if (event == nullptr) return Fail(mcErrorInvalidValue);
  return Check(
      cudaEventCreateWithFlags(reinterpret_cast<cudaEvent_t*>(event), flags));
}

mcError_t mcEventRecord(mcEvent_t event, mcStream_t stream) {
  return Check(cudaEventRecord(ToCuda(event), ToCuda(stream)));
}

mcError_t mcEventRecordWithFlags(mcEvent_t event, mcStream_t stream,
                                 unsigned int flags) {
  return Check(cudaEventRecordWithFlags(ToCuda(event), ToCuda(stream), flags));
}

mcError_t mcEventQuery(mcEvent_t event) {
  return Check(cudaEventQuery(ToCuda(event)));
}

mcError_t mcEventSynchronize(mcEvent_t event) {
  return Check(cudaEventSynchronize(ToCuda(event)));
}

mcError_t mcEventElapsedTime(float* ms, mcEvent_t start, mcEvent_t end) {
  return Check(cudaEventElapsedTime(ms, ToCuda(start), ToCuda(end)));
}

mcError_t mcEventDestroy(mcEvent_t event) {
  return Check(cudaEventDestroy(ToCuda(event)));
}

}  // extern "C"
