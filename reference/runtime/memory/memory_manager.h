// Copyright mxcts authors.
//
// reference/runtime/memory/memory_manager.h: device, page-locked host and
// managed memory, and the checks every pointer argument goes through.
//
// All memory is host memory: device code runs on the host, so a device
// allocation is an ordinary range of the process, reached at the same
// address by host and device code [api.memory.uva.svm-host-and-device-access].
// What makes it "device memory" is its entry in the allocation table and
// the arena it comes from: each device has its own arena, page-locked host
// memory and managed memory have one each, so the kind and device of any
// runtime address are known, and an address inside an arena but in no live
// allocation is recognized as stale. Device variables of loaded images are
// registered here too, so copies to and from them are checked the same way.
//
// Copy and Set validate before they touch a byte: a failing call changes
// nothing [api.memory.lifetime.failed-call-changes-nothing].
//
// Page-locked host memory comes from its own arena (mcMallocHost) or is
// pageable memory the program pinned (mcHostRegister): the table holds the
// registered range, whose pages stay the program's.
//
// In checked mode (MXCTS_MEMCHECK=1, set before the first allocation) the
// arenas use the checked layout of address_arena.h: guard pages on both
// sides of every allocation, its end touching the guard after it, freed
// ranges never reused; DescribeFault then explains a faulting address.
//
//   MemoryManager& m = MemoryManager::Get();
//   absl::StatusOr<void*> d = m.AllocateDevice(0, 4096, capacity);
//   m.Copy(*d, host, 4096, mcMemcpyHostToDevice);
//   m.Free(*d, {MemoryKind::kDevice, MemoryKind::kManaged}, "mcFree");

#ifndef MXCTS_REFERENCE_RUNTIME_MEMORY_MEMORY_MANAGER_H_
#define MXCTS_REFERENCE_RUNTIME_MEMORY_MEMORY_MANAGER_H_

#include <stddef.h>

#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "reference/runtime/memory/address_arena.h"
#include "reference/runtime/memory/allocation_table.h"
#include "reference/runtime/memory/memory_advice.h"

namespace mxcts::runtime {

class MemoryManager {
 public:
  // The process's memory manager.
  static MemoryManager& Get();

  // `size` (> 0) bytes of device memory of `device`, which has `capacity`
  // bytes in all. mcErrorMemoryAllocation if they are not available.
  absl::StatusOr<void*> AllocateDevice(int device, size_t size,
                                       size_t capacity);
  // `size` (> 0) bytes of page-locked host memory tied to `device`.
  absl::StatusOr<void*> AllocateHost(int device, size_t size, unsigned flags);
  // `size` (> 0) bytes of managed memory, allocated while `device` was
  // current; at most `capacity` bytes at once.
  absl::StatusOr<void*> AllocateManaged(int device, size_t size, unsigned flags,
                                        size_t capacity);

  // The live allocation that starts at `base`, if its kind is one of
  // `kinds`; mcErrorInvalidValue (naming `api`) otherwise.
  absl::StatusOr<Allocation> FindStart(const void* base,
                                       std::initializer_list<MemoryKind> kinds,
                                       absl::string_view api) const;
  // Releases the allocation that starts at `base` if its kind is one of
  // `kinds`; mcErrorInvalidValue (naming `api`) otherwise, changing nothing.
  absl::Status Free(void* base, std::initializer_list<MemoryKind> kinds,
                    absl::string_view api);

  // Releases every mcMalloc, host and managed allocation of `device`
  // (stream-ordered allocations and IPC mappings are their owners' to
  // release).
  // [api.device.reset.destroys-allocations]
  void ReleaseDevice(int device);

  // Pages for a block of a memory pool: `size` (> 0) bytes of `device`'s
  // address range, counted as device memory in use (against `capacity`,
  // the device's memory) until ReleaseBlock. A block is not an allocation:
  // pointer checks treat it as stale until an allocation in it is
  // registered (RegisterAllocation). mcErrorMemoryAllocation if the device
  // has no room.
  absl::StatusOr<void*> ReserveBlock(int device, size_t size, size_t capacity);
  // Returns a block ReserveBlock made (no allocation may be registered in
  // it any more) to the device's address range.
  void ReleaseBlock(int device, void* base, size_t size);
  // Makes the pages [base, base + size) of a block inaccessible, or
  // accessible again (checked mode's view of stream order).
  static void SetPagesAccessible(void* base, size_t size, bool accessible);

  // Registers `allocation` (inside memory the caller owns: a pool's block,
  // an IPC mapping) so that pointer checks accept it; UnregisterRange ends
  // it. An internal error if it overlaps a live range.
  absl::Status RegisterAllocation(const Allocation& allocation);

  // Registers an existing range (a device or managed variable of a loaded
  // image) so that pointer checks accept it; Unregister removes it.
  absl::Status RegisterRange(void* base, size_t size, MemoryKind kind,
                             int device);
  void UnregisterRange(void* base);

  // Pins [base, base + size) of pageable host memory for `device` with
  // mcHostRegister `flags`. mcErrorHostMemoryAlreadyRegistered if it
  // overlaps page-locked memory (registered or allocated)
  // [api.memory.host-register.already-registered]; mcErrorInvalidValue if
  // it overlaps any other runtime memory, live or released
  // [api.memory.host-register.device-memory].
  absl::Status RegisterHost(void* base, size_t size, int device,
                            unsigned flags);
  // Ends the registration that starts at `base`;
  // mcErrorHostMemoryNotRegistered if there is none
  // [api.memory.host-unregister.not-registered].
  absl::Status UnregisterHost(void* base);

