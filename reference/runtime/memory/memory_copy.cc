// Copyright mxcts authors.
//
// Planning, timing and running copies and sets.
//
// A side's range is the bytes from its first byte to the last byte of its
// last row: (depth - 1) * slice_pitch + (height - 1) * pitch + width. The
// allocation table checks that range as a whole, so a box that starts in
// an allocation and runs off its end is rejected, and one in pageable
// memory is taken as written (its bounds are unknowable
// [api.memory.memcpy.pageable-past-end-undefined]).
//
// Timing follows the host-synchronization rules, with managed memory
// treated as device memory (the reference's choice,
// [api.memory.memcpy.managed-synchronization]):
//
//   synchronous copy                       host waits?      source staged?
//   mcMemcpyHostToHost, or to host memory  until done       -
//   from page-locked memory                until done       -
//   from pageable memory                   no               yes
//   between device/managed memory          no (*)           -
//
//   asynchronous copy
//   host to host (kind or both sides)      until done       -
//   to pageable memory                     until done       -
//   from pageable memory                   no               yes
//   otherwise                              no               -
//
// (*) unless an allocation of either side asked for synchronous memops
// [api.memory.pointer-set-attribute.sync-memops]. A pageable source larger
// than kMaxStagedBytes is not staged: the call waits instead, which the
// rules equally allow.
//
// Rows are copied with memmove, so overlapping ranges (undefined for the
// program [api.memory.memcpy.overlap-undefined]) at least do not corrupt
// the runtime.
//
// Tested by memory_copy_test.cc.

#include "reference/runtime/memory/memory_copy.h"

#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/memory/memory_manager.h"

namespace mxcts::runtime {
namespace {

bool IsMemcpyKind(int kind) {
  return kind >= mcMemcpyHostToHost && kind <= mcMemcpyDefault;
}

bool IsHostSpace(MemorySpace space) {
  return space == MemorySpace::kPageable || space == MemorySpace::kPageLocked;
}

// The length of a side's range, or nullopt if it does not fit in memory.
std::optional<size_t> SpanOf(const MemoryBox& box, size_t pitch,
                             size_t slice_pitch) {
  size_t rows = 0;
  size_t slices = 0;
  size_t span = 0;
  if (__builtin_mul_overflow(box.height - 1, pitch, &rows) ||
      __builtin_mul_overflow(box.depth - 1, slice_pitch, &slices) ||
      __builtin_add_overflow(rows, slices, &span) ||
      __builtin_add_overflow(span, box.width, &span)) {
    return std::nullopt;
  }
  return span;
}

absl::StatusOr<CheckedSide> CheckSide(const void* ptr, size_t pitch,
                                      size_t slice_pitch, const MemoryBox& box,
                                      absl::string_view role,
                                      absl::string_view api) {
  std::optional<size_t> span = SpanOf(box, pitch, slice_pitch);
  if (!span.has_value()) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrCat(api, ": the ", role,
                                 " range does not fit in the address space"));
  }
  MX_ASSIGN_OR_RETURN(std::optional<Allocation> allocation,
                      MemoryManager::Get().CheckRange(ptr, *span, role, api));
  CheckedSide side;
  side.ptr = static_cast<unsigned char*>(const_cast<void*>(ptr));
  side.pitch = pitch;
  side.slice_pitch = slice_pitch;
  if (allocation.has_value()) {
    side.space = SpaceOf(allocation->kind);
    side.device = side.space == MemorySpace::kDevice ? allocation->device : -1;
    side.sync_memops = allocation->sync_memops;
  }
  return side;
}

// Calls `row(offset_dst, offset_src)` for each row of `box`.
template <typename Row>
void ForEachRow(const MemoryBox& box, size_t dst_pitch, size_t dst_slice,
                size_t src_pitch, size_t src_slice, Row row) {
  for (size_t z = 0; z < box.depth; ++z) {
    for (size_t y = 0; y < box.height; ++y) {
      row(z * dst_slice + y * dst_pitch, z * src_slice + y * src_pitch);
    }
  }
}

// The source of `plan`, rows packed one after another (in a buffer that is
// not zero-filled first: every byte is written).
std::shared_ptr<const unsigned char[]> PackSource(const CopyPlan& plan) {
  std::shared_ptr<unsigned char[]> packed(new unsigned char[plan.box.bytes()]);
  const MemoryBox& box = plan.box;
  ForEachRow(box, box.width, box.width * box.height, plan.src.pitch,
             plan.src.slice_pitch, [&](size_t to, size_t from) {
               std::memcpy(packed.get() + to, plan.src.ptr + from, box.width);
             });
  return packed;
}

