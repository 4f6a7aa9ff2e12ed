// Copyright mxcts authors.
//
// Streams and events (docs/spec/api-stream.md, api-event.md) over CUDA's.
// An mcStream_t is the cudaStream_t itself, an mcEvent_t the cudaEvent_t;
// the special handles mcStreamLegacy (1) and mcStreamPerThread (2) have
// CUDA's values, so every handle converts by a cast.

#include <cuda_runtime_api.h>

#include <mutex>
#include <new>
#include <set>

#include "backends/cuda/runtime/adapter.h"
#include "backends/cuda/runtime/environment.h"
#include "backends/cuda/runtime/handles.h"
#include "backends/cuda/runtime/ipc.h"
#include "backends/cuda/runtime/launch_blocking.h"

using mxcts::cuda_backend::Check;
using mxcts::cuda_backend::CompletedIfBlocking;
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

// Creates a stream on the current device with `create` (a CUDA stream
// creation taking the stream's address) and registers it; CUDA is asked
// again while it gives a quarantined address (handles.h).
template <class Create>
mcError_t CreateRegisteredStream(mcStream_t* stream, Create create) {
  int device = 0;
  cudaGetDevice(&device);
  for (int attempt = 0; attempt <= mxcts::cuda_backend::kQuarantine;
       ++attempt) {
    cudaStream_t created = nullptr;
    const mcError_t error = Check(create(&created));
    if (error != mcSuccess) return error;
    if (mxcts::cuda_backend::AddStream(FromCuda(created), device)) {
      *stream = FromCuda(created);
      return mcSuccess;
    }
  }
  // Unreachable: each refusal holds one of kQuarantine addresses.
  return Fail(mcErrorUnknown);
}

// Records an event just created on the current device.
void RegisterEvent(mcEvent_t event) {
  int device = 0;
  cudaGetDevice(&device);
  mxcts::cuda_backend::AddEvent(event, device);
}

// The live events created without timing. MXMACA refuses them in
// mcEventElapsedTime for their flag whether or not their records have
// completed [api.event.elapsed-time.disable-timing-is-invalid-resource-
// handle]; CUDA documents only that it refuses them, and may answer a
// pending record with cudaErrorNotReady first.
class UntimedEvents {
 public:
  static void Note(mcEvent_t event, unsigned int flags) {
    std::lock_guard<std::mutex> lock(mutex());
    if ((flags & mcEventDisableTiming) != 0) {
      events().insert(event);
    } else {
      events().erase(event);
    }
  }
  static void Forget(mcEvent_t event) {
    std::lock_guard<std::mutex> lock(mutex());
    events().erase(event);
  }
  static bool Contains(mcEvent_t event) {
    std::lock_guard<std::mutex> lock(mutex());
    return events().count(event) != 0;
  }

 private:
  static std::mutex& mutex() {
    static auto* m = new std::mutex;
    return *m;
  }
  static std::set<mcEvent_t>& events() {
    static auto* e = new std::set<mcEvent_t>;
    return *e;
  }
};

// An access policy window MXMACA accepts
// [api.stream.attribute.bad-access-policy-is-invalid-value]: a hit ratio in
// [0, 1], properties among the three, and no more bytes than the device's
// largest window.
bool ValidWindow(const mcAccessPolicyWindow& window) {
  if (!(window.hitRatio >= 0.0f && window.hitRatio <= 1.0f)) return false;
  const auto known = [](mcAccessProperty property) {
    const int value = static_cast<int>(property);
    return value >= mcAccessPropertyNormal &&
           value <= mcAccessPropertyPersisting;
  };
  if (!known(window.hitProp) || !known(window.missProp)) return false;
  int device = 0;
  int largest = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&largest, cudaDevAttrMaxAccessPolicyWindowSize,
                             device) != cudaSuccess) {
    return false;
  }
  return window.num_bytes <= static_cast<size_t>(largest);
}

}  // namespace

