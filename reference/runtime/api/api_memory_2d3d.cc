// Copyright mxcts authors.
//
// Pitched memory [api.memory.malloc-pitch] [api.memory.malloc-3d]
// [api.memory.memcpy-2d] [api.memory.memcpy-3d] [api.memory.memset-2d]
// [api.memory.memset-3d]: the allocations whose rows are padded to a pitch,
// and the copies and sets of 2D and 3D boxes.
//
// Rows are padded to kPitchGranularity bytes, the allocation alignment, so
// every row starts as aligned as the allocation itself
// [api.memory.malloc-pitch.row-alignment]. The shape rules (pitches, the
// box inside its slices) are checked here; what remains is a box with row
// and slice pitches on each side, which memory_copy.h checks against the
// allocations and queues like any copy or set. The `_ptds` forms of the
// synchronous copies and sets queue in the calling thread's per-thread
// default stream where the plain calls queue in the legacy one.
//
// Tested by api_memory_test.cc.

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/devices/device_config.h"
#include "reference/runtime/environment/memory_tracing.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/memory/memory_copy.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/process/runtime.h"

using mxcts::runtime::CallKind;
using mxcts::runtime::CaptureIfCapturing;
using mxcts::runtime::CopyPlan;
using mxcts::runtime::Device;
using mxcts::runtime::McStatus;
using mxcts::runtime::MemoryBox;
using mxcts::runtime::MemoryManager;
using mxcts::runtime::NodeParams;
using mxcts::runtime::RunApi;
using mxcts::runtime::Runtime;
using mxcts::runtime::SetPlan;

namespace {

// [api.memory.malloc-pitch.row-alignment]
constexpr size_t kPitchGranularity =
    mxcts::runtime::config::kAllocationAlignment;
static_assert(kPitchGranularity >= 32 &&
                  (kPitchGranularity & (kPitchGranularity - 1)) == 0,
              "the pitch granularity is a power of two of at least 32 bytes");

bool IsMemcpyKind(int kind) {
  return kind >= mcMemcpyHostToHost && kind <= mcMemcpyDefault;
}

absl::Status InvalidKind(int kind, const char* api) {
  return McStatus(mcErrorInvalidMemcpyDirection,
                  absl::StrFormat("%s: %d is not an mcMemcpyKind", api, kind));
}

// Allocates `depth` slices of `height` rows of `width` bytes, rows padded;
// stores the pitch, and the base (NULL for an empty extent).
absl::Status AllocatePitched(size_t width, size_t height, size_t depth,
                             void** ptr, size_t* pitch, const char* api) {
  MX_ASSIGN_OR_RETURN(Device * device, Runtime::Get().CurrentDeviceForWork());
  size_t padded = 0;
  size_t bytes = 0;
  if (__builtin_add_overflow(width, kPitchGranularity - 1, &padded) ||
      __builtin_mul_overflow(padded / kPitchGranularity * kPitchGranularity,
                             height, &bytes) ||
      __builtin_mul_overflow(bytes, depth, &bytes)) {
    // [api.memory.malloc-pitch.out-of-memory]
    // [api.memory.malloc-3d.out-of-memory]
    return McStatus(mcErrorMemoryAllocation,
                    absl::StrFormat("%s: %u x %u x %u bytes do not fit in "
                                    "memory",
                                    api, width, height, depth));
  }
  const size_t row_pitch = padded / kPitchGranularity * kPitchGranularity;
  if (bytes == 0) {  // [api.memory.malloc-pitch.zero-extent]
    *ptr = nullptr;
    *pitch = row_pitch;
    return absl::OkStatus();
  }
  MX_ASSIGN_OR_RETURN(void* base, MemoryManager::Get().AllocateDevice(
                                      device->ordinal(), bytes,
                                      device->properties().totalGlobalMem));
  *ptr = base;
  *pitch = row_pitch;
  return absl::OkStatus();
}

absl::Status Copy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                    size_t width, size_t height, int kind, mcStream_t stream,
                    CallKind call, const char* api) {
  // [api.memory.memcpy-2d-async.invalid-stream]
  MX_ASSIGN_OR_RETURN(Device * device,
                      mxcts::runtime::StreamDeviceForWork(stream));
  // The order of the checks is CUDA's: an empty copy succeeds whatever its
  // kind, a pitch less than the width comes before the kind, and the kind
  // before the pitch's maximum and the pointers.
  // [api.memory.memcpy-2d.zero-extent]
  if (width == 0 || height == 0) return absl::OkStatus();
  if (dpitch < width || spitch < width) {
    // [api.memory.memcpy-2d.pitch-less-than-width]
    return McStatus(mcErrorInvalidPitchValue,
                    absl::StrFormat("%s: %s %u is less than the width %u", api,
                                    dpitch < width ? "dpitch" : "spitch",
                                    dpitch < width ? dpitch : spitch, width));
  }
  // [api.memory.memcpy-2d.invalid-kind]
  if (!IsMemcpyKind(kind)) return InvalidKind(kind, api);
  const size_t max_pitch = device->properties().memPitch;
  if (dpitch > max_pitch || spitch > max_pitch) {
    // [api.memory.memcpy-2d.pitch-exceeds-maximum]
    return McStatus(
        mcErrorInvalidPitchValue,
        absl::StrFormat("%s: %s %u exceeds memPitch %u", api,
                        dpitch > max_pitch ? "dpitch" : "spitch",
                        dpitch > max_pitch ? dpitch : spitch, max_pitch));
  }
  MemoryBox box;
  box.width = width;
  box.height = height;
  // [api.memory.memcpy-2d.past-end-of-allocation]
  MX_ASSIGN_OR_RETURN(
      CopyPlan plan,
      mxcts::runtime::PlanCopy(dst, dpitch, 0, src, spitch, 0, box, kind, api));
  if (call == CallKind::kAsynchronous) {
    mcMemcpy3DParms params{};
    params.srcPtr =
        make_mcPitchedPtr(const_cast<void*>(src), spitch, width, height);
    params.dstPtr = make_mcPitchedPtr(dst, dpitch, width, height);
    params.extent = make_mcExtent(width, height, 1);
    params.kind = static_cast<mcMemcpyKind>(kind);
    MX_ASSIGN_OR_RETURN(bool captured, CaptureIfCapturing(stream, [&] {
                          return NodeParams::Memcpy(&params);
                        }));
    if (captured) return absl::OkStatus();
  }
  // [api.memory.memcpy-2d.copies-rows]
  // [api.memory.memcpy-2d.synchronization-as-memcpy]
  return mxcts::runtime::SubmitCopy(plan, stream, call, api);
}

