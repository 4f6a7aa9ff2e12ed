// Copyright mxcts authors.
//
// reference/runtime/address_arena.h: a reserved range of address space
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
//   absl::StatusOr<std::unique_ptr<AddressArena>> arena =
//       AddressArena::Reserve("device 0", size_t{1} << 37);
//   absl::StatusOr<void*> p = (*arena)->Allocate(1000);   // 4096 usable bytes
//   (*arena)->Release(*p, 1000);

#ifndef MXCTS_REFERENCE_RUNTIME_ADDRESS_ARENA_H_
#define MXCTS_REFERENCE_RUNTIME_ADDRESS_ARENA_H_

#include <stddef.h>
#include <stdint.h>

#include <map>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace mxcts::runtime {

class AddressArena {
 public:
  // Reserves `bytes` of address space (rounded to pages), or, if the system
  // refuses, the largest power-of-two fraction of it not below `min_bytes`.
  // mcErrorMemoryAllocation if even that fails.
  static absl::StatusOr<std::unique_ptr<AddressArena>> Reserve(
      std::string name, size_t bytes, size_t min_bytes = size_t{1} << 30);
  ~AddressArena();
  AddressArena(const AddressArena&) = delete;
  AddressArena& operator=(const AddressArena&) = delete;

  // Makes at least `size` (> 0) bytes accessible, page aligned, and returns
  // their address. mcErrorMemoryAllocation if the arena has no room.
  absl::StatusOr<void*> Allocate(size_t size);
  // Returns an allocation of `size` bytes at `base` (as Allocate returned
  // it) to the arena; its pages become inaccessible.
  void Release(void* base, size_t size);

  // True if `address` lies in the reserved range.
  bool Contains(const void* address) const {
    uintptr_t a = reinterpret_cast<uintptr_t>(address);
    return a >= begin_ && a < end_;
  }
  uintptr_t begin() const { return begin_; }
  uintptr_t end() const { return end_; }
  const std::string& name() const { return name_; }
  static size_t PageSize();

 private:
  AddressArena(std::string name, uintptr_t begin, uintptr_t end);
  // The pages an allocation of `size` bytes occupies, guard page included.
  static size_t SpanOf(size_t size);

  const std::string name_;
  const uintptr_t begin_;
  const uintptr_t end_;
  absl::Mutex mu_;
  uintptr_t next_fresh_ ABSL_GUARDED_BY(mu_);
  std::map<uintptr_t, size_t> released_ ABSL_GUARDED_BY(mu_);  // start -> span
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_ADDRESS_ARENA_H_