void RunCopyFrom(const CopyPlan& plan, const unsigned char* packed) {
  const MemoryBox& box = plan.box;
  ForEachRow(box, plan.dst.pitch, plan.dst.slice_pitch, box.width,
             box.width * box.height, [&](size_t to, size_t from) {
               std::memcpy(plan.dst.ptr + to, packed + from, box.width);
             });
}

}  // namespace

MemorySpace SpaceOf(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::kDevice:
    case MemoryKind::kDeviceVariable:
      return MemorySpace::kDevice;
    case MemoryKind::kHost:
    case MemoryKind::kRegisteredHost:
      return MemorySpace::kPageLocked;
    case MemoryKind::kManaged:
    case MemoryKind::kManagedVariable:
      return MemorySpace::kManaged;
  }
  return MemorySpace::kPageable;
}

const char* MemorySpaceName(MemorySpace space) {
  switch (space) {
    case MemorySpace::kPageable:
      return "pageable host memory";
    case MemorySpace::kPageLocked:
      return "page-locked host memory";
    case MemorySpace::kDevice:
      return "device memory";
    case MemorySpace::kManaged:
      return "managed memory";
  }
  return "memory";
}

absl::StatusOr<CopyPlan> PlanCopy(void* dst, size_t dst_pitch,
                                  size_t dst_slice_pitch, const void* src,
                                  size_t src_pitch, size_t src_slice_pitch,
                                  MemoryBox box, int kind,
                                  absl::string_view api) {
  if (!IsMemcpyKind(kind)) {  // [api.memory.memcpy.invalid-kind]
    return McStatus(mcErrorInvalidMemcpyDirection,
                    absl::StrCat(api, ": ", kind, " is not an mcMemcpyKind"));
  }
  CopyPlan plan;
  plan.kind = kind;
  if (box.empty()) return plan;            // [api.memory.memcpy.count-zero]
  if (dst == nullptr || src == nullptr) {  // [api.memory.memcpy.null-pointer]
    return McStatus(
        mcErrorInvalidValue,
        absl::StrCat(api, ": the ", dst == nullptr ? "destination" : "source",
                     " is null"));
  }
  MX_ASSIGN_OR_RETURN(plan.dst, CheckSide(dst, dst_pitch, dst_slice_pitch, box,
                                          "destination", api));
  MX_ASSIGN_OR_RETURN(
      plan.src, CheckSide(src, src_pitch, src_slice_pitch, box, "source", api));
  // [api.memory.memcpy.device-side-not-device-memory]
  const bool device_dst =
      kind == mcMemcpyHostToDevice || kind == mcMemcpyDeviceToDevice;
  const bool device_src =
      kind == mcMemcpyDeviceToHost || kind == mcMemcpyDeviceToDevice;
  const bool bad_dst = device_dst && plan.dst.space == MemorySpace::kPageable;
  const bool bad_src = device_src && plan.src.space == MemorySpace::kPageable;
  if (bad_dst || bad_src) {
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat("%s: the %s %p of this copy kind must be device, "
                        "managed or page-locked memory, but the runtime does "
                        "not know it",
                        api, bad_dst ? "destination" : "source",
                        bad_dst ? dst : src));
  }
  plan.box = box;
  return plan;
}

absl::StatusOr<CopyPlan> PlanLinearCopy(void* dst, const void* src,
                                        size_t count, int kind,
                                        absl::string_view api) {
  MemoryBox box;
  box.width = count;
  return PlanCopy(dst, count, count, src, count, count, box, kind, api);
}

