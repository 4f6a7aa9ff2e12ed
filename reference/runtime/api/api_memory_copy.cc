// Copyright mxcts authors.
//
// The linear copy entry points [api.memory.memcpy]: mcMemcpy and
// mcMemcpyAsync, and the driver-style mcMemcpyHtoD, mcMemcpyDtoH,
// mcMemcpyDtoD and their asynchronous forms.
//
// Each checks its stream (for the synchronous calls 0, the current device's
// legacy default stream, or mcStreamPerThread for their `_ptds` forms, which
// a unit compiled with the per-thread default stream calls), plans the copy
// (memory_copy.h: every argument checked, nothing queued on error) and submits
// it; how long the call then blocks the host is decided by TimingOf, after
// [api.sync.host]. The driver-style calls also require their mcDeviceptr_t
// sides to be device or managed memory
// [api.memory.memcpy-driver.invalid-device-pointer].
//
// Tested by api_memory_test.cc.

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/memory/memory_copy.h"

using mxcts::runtime::CallKind;
using mxcts::runtime::CopyPlan;
using mxcts::runtime::McStatus;
using mxcts::runtime::MemorySpace;
using mxcts::runtime::RunApi;

namespace {

// Which sides of a driver-style copy are mcDeviceptr_t.
enum DeviceSides { kDeviceDst = 1, kDeviceSrc = 2 };

absl::Status CheckDriverSide(const mxcts::runtime::CheckedSide& side,
                             const char* role, const char* api) {
  if (side.space != MemorySpace::kDevice &&
      side.space != MemorySpace::kManaged) {
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat("%s: the %s %p is %s, not device or "
                        "managed memory",
                        api, role, side.ptr,
                        mxcts::runtime::MemorySpaceName(side.space)));
  }
  return absl::OkStatus();
}

absl::Status Copy(void* dst, const void* src, size_t count, int kind,
                  mcStream_t stream, CallKind call, int device_sides,
                  const char* api) {
  // [api.memory.memcpy-async.invalid-stream]
  // [api.memory.memcpy-async.any-device-stream]
  // [api.memory.memcpy-driver.invalid-stream]
  MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
  // [api.memory.memcpy-async.argument-errors]
  MX_ASSIGN_OR_RETURN(CopyPlan plan, mxcts::runtime::PlanLinearCopy(
                                         dst, src, count, kind, api));
  if (!plan.box.empty()) {
    // [api.memory.memcpy-driver.invalid-device-pointer]
    if ((device_sides & kDeviceDst) != 0) {
      MX_RETURN_IF_ERROR(CheckDriverSide(plan.dst, "destination", api));
    }
    if ((device_sides & kDeviceSrc) != 0) {
      MX_RETURN_IF_ERROR(CheckDriverSide(plan.src, "source", api));
    }
  }
  if (call == CallKind::kAsynchronous) {
    // [api.graph.capture.records-instead-of-executing]
    MX_ASSIGN_OR_RETURN(
        bool captured, mxcts::runtime::CaptureIfCapturing(stream, [&] {
          return mxcts::runtime::NodeParams::Memcpy1D(dst, src, count, kind);
        }));
    if (captured) return absl::OkStatus();
  }
  // [api.memory.memcpy.copies-bytes] [api.memory.memcpy.default-stream-ordered]
  // [api.memory.memcpy-async.stream-ordered]
  return mxcts::runtime::SubmitCopy(plan, stream, call, api);
}

// The synchronous copies, in `default_stream`: 0 (the legacy default
// stream) for the plain calls, mcStreamPerThread for their `_ptds` forms.
// [api.sync.per-thread.renamed-entry-points]
mcError_t Memcpy(mcStream_t default_stream, void* dst, const void* src,
                 size_t count, mcMemcpyKind kind) {
  return RunApi(
      [&] {
        return Copy(dst, src, count, kind, default_stream,
                    CallKind::kSynchronous, 0, "mcMemcpy");
      },
      "mcMemcpy");
}

mcError_t MemcpyHtoD(mcStream_t default_stream, mcDeviceptr_t dst,
                     const void* src, size_t byteCount) {
  return RunApi(
      [&] {  // [api.memory.memcpy-htod.copies]
        return Copy(dst, src, byteCount, mcMemcpyHostToDevice, default_stream,
                    CallKind::kSynchronous, kDeviceDst, "mcMemcpyHtoD");
      },
      "mcMemcpyHtoD");
}