absl::Status Copy3D(const mcMemcpy3DParms* p, mcStream_t stream, CallKind call,
                    const char* api) {
  if (p == nullptr) {  // [api.memory.memcpy-3d.null-params]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: the parameters are null", api));
  }
  // [api.memory.memcpy-3d-async.invalid-stream]
  MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
  MX_ASSIGN_OR_RETURN(CopyPlan plan, mxcts::runtime::PlanCopy3D(*p, api));
  if (call == CallKind::kAsynchronous) {
    MX_ASSIGN_OR_RETURN(bool captured, CaptureIfCapturing(stream, [&] {
                          return NodeParams::Memcpy(p);
                        }));
    if (captured) return absl::OkStatus();
  }
  // [api.memory.memcpy-3d.copies-box]
  // [api.memory.memcpy-3d.untouched-outside-box]
  // [api.memory.memcpy-3d.async-stream-ordered]
  return mxcts::runtime::SubmitCopy(plan, stream, call, api);
}

absl::Status Set2D(void* ptr, size_t pitch, int value, size_t width,
                   size_t height, mcStream_t stream, CallKind call,
                   const char* api) {
  // [api.memory.memset-async.invalid-stream]
  MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
  if (width == 0 || height == 0) return absl::OkStatus();
  if (pitch < width && height > 1) {
    // [api.memory.memset-2d.pitch-less-than-width]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: pitch %u is less than the width %u",
                                    api, pitch, width));
  }
  MemoryBox box;
  box.width = width;
  box.height = height;
  // [api.memory.memset-2d.not-device-memory]
  MX_ASSIGN_OR_RETURN(
      SetPlan plan,
      mxcts::runtime::PlanSet(ptr, pitch, 0, box,
                              static_cast<unsigned char>(value), 1, api));
  if (call == CallKind::kAsynchronous) {
    const mcMemsetParams params{ptr, pitch, static_cast<unsigned char>(value),
                                1,   width, height};
    MX_ASSIGN_OR_RETURN(bool captured, CaptureIfCapturing(stream, [&] {
                          return NodeParams::Memset(&params);
                        }));
    if (captured) return absl::OkStatus();
  }
  // [api.memory.memset-2d.sets-rows]
  return mxcts::runtime::SubmitSet(plan, stream, call, api);
}