namespace {

// Where the box of one side of a 3D copy starts, and its slice pitch.
struct Side3D {
  char* start = nullptr;
  size_t slice_pitch = 0;
};

absl::StatusOr<Side3D> Check3DSide(mcArray_t array, const mcPitchedPtr& ptr,
                                   const mcPos& pos, const mcExtent& extent,
                                   const char* role, absl::string_view api) {
  if (array != nullptr || ptr.ptr == nullptr) {
    // [api.memory.memcpy-3d.array-and-pointer]
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat("%s: the %s must be a pitched pointer: %s", api, role,
                        array != nullptr ? "the reference has no arrays"
                                         : "it names neither array nor "
                                           "pointer"));
  }
  if (extent.width == 0 || extent.height == 0 || extent.depth == 0) {
    return Side3D();  // nothing to copy
  }
  size_t row_end = 0;
  if (__builtin_add_overflow(pos.x, extent.width, &row_end) ||
      ptr.pitch < row_end) {
    // [api.memory.memcpy-3d.pitch-less-than-width]
    return McStatus(mcErrorInvalidPitchValue,
                    absl::StrFormat("%s: the %s pitch %u is less than x %u + "
                                    "width %u",
                                    api, role, ptr.pitch, pos.x, extent.width));
  }
  size_t rows_end = 0;
  if ((extent.depth > 1 || pos.z > 0) &&
      (__builtin_add_overflow(pos.y, extent.height, &rows_end) ||
       rows_end > ptr.ysize)) {
    // [api.memory.memcpy-3d.box-outside-slice]
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat("%s: the %s rows y %u + height %u exceed "
                        "its ysize %u",
                        api, role, pos.y, extent.height, ptr.ysize));
  }
  Side3D side;
  size_t offset = 0;
  size_t rows = 0;
  size_t slices = 0;
  if (__builtin_mul_overflow(ptr.pitch, ptr.ysize, &side.slice_pitch) ||
      __builtin_mul_overflow(pos.z, side.slice_pitch, &slices) ||
      __builtin_mul_overflow(pos.y, ptr.pitch, &rows) ||
      __builtin_add_overflow(slices, rows, &offset) ||
      __builtin_add_overflow(offset, pos.x, &offset)) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: the %s position does not fit in the "
                                    "address space",
                                    api, role));
  }
  side.start = static_cast<char*>(ptr.ptr) + offset;
  return side;
}

}  // namespace

absl::StatusOr<CopyPlan> PlanCopy3D(const mcMemcpy3DParms& p,
                                    absl::string_view api) {
  const int kind = static_cast<int>(p.kind);
  if (!IsMemcpyKind(kind)) {  // [api.memory.memcpy-3d.invalid-kind]
    return McStatus(
        mcErrorInvalidMemcpyDirection,
        absl::StrFormat("%s: %d is not an mcMemcpyKind", api, kind));
  }
  MX_ASSIGN_OR_RETURN(Side3D dst, Check3DSide(p.dstArray, p.dstPtr, p.dstPos,
                                              p.extent, "destination", api));
  MX_ASSIGN_OR_RETURN(Side3D src, Check3DSide(p.srcArray, p.srcPtr, p.srcPos,
                                              p.extent, "source", api));
  MemoryBox box;
  box.width = p.extent.width;
  box.height = p.extent.height;
  box.depth = p.extent.depth;
  // [api.memory.memcpy-3d.zero-extent]: an empty box plans nothing.
  return PlanCopy(dst.start, p.dstPtr.pitch, dst.slice_pitch, src.start,
                  p.srcPtr.pitch, src.slice_pitch, box, kind, api);
}

CopyTiming TimingOf(const CopyPlan& plan, CallKind call) {
  const CheckedSide& dst = plan.dst;
  const CheckedSide& src = plan.src;
  const bool stageable = plan.box.bytes() <= kMaxStagedBytes;
  CopyTiming timing;
  if (call == CallKind::kSynchronous) {
    if (plan.kind == mcMemcpyHostToHost || IsHostSpace(dst.space) ||
        src.space == MemorySpace::kPageLocked) {
      // [api.sync.host.memcpy-device-to-host-completes]
      // [api.memory.memcpy.host-to-host-synchronous]
      // [api.memory.memcpy.host-to-device-pinned-synchronous]
      timing.wait = HostWait::kUntilDone;
    } else if (src.space == MemorySpace::kPageable) {
      // [api.sync.host.memcpy-host-to-device-source-reusable]
      timing.stage_source = stageable;
      timing.wait = stageable ? HostWait::kNone : HostWait::kUntilDone;
    } else if (dst.sync_memops || src.sync_memops) {
      timing.wait = HostWait::kUntilDone;
    }
    // Otherwise [api.sync.host.memcpy-device-to-device-asynchronous].
    return timing;
  }
  if (plan.kind == mcMemcpyHostToHost ||
      (IsHostSpace(dst.space) && IsHostSpace(src.space)) ||
      dst.space == MemorySpace::kPageable) {
    // [api.memory.memcpy-async.host-to-host-synchronous]
    // [api.sync.host.memcpy-async-pageable-synchronous]
    timing.wait = HostWait::kUntilDone;
  } else if (src.space == MemorySpace::kPageable) {
    // [api.sync.host.memcpy-async-pageable-synchronous]
    timing.stage_source = stageable;
    timing.wait = stageable ? HostWait::kNone : HostWait::kUntilDone;
  }
  // Otherwise [api.memory.memcpy-async.returns-before-completion].
  return timing;
}