mcError_t MemcpyDtoH(mcStream_t default_stream, void* dst, mcDeviceptr_t src,
                     size_t byteCount) {
  return RunApi(
      [&] {  // [api.memory.memcpy-dtoh.copies]
        return Copy(dst, src, byteCount, mcMemcpyDeviceToHost, default_stream,
                    CallKind::kSynchronous, kDeviceSrc, "mcMemcpyDtoH");
      },
      "mcMemcpyDtoH");
}

mcError_t MemcpyDtoD(mcStream_t default_stream, mcDeviceptr_t dst,
                     mcDeviceptr_t src, size_t byteCount) {
  return RunApi(
      [&] {  // [api.memory.memcpy-dtod.copies]
        return Copy(dst, src, byteCount, mcMemcpyDeviceToDevice, default_stream,
                    CallKind::kSynchronous, kDeviceDst | kDeviceSrc,
                    "mcMemcpyDtoD");
      },
      "mcMemcpyDtoD");
}

}  // namespace

extern "C" {

mcError_t mcMemcpy(void* dst, const void* src, size_t count,
                   mcMemcpyKind kind) {
  return Memcpy(nullptr, dst, src, count, kind);
}

mcError_t mcMemcpy_ptds(void* dst, const void* src, size_t count,
                        mcMemcpyKind kind) {
  return Memcpy(mcStreamPerThread, dst, src, count, kind);
}

mcError_t mcMemcpyAsync(void* dst, const void* src, size_t count,
                        mcMemcpyKind kind, mcStream_t stream) {
  return RunApi([&] {
    return Copy(dst, src, count, kind, stream, CallKind::kAsynchronous, 0,
                "mcMemcpyAsync");
  });
}

mcError_t mcMemcpyHtoD(mcDeviceptr_t dst, const void* src, size_t byteCount) {
  return MemcpyHtoD(nullptr, dst, src, byteCount);
}

mcError_t mcMemcpyHtoD_ptds(mcDeviceptr_t dst, const void* src,
                            size_t byteCount) {
  return MemcpyHtoD(mcStreamPerThread, dst, src, byteCount);
}

mcError_t mcMemcpyDtoH(void* dst, mcDeviceptr_t src, size_t byteCount) {
  return MemcpyDtoH(nullptr, dst, src, byteCount);
}

mcError_t mcMemcpyDtoH_ptds(void* dst, mcDeviceptr_t src, size_t byteCount) {
  return MemcpyDtoH(mcStreamPerThread, dst, src, byteCount);
}

mcError_t mcMemcpyDtoD(mcDeviceptr_t dst, mcDeviceptr_t src, size_t byteCount) {
  return MemcpyDtoD(nullptr, dst, src, byteCount);
}

mcError_t mcMemcpyDtoD_ptds(mcDeviceptr_t dst, mcDeviceptr_t src,
                            size_t byteCount) {
  return MemcpyDtoD(mcStreamPerThread, dst, src, byteCount);
}

// [api.memory.memcpy-driver.async-forms]
mcError_t mcMemcpyHtoDAsync(mcDeviceptr_t dst, const void* src,
                            size_t byteCount, mcStream_t stream) {
  return RunApi([&] {
    return Copy(dst, src, byteCount, mcMemcpyHostToDevice, stream,
                CallKind::kAsynchronous, kDeviceDst, "mcMemcpyHtoDAsync");
  });
}

mcError_t mcMemcpyDtoHAsync(void* dst, mcDeviceptr_t src, size_t byteCount,
                            mcStream_t stream) {
  return RunApi([&] {
    return Copy(dst, src, byteCount, mcMemcpyDeviceToHost, stream,
                CallKind::kAsynchronous, kDeviceSrc, "mcMemcpyDtoHAsync");
  });
}

mcError_t mcMemcpyDtoDAsync(mcDeviceptr_t dst, mcDeviceptr_t src,
                            size_t byteCount, mcStream_t stream) {
  return RunApi([&] {
    return Copy(dst, src, byteCount, mcMemcpyDeviceToDevice, stream,
                CallKind::kAsynchronous, kDeviceDst | kDeviceSrc,
                "mcMemcpyDtoDAsync");
  });
}

}  // extern "C"
