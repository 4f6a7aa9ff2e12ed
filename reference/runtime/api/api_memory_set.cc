// Copyright mxcts authors.
//
// The linear set entry points [api.memory.memset]: mcMemset, mcMemsetAsync
// and the driver-style element sets mcMemsetD8, mcMemsetD16, mcMemsetD32
// (+Async), and the `_ptds` forms of the synchronous ones, which set in the
// calling thread's per-thread default stream instead of the legacy one.
// Each checks its stream, plans the set (memory_copy.h) and
// submits it: a synchronous set of page-locked memory waits for it, any
// other returns once it is queued [api.sync.host.memset-asynchronous].
// The 2D and 3D sets are in api_memory_2d3d.cc.
//
// Tested by api_memory_test.cc.

#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/api/capture_routing.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/memory/memory_copy.h"

using mxcts::runtime::CallKind;
using mxcts::runtime::MemoryBox;
using mxcts::runtime::RunApi;
using mxcts::runtime::SetPlan;

namespace {

// Sets `count` elements of `element_size` bytes at `ptr` to `pattern`.
absl::Status Set(void* ptr, uint32_t pattern, size_t element_size, size_t count,
                 mcStream_t stream, CallKind call, const char* api) {
  // [api.memory.memset-async.invalid-stream]
  MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
  MemoryBox box;
  if (__builtin_mul_overflow(count, element_size, &box.width)) {
    return mxcts::runtime::McStatus(mcErrorInvalidValue,
                                    std::string(api) + ": count is too large");
  }
  // [api.memory.memset.count-zero] [api.memory.memset.not-device-memory]
  // [api.memory.memset.past-end-of-allocation]
  MX_ASSIGN_OR_RETURN(SetPlan plan,
                      mxcts::runtime::PlanSet(ptr, box.width, box.width, box,
                                              pattern, element_size, api));
  if (call == CallKind::kAsynchronous) {
    // [api.graph.capture.records-instead-of-executing]
    const mcMemsetParams params{
        ptr, box.width, pattern, static_cast<unsigned>(element_size), count, 1};
    MX_ASSIGN_OR_RETURN(bool captured,
                        mxcts::runtime::CaptureIfCapturing(stream, [&] {
                          return mxcts::runtime::NodeParams::Memset(&params);
                        }));
    if (captured) return absl::OkStatus();
  }
  // [api.memory.memset.sets-bytes] [api.memory.memset.default-stream-ordered]
  // [api.memory.memset-async.stream-ordered]
  return mxcts::runtime::SubmitSet(plan, stream, call, api);
}

// A synchronous set, in `default_stream`: 0 (the legacy default stream) for
// the plain calls, mcStreamPerThread for their `_ptds` forms.
// [api.sync.per-thread.renamed-entry-points]
mcError_t SynchronousSet(mcStream_t default_stream, void* ptr, uint32_t pattern,
                         size_t element_size, size_t count, const char* api) {
  return RunApi(
      [&] {
        return Set(ptr, pattern, element_size, count, default_stream,
                   CallKind::kSynchronous, api);
      },
      api);
}

}  // namespace

extern "C" {

mcError_t mcMemset(void* ptr, int value, size_t count) {
  return SynchronousSet(nullptr, ptr, static_cast<unsigned char>(value), 1,
                        count, "mcMemset");
}

mcError_t mcMemset_ptds(void* ptr, int value, size_t count) {
  return SynchronousSet(mcStreamPerThread, ptr,
                        static_cast<unsigned char>(value), 1, count,
                        "mcMemset");
}

mcError_t mcMemsetAsync(void* ptr, int value, size_t count, mcStream_t stream) {
  return RunApi([&] {
    return Set(ptr, static_cast<unsigned char>(value), 1, count, stream,
               CallKind::kAsynchronous, "mcMemsetAsync");
  });
}

// [api.memory.memset-d.sets-elements]
mcError_t mcMemsetD8(mcDeviceptr_t dst, unsigned char value, size_t count) {
  return SynchronousSet(nullptr, dst, value, 1, count, "mcMemsetD8");
}

mcError_t mcMemsetD8_ptds(mcDeviceptr_t dst, unsigned char value,
                          size_t count) {
  return SynchronousSet(mcStreamPerThread, dst, value, 1, count, "mcMemsetD8");
}

mcError_t mcMemsetD16(mcDeviceptr_t dst, unsigned short value, size_t count) {
  return SynchronousSet(nullptr, dst, value, 2, count, "mcMemsetD16");
}

mcError_t mcMemsetD16_ptds(mcDeviceptr_t dst, unsigned short value,
                           size_t count) {
  return SynchronousSet(mcStreamPerThread, dst, value, 2, count, "mcMemsetD16");
}

mcError_t mcMemsetD32(mcDeviceptr_t dst, unsigned int value, size_t count) {
  return SynchronousSet(nullptr, dst, value, 4, count, "mcMemsetD32");
}

mcError_t mcMemsetD32_ptds(mcDeviceptr_t dst, unsigned int value,
                           size_t count) {
  return SynchronousSet(mcStreamPerThread, dst, value, 4, count, "mcMemsetD32");
}

mcError_t mcMemsetD8Async(mcDeviceptr_t dst, unsigned char value, size_t count,
                          mcStream_t stream) {
  return RunApi([&] {
    return Set(dst, value, 1, count, stream, CallKind::kAsynchronous,
               "mcMemsetD8Async");
  });
}

mcError_t mcMemsetD16Async(mcDeviceptr_t dst, unsigned short value,
                           size_t count, mcStream_t stream) {
  return RunApi([&] {
    return Set(dst, value, 2, count, stream, CallKind::kAsynchronous,
               "mcMemsetD16Async");
  });
}

mcError_t mcMemsetD32Async(mcDeviceptr_t dst, unsigned int value, size_t count,
                           mcStream_t stream) {
  return RunApi([&] {
    return Set(dst, value, 4, count, stream, CallKind::kAsynchronous,
               "mcMemsetD32Async");
  });
}

}  // extern "C"