  // Applies `change` to the live allocation starting at `base` (its base
  // and size stay); false if there is none.
  bool UpdateAllocation(const void* base,
                        const std::function<void(Allocation&)>& change);

  // What mcMemAdvise and mcMemPrefetchAsync said about managed memory.
  ManagedAdvice& advice() { return advice_; }

  // The live allocation or registered range containing `address`.
  std::optional<Allocation> Find(const void* address) const;
  // True if `address` lies in one of the runtime's arenas.
  bool InArena(const void* address) const;
  // Bytes of device memory of `device` in use: mcMalloc allocations and
  // memory pools' blocks.
  size_t DeviceBytesInUse(int device) const;

  // Makes the pages of every live mcMalloc allocation and IPC mapping of
  // `device` (not its variables, not stream-ordered allocations)
  // inaccessible, or accessible again; an access to them then faults. Used
  // in checked mode while a grid of a device without peer access to
  // `device` runs (peer_protection.h).
  // [lang.ub.memory.peer-pointer-without-access]
  void SetDeviceAccessible(int device, bool accessible);
  // The same for every live stream-ordered allocation that device
  // `running_device` may not access (its pool gave no access), whatever its
  // device; making them accessible again skips those whose stream has not
  // reached them. [api.pool.access.set-grants-peer]
  void SetPoolMemoryAccessible(int running_device, bool accessible);

  // Selects checked mode. Once any arena exists (the first allocation of
  // any kind makes one) the mode is fixed: returns whether it is `checked`.
  bool SetCheckedMode(bool checked);
  bool checked_mode() const;

  // Explains a fault at `address` for a trap diagnostic, if the address
  // lies in one of the arenas: an access before or past the end of an
  // allocation (in its guard pages), to freed memory, or to memory no live
  // allocation holds. Nullopt for other addresses. Takes the manager's and
  // the arena's locks; safe on a thread that holds neither.
  // [lang.ub.memory.out-of-bounds-global] [lang.ub.memory.use-after-free]
  std::optional<std::string> DescribeFault(uintptr_t address) const;

  // Copies `count` bytes now, after the checks of PlanLinearCopy
  // (memory_copy.h): mcErrorInvalidMemcpyDirection for a kind that is not
  // an mcMemcpyKind; mcErrorInvalidValue for a null pointer, a stale
  // runtime address, a range past the end of its allocation, or a device
  // side that is not runtime memory. `api` names the caller in messages.
  // Entry points do not call this: they queue copies with SubmitCopy.
  absl::Status Copy(void* dst, const void* src, size_t count, int kind,
                    absl::string_view api);
  // Sets `count` bytes at `ptr` to `(unsigned char)value` now;
  // mcErrorInvalidValue unless the range lies in one live device, managed
  // or page-locked range (PlanSet).
  absl::Status Set(void* ptr, int value, size_t count, absl::string_view api);

  // Checks that [ptr, ptr + count) may be accessed as one side of a copy.
  // Returns the allocation it lies in, or nullopt for memory the runtime
  // does not know (pageable host memory).
  absl::StatusOr<std::optional<Allocation>> CheckRange(
      const void* ptr, size_t count, absl::string_view what,
      absl::string_view api) const;

  // --- Interprocess sharing (ipc/) ---

  // Calls `observer` with every allocation released to its arena (mcFree,
  // a device reset), before its pages are dropped, with the manager's lock
  // held: the observer must not call back into the manager. The exports of
  // ipc/ learn this way that an exported allocation is gone.
  void SetReleaseObserver(std::function<void(const Allocation&)> observer);
  // `size` (> 0, a multiple of the page size) bytes of `device`'s address
  // range, page aligned, for another process's memory that this process
  // maps there (an IPC mapping): not counted as this process's device
  // memory. mcErrorMemoryAllocation if the range is full.
  absl::StatusOr<void*> ReserveMappingRange(int device, size_t size);
  // Returns a range ReserveMappingRange made; its pages become this
  // process's inaccessible pages again, whatever was mapped there.
  void ReleaseMappingRange(int device, void* base, size_t size);

 private:
  MemoryManager() = default;
  AddressArena* ArenaFor(MemoryKind kind, int device)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  size_t DeviceBytesInUseLocked(int device) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Sets `protection` on the whole pages that hold [base, base + size).
  static void ProtectPages(uintptr_t base, size_t size, int protection);
  absl::StatusOr<void*> AllocateIn(MemoryKind kind, int device, size_t size,
                                   unsigned flags)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ReleaseToArena(const Allocation& allocation)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  AllocationTable table_;
  std::map<int, std::unique_ptr<AddressArena>> device_arenas_
      ABSL_GUARDED_BY(mu_);
  std::unique_ptr<AddressArena> host_arena_ ABSL_GUARDED_BY(mu_);
  std::unique_ptr<AddressArena> managed_arena_ ABSL_GUARDED_BY(mu_);
  bool checked_ ABSL_GUARDED_BY(mu_) = false;
  // Bytes of pool blocks reserved per device (ReserveBlock).
  std::map<int, size_t> block_bytes_ ABSL_GUARDED_BY(mu_);
  ManagedAdvice advice_;
  // SetReleaseObserver's observer; empty if none.
  std::function<void(const Allocation&)> release_observer_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_MEMORY_MEMORY_MANAGER_H_
