// Copyright mxcts authors.
//
// reference/runtime/memory/memory_copy.h: the copies and sets of the memory
// API, checked completely before anything is queued, then queued on a stream
// with the host wait the synchronization rules ask for.
//
// Every copy and set, whatever its shape (linear, 2D, 3D, symbol), is a box
// of `depth` slices of `height` rows of `width` bytes; each side has a row
// pitch and a slice pitch. Planning checks the box against the allocation
// table and records what memory each side is; a failing plan changes
// nothing [api.memory.lifetime.failed-call-changes-nothing]. Submitting a
// plan hands a copy of it to the device timeline (device_work.h), which may
// run it later: the plan holds addresses and sizes only, and a source in
// pageable host memory, which the caller may reuse once the call returns,
// is copied into a staging buffer owned by the work first.
//
//   MX_ASSIGN_OR_RETURN(Device * device, StreamDeviceForWork(stream));
//   MX_ASSIGN_OR_RETURN(CopyPlan plan,
//                       PlanLinearCopy(dst, src, n, kind, "mcMemcpyAsync"));
//   return SubmitCopy(plan, stream, CallKind::kAsynchronous,
//                     "mcMemcpyAsync");

#ifndef MXCTS_REFERENCE_RUNTIME_MEMORY_MEMORY_COPY_H_
#define MXCTS_REFERENCE_RUNTIME_MEMORY_MEMORY_COPY_H_

#include <stddef.h>
#include <stdint.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "mc_runtime_api.h"
#include "reference/runtime/memory/allocation_table.h"
#include "reference/runtime/timeline/device_work.h"

namespace mxcts::runtime {

// What memory one side of a copy or set is.
enum class MemorySpace {
  kPageable,    // unknown to the runtime: ordinary host memory
  kPageLocked,  // mcMallocHost, mcHostAlloc or mcHostRegister
  kDevice,      // the mcMalloc family, or a __device__/__constant__ variable
  kManaged,     // mcMallocManaged, or a __managed__ variable
};

// The space of an allocation of `kind`.
MemorySpace SpaceOf(MemoryKind kind);
// "pageable host memory", "page-locked host memory", ...
const char* MemorySpaceName(MemorySpace space);

// `depth` slices of `height` rows of `width` bytes.
struct MemoryBox {
  size_t width = 0;
  size_t height = 1;
  size_t depth = 1;