extern "C" {

// --- Streams. ---

mcError_t mcStreamCreate(mcStream_t* stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (stream == nullptr) return Fail(mcErrorInvalidValue);
  return CreateRegisteredStream(
      stream, [](cudaStream_t* created) { return cudaStreamCreate(created); });
}

mcError_t mcStreamCreateWithFlags(mcStream_t* stream, unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (stream == nullptr) return Fail(mcErrorInvalidValue);
  return CreateRegisteredStream(stream, [flags](cudaStream_t* created) {
    return cudaStreamCreateWithFlags(created, flags);
  });
}

mcError_t mcStreamCreateWithPriority(mcStream_t* stream, unsigned int flags,
                                     int priority) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (stream == nullptr) return Fail(mcErrorInvalidValue);
  return CreateRegisteredStream(
      stream, [flags, priority](cudaStream_t* created) {
        return cudaStreamCreateWithPriority(created, flags, priority);
      });
}

mcError_t mcDeviceGetStreamPriorityRange(int* leastPriority,
                                         int* greatestPriority) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  return Check(
      cudaDeviceGetStreamPriorityRange(leastPriority, greatestPriority));
}

mcError_t mcStreamDestroy(mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // The stream's work still runs; CUDA destroys it now or once it leaves
  // the quarantine (handles.h).
  if (!mxcts::cuda_backend::RetireStream(stream)) {
    return Fail(mcErrorInvalidResourceHandle);
  }
  return mcSuccess;
}

mcError_t mcStreamQuery(mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  cudaError_t error = cudaStreamQuery(ToCuda(stream));
  // A stream outside every capture stays queryable while another captures
  // [api.graph.capture.sync-call-unsupported]; CUDA refuses the query in a
  // thread whose capture mode is global or thread-local, and answers it in
  // the relaxed mode, which the query is then made in.
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
  if (error == cudaErrorStreamCaptureUnsupported &&
      cudaStreamIsCapturing(ToCuda(stream), &status) == cudaSuccess &&
      status == cudaStreamCaptureStatusNone) {
    cudaGetLastError();
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    cudaThreadExchangeStreamCaptureMode(&mode);
    error = cudaStreamQuery(ToCuda(stream));
    cudaThreadExchangeStreamCaptureMode(&mode);
  }
  return Check(error);
}

mcError_t mcStreamSynchronize(mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  return Check(cudaStreamSynchronize(ToCuda(stream)));
}

mcError_t mcStreamWaitEvent(mcStream_t stream, mcEvent_t event,
                            unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  MXCTS_CHECK_EVENT(event);
  // MXMACA defines no wait flags
  // [api.stream.wait-event.nonzero-flags-is-invalid-value]; CUDA's
  // external-wait flag answers mcErrorIllegalState outside a capture.
  if (flags != 0) return Fail(mcErrorInvalidValue);
  const cudaError_t error =
      cudaStreamWaitEvent(ToCuda(stream), ToCuda(event), flags);
  // A capture waiting on another capture's event is an isolation error in
  // MXMACA [api.graph.capture.cross-capture-isolation]; CUDA calls it a
  // merge of the two captures (and invalidates both, as MXMACA does).
  if (error == cudaErrorStreamCaptureMerge) {
    cudaGetLastError();
    return Fail(mcErrorStreamCaptureIsolation);
  }
  return Check(error);
}

mcError_t mcStreamGetFlags(mcStream_t stream, unsigned int* flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (flags == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaStreamGetFlags(ToCuda(stream), flags));
}

mcError_t mcStreamGetPriority(mcStream_t stream, int* priority) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (priority == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaStreamGetPriority(ToCuda(stream), priority));
}

mcError_t mcStreamGetDevice(mcStream_t stream, int* device) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (device == nullptr) return Fail(mcErrorInvalidValue);
  return Check(cudaStreamGetDevice(ToCuda(stream), device));
}