absl::Status Set3D(const mcPitchedPtr& pp, int value, const mcExtent& extent,
                   mcStream_t stream, CallKind call, const char* api) {
  MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
  MemoryBox box;
  box.width = extent.width;
  box.height = extent.height;
  box.depth = extent.depth;
  if (box.empty())
    return absl::OkStatus();      // [api.memory.memset-3d.zero-extent]
  if (extent.width > pp.pitch) {  // [api.memory.memset-3d.width-exceeds-pitch]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: width %u exceeds the pitch %u", api,
                                    extent.width, pp.pitch));
  }
  if (extent.depth > 1 && extent.height > pp.ysize) {
    // [api.memory.memset-3d.height-exceeds-ysize]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: height %u exceeds the ysize %u", api,
                                    extent.height, pp.ysize));
  }
  size_t slice_pitch = 0;
  if (__builtin_mul_overflow(pp.pitch, pp.ysize, &slice_pitch)) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: pitch x ysize overflows", api));
  }
  // [api.memory.memset-3d.not-device-memory]
  MX_ASSIGN_OR_RETURN(
      SetPlan plan,
      mxcts::runtime::PlanSet(pp.ptr, pp.pitch, slice_pitch, box,
                              static_cast<unsigned char>(value), 1, api));
  if (call == CallKind::kAsynchronous && extent.depth == 1) {
    // A set of one slice is a memset node; a deeper one cannot be
    // captured (SubmitWork's capture check refuses it).
    const mcMemsetParams params{
        pp.ptr, pp.pitch,     static_cast<unsigned char>(value),
        1,      extent.width, extent.height};
    MX_ASSIGN_OR_RETURN(bool captured, CaptureIfCapturing(stream, [&] {
                          return NodeParams::Memset(&params);
                        }));
    if (captured) return absl::OkStatus();
  }
  // [api.memory.memset-3d.sets-box]
  return mxcts::runtime::SubmitSet(plan, stream, call, api);
}

}  // namespace

extern "C" {

mcError_t mcMallocPitch(void** devPtr, size_t* pitch, size_t width,
                        size_t height) {
  const mcError_t result = RunApi([&]() -> absl::Status {
    if (devPtr == nullptr || pitch == nullptr) {
      // [api.memory.malloc-pitch.null-arguments]
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("mcMallocPitch: %s is null",
                                      devPtr == nullptr ? "devPtr" : "pitch"));
    }
    // [api.memory.malloc-pitch.pitch-at-least-width]
    // [api.memory.malloc-pitch.rows-usable]
    return AllocatePitched(width, height, 1, devPtr, pitch, "mcMallocPitch");
  });
  // [api.env.hotspot-memstack.reference-trace]
  mxcts::runtime::TraceMemoryCall(
      "mcMallocPitch", result,
      result == mcSuccess && devPtr != nullptr ? *devPtr : nullptr,
      (result == mcSuccess && pitch != nullptr ? *pitch : width) * height,
      __builtin_return_address(0));
  return result;
}

mcError_t mcMalloc3D(mcPitchedPtr* pitchedDevPtr, mcExtent extent) {
  const mcError_t result = RunApi([&]() -> absl::Status {
    if (pitchedDevPtr == nullptr) {  // [api.memory.malloc-3d.null-pointer]
      return McStatus(mcErrorInvalidValue, "mcMalloc3D: pitchedDevPtr is null");
    }
    mcPitchedPtr result =
        make_mcPitchedPtr(nullptr, 0, extent.width, extent.height);
    // [api.memory.malloc-3d.allocates] [api.memory.malloc-3d.slice-layout]
    MX_RETURN_IF_ERROR(AllocatePitched(extent.width, extent.height,
                                       extent.depth, &result.ptr, &result.pitch,
                                       "mcMalloc3D"));
    *pitchedDevPtr = result;
    return absl::OkStatus();
  });
  // [api.env.hotspot-memstack.reference-trace]
  mxcts::runtime::TraceMemoryCall(
      "mcMalloc3D", result,
      result == mcSuccess && pitchedDevPtr != nullptr ? pitchedDevPtr->ptr
                                                      : nullptr,
      (result == mcSuccess && pitchedDevPtr != nullptr ? pitchedDevPtr->pitch
                                                       : extent.width) *
          extent.height * extent.depth,
      __builtin_return_address(0));
  return result;
}

