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
//   SharedArena arena;
//   arena.BeginGrid(launch.dynamic_shared_bytes);
//   arena.BeginBlock();
//   absl::StatusOr<void*> tile = arena.Variable(&site, 1024, 4);

#ifndef REFERENCE_DEVICE_SERVICES_SHARED_ARENA_H_
#define REFERENCE_DEVICE_SERVICES_SHARED_ARENA_H_

#include <stddef.h>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mxcts::device_internal {

class SharedArena {
 public:
  // The byte every used byte holds at the start of a block.
  static constexpr unsigned char kFreshByte = 0xA5;

  // Maps the arena; aborts if the system refuses the mapping.
  SharedArena();
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
  // arena when Ns is 0.
  void* dynamic_area() const { return base_ + dynamic_offset_; }

  // The block's instance of the static variable declared at `site`:
  // allocated with `size` bytes and `alignment` on the grid's first request
  // for `site`. ResourceExhausted if it does not fit beside the dynamic
  // area; InvalidArgument for an alignment that is not a power of two up to
  // a page, or for a site seen before with another size or alignment.
  absl::StatusOr<void*> Variable(const void* site, size_t size,
                                 size_t alignment);

  // The bytes of the static part so far, alignment padding included.
  size_t static_bytes() const { return static_end_; }
  // The lowest address of the arena.
  void* base() const { return base_; }

 private:
  struct Slot {
    size_t offset;
    size_t size;
    size_t alignment;
  };

  char* base_ = nullptr;
  size_t page_bytes_ = 0;
  size_t dynamic_offset_ = 0;
  size_t static_end_ = 0;
  absl::flat_hash_map<const void*, Slot> layout_;
};

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_SERVICES_SHARED_ARENA_H_