void RunCopy(const CopyPlan& plan) {
  if (plan.box.empty()) return;
  const MemoryBox& box = plan.box;
  ForEachRow(box, plan.dst.pitch, plan.dst.slice_pitch, plan.src.pitch,
             plan.src.slice_pitch, [&](size_t to, size_t from) {
               std::memmove(plan.dst.ptr + to, plan.src.ptr + from, box.width);
             });
}

absl::Status SubmitCopy(const CopyPlan& plan, mcStream_t stream, CallKind call,
                        const std::string& description) {
  if (plan.box.empty()) return absl::OkStatus();
  const CopyTiming timing = TimingOf(plan, call);
  DeviceWork work;
  // When work runs at submission (eager mode) the copy is done before the
  // call returns, so the source needs no staging.
  if (timing.stage_source && !WorkRunsAtSubmission()) {
    std::shared_ptr<const unsigned char[]> staged = PackSource(plan);
    work = [plan, staged] {
      RunCopyFrom(plan, staged.get());
      return mcSuccess;
    };
  } else {
    work = [plan] {
      RunCopy(plan);
      return mcSuccess;
    };
  }
  return SubmitWork(
      stream, absl::StrFormat("%s of %u bytes", description, plan.box.bytes()),
      std::move(work), timing.wait);
}

absl::StatusOr<SetPlan> PlanSet(void* ptr, size_t pitch, size_t slice_pitch,
                                MemoryBox box, uint32_t pattern,
                                size_t element_size, absl::string_view api) {
  SetPlan plan;
  plan.pattern = pattern;
  plan.element_size = element_size;
  if (box.empty()) return plan;  // [api.memory.memset.count-zero]
  if (ptr == nullptr) {          // [api.memory.memset.not-device-memory]
    return McStatus(mcErrorInvalidValue, absl::StrCat(api, ": ptr is null"));
  }
  const uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  if (address % element_size != 0 || pitch % element_size != 0) {
    // [api.memory.memset-d.alignment]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: %p is not aligned to the %u-byte "
                                    "elements it sets",
                                    api, ptr, element_size));
  }
  MX_ASSIGN_OR_RETURN(
      plan.dst, CheckSide(ptr, pitch, slice_pitch, box, "destination", api));
  if (plan.dst.space == MemorySpace::kPageable) {
    // [api.memory.memset.not-device-memory]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: %p is not device, managed or "
                                    "page-locked memory",
                                    api, ptr));
  }
  plan.box = box;
  return plan;
}

void RunSet(const SetPlan& plan) {
  if (plan.box.empty()) return;
  const MemoryBox& box = plan.box;
  unsigned char element[4];
  std::memcpy(element, &plan.pattern, sizeof(element));  // little endian
  ForEachRow(box, plan.dst.pitch, plan.dst.slice_pitch, 0, 0,
             [&](size_t to, size_t) {
               unsigned char* row = plan.dst.ptr + to;
               if (plan.element_size == 1) {
                 std::memset(row, element[0], box.width);
                 return;
               }
               for (size_t i = 0; i < box.width; i += plan.element_size) {
                 std::memcpy(row + i, element, plan.element_size);
               }
             });
}

absl::Status SubmitSet(const SetPlan& plan, mcStream_t stream, CallKind call,
                       const std::string& description) {
  if (plan.box.empty()) return absl::OkStatus();
  // [api.sync.host.memset-asynchronous]
  const bool wait =
      call == CallKind::kSynchronous &&
      (plan.dst.space == MemorySpace::kPageLocked || plan.dst.sync_memops);
  return SubmitWork(
      stream, absl::StrFormat("%s of %u bytes", description, plan.box.bytes()),
      [plan] {
        RunSet(plan);
        return mcSuccess;
      },
      wait ? HostWait::kUntilDone : HostWait::kNone);
}

}  // namespace mxcts::runtime