mcError_t mcStreamSetAttribute(mcStream_t stream, mcStreamAttrID attr,
                               const mcStreamAttrValue* value) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (value == nullptr) return Fail(mcErrorInvalidValue);
  mxcts::cuda_backend::StreamAttributes attributes =
      mxcts::cuda_backend::GetStreamAttributes(stream);
  cudaStreamAttrValue cuda = {};
  switch (attr) {
    case mcStreamAttributeAccessPolicyWindow: {
      const mcAccessPolicyWindow& window = value->accessPolicyWindow;
      if (!ValidWindow(window)) return Fail(mcErrorInvalidValue);
      cuda.accessPolicyWindow.base_ptr = window.base_ptr;
      cuda.accessPolicyWindow.num_bytes = window.num_bytes;
      cuda.accessPolicyWindow.hitRatio = window.hitRatio;
      cuda.accessPolicyWindow.hitProp =
          static_cast<cudaAccessProperty>(window.hitProp);
      // CUDA takes no persisting property for misses; the window is a hint,
      // so misses are given the normal property there and the program reads
      // back what it set.
      cuda.accessPolicyWindow.missProp =
          window.missProp == mcAccessPropertyPersisting
              ? cudaAccessPropertyNormal
              : static_cast<cudaAccessProperty>(window.missProp);
      const mcError_t error = Check(cudaStreamSetAttribute(
          ToCuda(stream), cudaStreamAttributeAccessPolicyWindow, &cuda));
      if (error != mcSuccess) return error;
      attributes.window = window;
      break;
    }
    case mcStreamAttributeSynchronizationPolicy: {
      const int policy = static_cast<int>(value->syncPolicy);
      if (policy < mcSyncPolicyAuto || policy > mcSyncPolicyBlockingSync) {
        return Fail(mcErrorInvalidValue);
      }
      cuda.syncPolicy = static_cast<cudaSynchronizationPolicy>(policy);
      const mcError_t error = Check(cudaStreamSetAttribute(
          ToCuda(stream), cudaStreamAttributeSynchronizationPolicy, &cuda));
      if (error != mcSuccess) return error;
      attributes.policy = value->syncPolicy;
      break;
    }
    default:
      return Fail(mcErrorInvalidValue);
  }
  mxcts::cuda_backend::SetStreamAttributes(stream, attributes);
  return mcSuccess;
}

// The adapter answers from its own record of what was set (handles.h).
mcError_t mcStreamGetAttribute(mcStream_t stream, mcStreamAttrID attr,
                               mcStreamAttrValue* value) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (value == nullptr) return Fail(mcErrorInvalidValue);
  const mxcts::cuda_backend::StreamAttributes attributes =
      mxcts::cuda_backend::GetStreamAttributes(stream);
  switch (attr) {
    case mcStreamAttributeAccessPolicyWindow:
      value->accessPolicyWindow = attributes.window;
      return mcSuccess;
    case mcStreamAttributeSynchronizationPolicy:
      value->syncPolicy = attributes.policy;
      return mcSuccess;
  }
  return Fail(mcErrorInvalidValue);
}

mcError_t mcStreamCopyAttribute(mcStream_t dst, mcStream_t src) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(dst);
  MXCTS_CHECK_STREAM(src);
  const mcError_t error =
      Check(cudaStreamCopyAttributes(ToCuda(dst), ToCuda(src)));
  if (error != mcSuccess) return error;
  mxcts::cuda_backend::SetStreamAttributes(
      dst, mxcts::cuda_backend::GetStreamAttributes(src));
  return mcSuccess;
}

mcError_t mcStreamAttachMemAsync(mcStream_t stream, void* devPtr, size_t length,
                                 unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  // Exactly one of the three flags [api.stream.attach-mem.invalid-flags-is-
  // invalid-value] (CUDA crashes on some others), and a single-stream
  // attachment needs a stream of its own
  // [api.stream.attach-mem.single-to-legacy-stream-is-invalid-value].
  if (flags != mcMemAttachGlobal && flags != mcMemAttachHost &&
      flags != mcMemAttachSingle) {
    return Fail(mcErrorInvalidValue);
  }
  if (flags == mcMemAttachSingle &&
      (stream == nullptr || stream == mcStreamLegacy)) {
    return Fail(mcErrorInvalidValue);
  }
  return CompletedIfBlocking(
      Check(cudaStreamAttachMemAsync(ToCuda(stream), devPtr, length, flags)),
      stream);
}

mcError_t mcStreamAddCallback(mcStream_t stream, mcStreamCallback_t callback,
                              void* userData, unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (callback == nullptr) return Fail(mcErrorInvalidValue);
  Callback* data = new (std::nothrow) Callback{callback, userData};
  if (data == nullptr) return Fail(mcErrorMemoryAllocation);
  const mcError_t error =
      Check(cudaStreamAddCallback(ToCuda(stream), RunCallback, data, flags));
  if (error != mcSuccess) delete data;
  return CompletedIfBlocking(error, stream);
}