mcError_t mcMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                     size_t width, size_t height, mcMemcpyKind kind) {
  return RunApi([&] {
    return Copy2D(dst, dpitch, src, spitch, width, height, kind, nullptr,
                  CallKind::kSynchronous, "mcMemcpy2D");
  });
}

// [api.sync.per-thread.renamed-entry-points]
mcError_t mcMemcpy2D_ptds(void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t height,
                          mcMemcpyKind kind) {
  return RunApi([&] {
    return Copy2D(dst, dpitch, src, spitch, width, height, kind,
                  mcStreamPerThread, CallKind::kSynchronous, "mcMemcpy2D");
  });
}

mcError_t mcMemcpy2DAsync(void* dst, size_t dpitch, const void* src,
                          size_t spitch, size_t width, size_t height,
                          mcMemcpyKind kind, mcStream_t stream) {
  return RunApi([&] {
    return Copy2D(dst, dpitch, src, spitch, width, height, kind, stream,
                  CallKind::kAsynchronous, "mcMemcpy2DAsync");
  });
}

mcError_t mcMemcpy3D(const mcMemcpy3DParms* p) {
  return RunApi(
      [&] { return Copy3D(p, nullptr, CallKind::kSynchronous, "mcMemcpy3D"); });
}

mcError_t mcMemcpy3D_ptds(const mcMemcpy3DParms* p) {
  return RunApi([&] {
    return Copy3D(p, mcStreamPerThread, CallKind::kSynchronous, "mcMemcpy3D");
  });
}

mcError_t mcMemcpy3DAsync(const mcMemcpy3DParms* p, mcStream_t stream) {
  return RunApi([&] {
    return Copy3D(p, stream, CallKind::kAsynchronous, "mcMemcpy3DAsync");
  });
}

mcError_t mcMemset2D(void* ptr, size_t pitch, int value, size_t width,
                     size_t height) {
  return RunApi([&] {
    return Set2D(ptr, pitch, value, width, height, nullptr,
                 CallKind::kSynchronous, "mcMemset2D");
  });
}

mcError_t mcMemset2D_ptds(void* ptr, size_t pitch, int value, size_t width,
                          size_t height) {
  return RunApi([&] {
    return Set2D(ptr, pitch, value, width, height, mcStreamPerThread,
                 CallKind::kSynchronous, "mcMemset2D");
  });
}

mcError_t mcMemset2DAsync(void* ptr, size_t pitch, int value, size_t width,
                          size_t height, mcStream_t stream) {
  return RunApi([&] {
    return Set2D(ptr, pitch, value, width, height, stream,
                 CallKind::kAsynchronous, "mcMemset2DAsync");
  });
}

mcError_t mcMemset3D(mcPitchedPtr pitchedDevPtr, int value, mcExtent extent) {
  return RunApi([&] {
    return Set3D(pitchedDevPtr, value, extent, nullptr, CallKind::kSynchronous,
                 "mcMemset3D");
  });
}

mcError_t mcMemset3D_ptds(mcPitchedPtr pitchedDevPtr, int value,
                          mcExtent extent) {
  return RunApi([&] {
    return Set3D(pitchedDevPtr, value, extent, mcStreamPerThread,
                 CallKind::kSynchronous, "mcMemset3D");
  });
}

mcError_t mcMemset3DAsync(mcPitchedPtr pitchedDevPtr, int value,
                          mcExtent extent, mcStream_t stream) {
  return RunApi([&] {
    return Set3D(pitchedDevPtr, value, extent, stream, CallKind::kAsynchronous,
                 "mcMemset3DAsync");
  });
}

}  // extern "C"
