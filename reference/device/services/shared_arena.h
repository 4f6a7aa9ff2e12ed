// Copyright mxcts authors.
//
// reference/device/services/shared_arena.h: the shared memory of a block.
//
// The arena holds kSharedBytesPerBlock (64 KiB) bytes, between two
// inaccessible guard pages. Static __shared__ variables are allocated from
// the bottom on first use, one slot per declaration site; the dynamic area
// (the launch's Ns bytes, rounded up to 16) sits at the top, ending at the
// upper guard page:
//
//   guard | static variables ... -> free <- ... dynamic (Ns) | guard
//
// Static variables are found by site, so their offsets do not depend on Ns;
// a layout learned in the first block that uses a variable is kept for the
// rest of the grid, so every block sees the same offsets. Static bytes plus
// rounded Ns must fit in the arena. Every block starts with the used bytes
// filled with a fixed garbage pattern: shared memory starts indeterminate,
// never with what the previous block left.
// [lang.variable.shared.lifetime-of-block]
//
// A checked arena (the runtime's checked mode, MXCTS_MEMCHECK=1) lays the
// same variables out for finding misuse instead: each static variable, and
// the dynamic area, on pages of its own, placed so that it ends exactly
// where kCheckedGapBytes of inaccessible memory begin. An access past the
// end of a variable, by one byte or by anything up to the gap, faults, and
// DescribeFault names the variable [lang.ub.memory.out-of-bounds-shared].
// The block's budget is the same 64 KiB, counted as in the packed layout.
//
//   SharedArena arena;
//   arena.BeginGrid(launch.dynamic_shared_bytes);
//   arena.BeginBlock();
//   absl::StatusOr<void*> tile = arena.Variable(&site, 1024, 4, "tile");

#ifndef REFERENCE_DEVICE_SERVICES_SHARED_ARENA_H_
#define REFERENCE_DEVICE_SERVICES_SHARED_ARENA_H_

#include <stddef.h>
#include <stdint.h>

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mxcts::device_internal {

class SharedArena {
 public:
  // The byte every used byte holds at the start of a block.
  static constexpr unsigned char kFreshByte = 0xA5;

  // The inaccessible bytes after each variable of a checked arena.
  static constexpr size_t kCheckedGapBytes = size_t{1} << 20;

  // Maps the arena, packed or `checked`; aborts if the system refuses the
  // mapping.
  explicit SharedArena(bool checked = false);
  ~SharedArena();

  SharedArena(const SharedArena&) = delete;
  SharedArena& operator=(const SharedArena&) = delete;

  // Starts a grid with `dynamic_bytes` of dynamic shared memory per block:
  // forgets the static layout. InvalidArgument if the rounded dynamic bytes
  // exceed the arena.
  absl::Status BeginGrid(size_t dynamic_bytes);

  // Starts a block: the static variables and the dynamic area hold garbage.
  void BeginBlock();

  // The start of the dynamic area, 16-byte aligned; one past the end of the
  // arena (of its region, when checked) when Ns is 0.
  void* dynamic_area() const { return dynamic_area_; }

  // The block's instance of the static variable declared at `site`:
  // allocated with `size` bytes and `alignment` on the grid's first request
  // for `site`. ResourceExhausted if it does not fit beside the dynamic
  // area; InvalidArgument for an alignment that is not a power of two up to
  // a page, or for a site seen before with another size or alignment.
  // `name` (may be null) names the variable in fault diagnostics.
  absl::StatusOr<void*> Variable(const void* site, size_t size,
                                 size_t alignment, const char* name = nullptr);

  // The bytes of the static part so far, alignment padding included.
  size_t static_bytes() const { return static_end_; }
  bool checked() const { return checked_; }
  // The lowest address of a packed arena.
  void* base() const { return base_; }

  // Whether `address` lies in the arena's mapping (its shared memory, or
  // the inaccessible memory around it): a pointer to shared memory.
  // [api.devrt.memory.isglobal-intrinsic]
  bool Contains(const void* address) const {
    const char* p = static_cast<const char*>(address);
    return p >= region_begin_ && p < region_begin_ + mapped_bytes_;
  }

  // If `address` lies in the arena's inaccessible memory, says which
  // variable an access there overran and returns true.
  bool DescribeFault(uintptr_t address, std::string* description) const;

 private:
  struct Slot {
    char* address;
    size_t size;
    size_t alignment;
    const char* name;
  };

  // Checked: `size` bytes at `alignment` on fresh pages ending at a gap.
  absl::StatusOr<char*> PlaceChecked(size_t size, size_t alignment);
  void MapChecked();

  const bool checked_;
  size_t page_bytes_ = 0;
  // Packed: the arena. Checked: the reserved region.
  char* base_ = nullptr;
  size_t mapped_bytes_ = 0;
  char* region_begin_ = nullptr;
  char* next_free_ = nullptr;  // checked: where the next placement starts
  size_t dynamic_offset_ = 0;  // packed layout accounting, both modes
  size_t dynamic_bytes_ = 0;   // rounded Ns
  char* dynamic_area_ = nullptr;
  size_t static_end_ = 0;
  absl::flat_hash_map<const void*, Slot> layout_;
};

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_SERVICES_SHARED_ARENA_H_