mcError_t mcLaunchHostFunc(mcStream_t stream, mcHostFn_t fn, void* userData) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  if (fn == nullptr) return Fail(mcErrorInvalidValue);
  return CompletedIfBlocking(
      Check(cudaLaunchHostFunc(ToCuda(stream), fn, userData)), stream);
}

// --- Events. ---

mcError_t mcEventCreate(mcEvent_t* event) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (event == nullptr) return Fail(mcErrorInvalidValue);
  const mcError_t error =
      Check(cudaEventCreate(reinterpret_cast<cudaEvent_t*>(event)));
  if (error == mcSuccess) {
    RegisterEvent(*event);
    UntimedEvents::Note(*event, mcEventDefault);
  }
  return error;
}

mcError_t mcEventCreateWithFlags(mcEvent_t* event, unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  if (event == nullptr) return Fail(mcErrorInvalidValue);
  const mcError_t error = Check(
      cudaEventCreateWithFlags(reinterpret_cast<cudaEvent_t*>(event), flags));
  if (error == mcSuccess) {
    RegisterEvent(*event);
    UntimedEvents::Note(*event, flags);
  }
  return error;
}

mcError_t mcEventRecord(mcEvent_t event, mcStream_t stream) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  MXCTS_CHECK_EVENT(event);
  return Check(cudaEventRecord(ToCuda(event), ToCuda(stream)));
}

mcError_t mcEventRecordWithFlags(mcEvent_t event, mcStream_t stream,
                                 unsigned int flags) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_STREAM(stream);
  MXCTS_CHECK_EVENT(event);
  // mcEventRecordExternal outside a stream capture records as a plain
  // record does [api.event.record-with-flags.external-only-in-capture]; CUDA
  // 13 answers mcErrorIllegalState there, so the adapter drops the flag
  // outside a capture.
  if (flags == mcEventRecordExternal) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    const mcError_t error =
        Check(cudaStreamIsCapturing(ToCuda(stream), &status));
    if (error != mcSuccess) return error;
    if (status == cudaStreamCaptureStatusNone) {
      return Check(cudaEventRecord(ToCuda(event), ToCuda(stream)));
    }
  }
  return Check(cudaEventRecordWithFlags(ToCuda(event), ToCuda(stream), flags));
}

mcError_t mcEventQuery(mcEvent_t event) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_EVENT(event);
  return Check(cudaEventQuery(ToCuda(event)));
}

mcError_t mcEventSynchronize(mcEvent_t event) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  MXCTS_CHECK_EVENT(event);
  const cudaError_t error = cudaEventSynchronize(ToCuda(event));
  // An event recorded in an active stream capture cannot be waited for
  // [api.graph.capture.captured-event-query]: CUDA's query says so, its
  // synchronize calls it an invalid value.
  if (error == cudaErrorInvalidValue &&
      cudaEventQuery(ToCuda(event)) == cudaErrorCapturedEvent) {
    cudaGetLastError();
    return Fail(mcErrorCapturedEvent);
  }
  return Check(error);
}

mcError_t mcEventElapsedTime(float* ms, mcEvent_t start, mcEvent_t end) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // A null output is found before the handles
  // [api.event.elapsed-time.null-output-is-invalid-value].
  if (ms == nullptr) return Fail(mcErrorInvalidValue);
  MXCTS_CHECK_EVENT(start);
  MXCTS_CHECK_EVENT(end);
  const cudaError_t error =
      cudaEventElapsedTime(ms, ToCuda(start), ToCuda(end));
  if (error == cudaErrorNotReady &&
      (UntimedEvents::Contains(start) || UntimedEvents::Contains(end))) {
    return Fail(mcErrorInvalidResourceHandle);
  }
  return Check(error);
}

mcError_t mcEventDestroy(mcEvent_t event) {
  ::mxcts::cuda_backend::ApplyEnvironment();
  // An exported interprocess event goes at once (ipc.h).
  UntimedEvents::Forget(event);
  if (mxcts::cuda_backend::ForgetExportedEvent(event)) {
    return mxcts::cuda_backend::DestroyEventNow(event)
               ? mcSuccess
               : Fail(mcErrorInvalidResourceHandle);
  }
  if (!mxcts::cuda_backend::RetireEvent(event)) {
    return Fail(mcErrorInvalidResourceHandle);
  }
  return mcSuccess;
}

}  // extern "C"