  bool empty() const { return width == 0 || height == 0 || depth == 0; }
  // width * height * depth; the box is known to fit in memory.
  size_t bytes() const { return width * height * depth; }
};

// One checked side: where the box starts and how it is laid out.
struct CheckedSide {
  unsigned char* ptr = nullptr;
  size_t pitch = 0;        // bytes from a row to the next
  size_t slice_pitch = 0;  // bytes from a slice to the next
  MemorySpace space = MemorySpace::kPageable;
  int device = -1;           // the owning device, -1 for host memory
  bool sync_memops = false;  // the allocation asked for synchronous memops
};

struct CopyPlan {
  CheckedSide dst;
  CheckedSide src;
  MemoryBox box;  // empty: nothing to copy
  int kind = mcMemcpyDefault;
};

// Checks a copy of `box` of `kind` from `src` to `dst`, each laid out with
// its row and slice pitch, in this order:
//   - `kind` is an mcMemcpyKind, else mcErrorInvalidMemcpyDirection
//     [api.memory.memcpy.invalid-kind];
//   - an empty box is a plan with nothing to copy, whatever the pointers
//     [api.memory.memcpy.count-zero];
//   - neither pointer is null, else mcErrorInvalidValue
//     [api.memory.memcpy.null-pointer];
//   - each side's range lies inside one live allocation, or wholly outside
//     the runtime's memory, else mcErrorInvalidValue
//     [api.memory.memcpy.past-end-of-allocation]
//     [api.memory.lifetime.freed-pointer-in-api];
//   - the device side of an explicit kind is memory the runtime knows, else
//     mcErrorInvalidValue [api.memory.memcpy.device-side-not-device-memory].
// `api` names the caller in messages.
absl::StatusOr<CopyPlan> PlanCopy(void* dst, size_t dst_pitch,
                                  size_t dst_slice_pitch, const void* src,
                                  size_t src_pitch, size_t src_slice_pitch,
                                  MemoryBox box, int kind,
                                  absl::string_view api);
// PlanCopy of `count` contiguous bytes.
absl::StatusOr<CopyPlan> PlanLinearCopy(void* dst, const void* src,
                                        size_t count, int kind,
                                        absl::string_view api);

// PlanCopy of the box an mcMemcpy3DParms describes, checked as mcMemcpy3D
// checks it: the kind [api.memory.memcpy-3d.invalid-kind], pitched pointers
// only [api.memory.memcpy-3d.array-and-pointer], pitches of at least x +
// width [api.memory.memcpy-3d.pitch-less-than-width] and rows inside a
// slice [api.memory.memcpy-3d.box-outside-slice]; an empty extent is a plan
// with nothing to copy [api.memory.memcpy-3d.zero-extent].
absl::StatusOr<CopyPlan> PlanCopy3D(const mcMemcpy3DParms& params,
                                    absl::string_view api);

// Whether the entry point is a synchronous one (mcMemcpy, mcMemset, ...)
// or an asynchronous one taking a stream (mcMemcpyAsync, ...).
enum class CallKind { kSynchronous, kAsynchronous };

// How a copy is queued.
struct CopyTiming {
  HostWait wait = HostWait::kNone;
  bool stage_source = false;  // copy the source at the call
};
// The timing the rules of [api.sync.host] give `plan` for `call`.
CopyTiming TimingOf(const CopyPlan& plan, CallKind call);

// Sources of at most this many bytes in pageable memory are staged; a
// larger copy waits instead, so staging never doubles a huge copy.
inline constexpr size_t kMaxStagedBytes = size_t{64} << 20;

// Performs the copy of `plan` now.
void RunCopy(const CopyPlan& plan);

// Queues `plan` in `stream` (already validated) with the timing of
// TimingOf. An empty plan queues nothing and succeeds. Returns what
// SubmitWork returns.
absl::Status SubmitCopy(const CopyPlan& plan, mcStream_t stream, CallKind call,
                        const std::string& description);

struct SetPlan {
  CheckedSide dst;
  MemoryBox box;            // width in bytes: a multiple of element_size
  uint32_t pattern = 0;     // the element value
  size_t element_size = 1;  // 1, 2 or 4 bytes
};

// Checks a set of `box` at `ptr` (laid out with `pitch` and `slice_pitch`)
// to elements of `element_size` bytes holding `pattern`:
//   - an empty box is a plan with nothing to set
//     [api.memory.memset.count-zero];
//   - `ptr` is not null and the box lies inside one live device, managed
//     or page-locked allocation, else mcErrorInvalidValue
//     [api.memory.memset.not-device-memory]
//     [api.memory.memset.past-end-of-allocation];
//   - `ptr` and `pitch` are multiples of `element_size`, else
//     mcErrorInvalidValue [api.memory.memset-d.alignment].
absl::StatusOr<SetPlan> PlanSet(void* ptr, size_t pitch, size_t slice_pitch,
                                MemoryBox box, uint32_t pattern,
                                size_t element_size, absl::string_view api);

// Performs the set of `plan` now.
void RunSet(const SetPlan& plan);

// Queues `plan` in `stream`: a synchronous set of page-locked memory, or of
// an allocation with synchronous memops, waits; any other set does not
// [api.sync.host.memset-asynchronous]. An empty plan queues nothing.
absl::Status SubmitSet(const SetPlan& plan, mcStream_t stream, CallKind call,
                       const std::string& description);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_MEMORY_MEMORY_COPY_H_
