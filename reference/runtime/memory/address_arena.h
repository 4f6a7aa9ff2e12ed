// Copyright mxcts authors.
//
// reference/runtime/memory/address_arena.h: a reserved range of address space
// from which the runtime hands out memory of one kind (one device's memory,
// page-locked host memory, managed memory).
//
// Each arena reserves its range once, inaccessible, so that the addresses
// of different arenas never mix: the owner of an address is known from the
// address alone [api.memory.uva.devices-have-distinct-ranges]. An
// allocation makes whole pages of the range readable and writable and
// leaves one inaccessible guard page after them, so that running off the
// end of an allocation faults instead of reaching the next one. Released
// pages become inaccessible again and their contents are dropped. Fresh
// addresses are preferred over released ones, so a stale pointer stays
// detectable as long as possible; released ranges are reused only when the
// untouched part of the arena is exhausted.
//
// A checked arena (MXCTS_MEMCHECK=1) lays allocations out for finding
// misuse instead: an inaccessible guard page before and after each one, the
// allocation placed so that its end, rounded up to 256 bytes, touches the
// guard page after it (the address stays a multiple of 256
// [api.memory.malloc.alignment-256]), and released ranges are never handed
// out again, so that every later access to them faults. It remembers every
// allocation it made, so that a faulting address can be explained
// (PlacementAround).
//
//   absl::StatusOr<std::unique_ptr<AddressArena>> arena =
//       AddressArena::Reserve("device 0", size_t{1} << 37);
//   absl::StatusOr<void*> p = (*arena)->Allocate(1000);   // 4096 usable bytes
//   (*arena)->Release(*p, 1000);

#ifndef MXCTS_REFERENCE_RUNTIME_MEMORY_ADDRESS_ARENA_H_
#define MXCTS_REFERENCE_RUNTIME_MEMORY_ADDRESS_ARENA_H_

#include <stddef.h>
#include <stdint.h>

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace mxcts::runtime {

enum class ArenaLayout {
  kPacked,   // whole pages and a guard page after; released ranges reused
  kChecked,  // guard pages on both sides, end-aligned, never reused
};

class AddressArena {
 public:
  // Reserves `bytes` of address space (rounded to pages), or, if the system
  // refuses, the largest power-of-two fraction of it not below `min_bytes`.
  // mcErrorMemoryAllocation if even that fails.
  static absl::StatusOr<std::unique_ptr<AddressArena>> Reserve(
      std::string name, size_t bytes, size_t min_bytes = size_t{1} << 30,
      ArenaLayout layout = ArenaLayout::kPacked);
  ~AddressArena();
  AddressArena(const AddressArena&) = delete;
  AddressArena& operator=(const AddressArena&) = delete;

  // Makes at least `size` (> 0) bytes accessible and returns their address:
  // page aligned in a packed arena, a multiple of 256 in a checked one.
  // mcErrorMemoryAllocation if the arena has no room (a checked arena never
  // reuses released ranges, so it runs out sooner).
  absl::StatusOr<void*> Allocate(size_t size);
  // Returns an allocation of `size` bytes at `base` (as Allocate returned
  // it) to the arena; its pages become inaccessible.
  void Release(void* base, size_t size);

  // Where an allocation of a checked arena lies, guard pages included.
  struct Placement {
    uintptr_t base = 0;     // what Allocate returned
    size_t size = 0;        // what it was asked for
    bool released = false;  // Release was called for it
  };
  // The allocation of a checked arena whose range or guard pages contain
  // `address`, live or released; nullopt for a packed arena or an address
  // no allocation ever covered.
  std::optional<Placement> PlacementAround(uintptr_t address) const;

  // True if `address` lies in the reserved range.
  bool Contains(const void* address) const {
    uintptr_t a = reinterpret_cast<uintptr_t>(address);
    return a >= begin_ && a < end_;
  }
  uintptr_t begin() const { return begin_; }
  uintptr_t end() const { return end_; }
  const std::string& name() const { return name_; }
  ArenaLayout layout() const { return layout_; }
  static size_t PageSize();

 private:
  // A checked allocation: its span and what it was.
  struct CheckedSpan {
    size_t span = 0;
    Placement placement;
  };

  AddressArena(std::string name, uintptr_t begin, uintptr_t end,
               ArenaLayout layout);
  // The pages an allocation of `size` bytes occupies, guard pages included.
  size_t SpanOf(size_t size) const;
  // The bytes of a checked allocation of `size` bytes: whole pages holding
  // `size` rounded up to 256.
  static size_t CheckedUsableBytes(size_t size);
  absl::StatusOr<void*> AllocateChecked(size_t size);
  void ReleaseChecked(void* base, size_t size);

  const std::string name_;
  const uintptr_t begin_;
  const uintptr_t end_;
  const ArenaLayout layout_;
  mutable absl::Mutex mu_;
  uintptr_t next_fresh_ ABSL_GUARDED_BY(mu_);
  std::map<uintptr_t, size_t> released_ ABSL_GUARDED_BY(mu_);  // start -> span
  // Checked arenas: every allocation ever made, by the start of its span.
  std::map<uintptr_t, CheckedSpan> checked_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_MEMORY_ADDRESS_ARENA_H_
