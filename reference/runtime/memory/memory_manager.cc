// Copyright mxcts authors.
//
// The memory manager joins the arenas (where memory comes from) and the
// allocation table (what each range is). Arenas are reserved on first use:
// one per device, sized twice the device's memory so that guard pages and
// released-but-not-reused ranges never make a fitting request fail; one for
// page-locked host memory; one for managed memory.
//
// CheckRange is the check every side of a copy or set goes through
// (memory_copy.h puts the checks of a whole call in order): the range lies
// inside a live range and does not run past its end
// [api.memory.memcpy.past-end-of-allocation], or, if the runtime does not
// know it, it is not inside a runtime arena (a stale pointer)
// [api.memory.lifetime.freed-pointer-in-api].
//
// Registered host ranges (mcHostRegister) are the program's own pages: the
// table records them, no arena owns them, and a registration may not
// overlap any runtime memory, so every byte has one owner.
//
// Tested by memory_manager_test.cc.

#include "reference/runtime/memory/memory_manager.h"

#include <sys/mman.h>

#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/devices/device_config.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/memory/memory_copy.h"

namespace mxcts::runtime {
namespace {

constexpr size_t kDeviceArenaBytes = 2 * config::kTotalGlobalMem;
constexpr size_t kHostArenaBytes = size_t{64} << 30;
constexpr size_t kManagedArenaBytes = size_t{128} << 30;

}  // namespace

MemoryManager& MemoryManager::Get() {
  static MemoryManager* manager = new MemoryManager;
  return *manager;
}

AddressArena* MemoryManager::ArenaFor(MemoryKind kind, int device) {
  std::unique_ptr<AddressArena>* slot = nullptr;
  std::string name;
  size_t bytes = 0;
  switch (kind) {
    case MemoryKind::kDevice:
      slot = &device_arenas_[device];
      name = absl::StrCat("device ", device, " memory");
      bytes = kDeviceArenaBytes;
      break;
    case MemoryKind::kHost:
      slot = &host_arena_;
      name = "page-locked host memory";
      bytes = kHostArenaBytes;
      break;
    case MemoryKind::kManaged:
      slot = &managed_arena_;
      name = "managed memory";
      bytes = kManagedArenaBytes;
      break;
    case MemoryKind::kDeviceVariable:
    case MemoryKind::kManagedVariable:
      return nullptr;  // variables live in their images
    case MemoryKind::kRegisteredHost:
      return nullptr;  // the program's own pages
  }
  if (*slot == nullptr) {
    absl::StatusOr<std::unique_ptr<AddressArena>> arena = AddressArena::Reserve(
        std::move(name), bytes, size_t{1} << 30,
        checked_ ? ArenaLayout::kChecked : ArenaLayout::kPacked);
    if (!arena.ok()) return nullptr;
    *slot = std::move(*arena);
  }
  return slot->get();
}

absl::StatusOr<void*> MemoryManager::AllocateIn(MemoryKind kind, int device,
                                                size_t size, unsigned flags) {
  AddressArena* arena = ArenaFor(kind, device);
  if (arena == nullptr) {
    return McStatus(
        mcErrorMemoryAllocation,
        absl::StrCat("no address space for ", MemoryKindName(kind)));
  }
  MX_ASSIGN_OR_RETURN(void* base, arena->Allocate(size));
  Allocation allocation;
  allocation.base = reinterpret_cast<uintptr_t>(base);
  allocation.size = size;
  allocation.kind = kind;
  allocation.device = device;
  allocation.flags = flags;
  absl::Status inserted = table_.Insert(allocation);
  if (!inserted.ok()) {
    arena->Release(base, size);
    return inserted;
  }
  return base;
}

absl::StatusOr<void*> MemoryManager::AllocateDevice(int device, size_t size,
                                                    size_t capacity) {
  absl::MutexLock lock(&mu_);
  const size_t in_use = DeviceBytesInUseLocked(device);
  // [api.memory.malloc.out-of-memory]
  if (size > capacity || in_use > capacity - size) {
    return McStatus(mcErrorMemoryAllocation,
                    absl::StrFormat("mcMalloc: %u bytes requested, %u of %u "
                                    "bytes of device %d free",
                                    size, capacity - in_use, capacity, device));
  }
  return AllocateIn(MemoryKind::kDevice, device, size, 0);
}

absl::StatusOr<void*> MemoryManager::AllocateHost(int device, size_t size,
                                                  unsigned flags) {
  absl::MutexLock lock(&mu_);
  return AllocateIn(MemoryKind::kHost, device, size, flags);
}

absl::StatusOr<void*> MemoryManager::AllocateManaged(int device, size_t size,
                                                     unsigned flags,
                                                     size_t capacity) {
  absl::MutexLock lock(&mu_);
  if (size > capacity) {  // [api.memory.managed.out-of-memory]
    return McStatus(mcErrorMemoryAllocation,
                    absl::StrFormat("mcMallocManaged: %u bytes requested, at "
                                    "most %u available",
                                    size, capacity));
  }
  return AllocateIn(MemoryKind::kManaged, device, size, flags);
}

void MemoryManager::ReleaseToArena(const Allocation& allocation) {
  if (release_observer_) release_observer_(allocation);
  if (AddressArena* arena = ArenaFor(allocation.kind, allocation.device)) {
    arena->Release(reinterpret_cast<void*>(allocation.base), allocation.size);
  }
}

absl::StatusOr<Allocation> MemoryManager::FindStart(
    const void* base, std::initializer_list<MemoryKind> kinds,
    absl::string_view api) const {
  std::optional<Allocation> found = table_.Find(base);
  bool allowed = false;
  if (found.has_value() && found->base == reinterpret_cast<uintptr_t>(base)) {
    for (MemoryKind kind : kinds) allowed = allowed || kind == found->kind;
  }
  if (!allowed) {
    std::string what =
        !found.has_value() ? "is not a live allocation"
        : found->base != reinterpret_cast<uintptr_t>(base)
            ? absl::StrCat("points inside ", MemoryKindName(found->kind),
                           " but not at its start")
            : absl::StrCat("is ", MemoryKindName(found->kind));
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: %p %s", api, base, what));
  }
  return *found;
}

absl::Status MemoryManager::Free(void* base,
                                 std::initializer_list<MemoryKind> kinds,
                                 absl::string_view api) {
  absl::MutexLock lock(&mu_);
  MX_ASSIGN_OR_RETURN(Allocation found, FindStart(base, kinds, api));
  table_.Erase(base);
  advice_.Forget(found.base);
  ReleaseToArena(found);
  return absl::OkStatus();
}

void MemoryManager::ReleaseDevice(int device) {
  absl::MutexLock lock(&mu_);
  std::vector<Allocation> released =
      table_.EraseIf([device](const Allocation& a) {
        // Pools and IPC mappings release their own ranges (their packages'
        // reset runs first).
        if (a.kind == MemoryKind::kDevice && a.origin != DeviceOrigin::kMalloc)
          return false;
        return a.device == device &&
               (a.kind == MemoryKind::kDevice || a.kind == MemoryKind::kHost ||
                a.kind == MemoryKind::kManaged ||
                a.kind == MemoryKind::kRegisteredHost);
      });
  for (const Allocation& allocation : released) {
    advice_.Forget(allocation.base);
    ReleaseToArena(allocation);
  }
}

absl::Status MemoryManager::RegisterRange(void* base, size_t size,
                                          MemoryKind kind, int device) {
  Allocation allocation;
  allocation.base = reinterpret_cast<uintptr_t>(base);
  allocation.size = size;
  allocation.kind = kind;
  allocation.device = device;
  return table_.Insert(allocation);
}

void MemoryManager::UnregisterRange(void* base) {
  table_.Erase(base);
  advice_.Forget(reinterpret_cast<uintptr_t>(base));
}

absl::Status MemoryManager::RegisterHost(void* base, size_t size, int device,
                                         unsigned flags) {
  const uintptr_t begin = reinterpret_cast<uintptr_t>(base);
  absl::MutexLock lock(&mu_);
  if (std::optional<Allocation> overlap = table_.FindOverlap(begin, size)) {
    if (overlap->kind == MemoryKind::kHost ||
        overlap->kind == MemoryKind::kRegisteredHost) {
      // [api.memory.host-register.already-registered]
      return McStatus(mcErrorHostMemoryAlreadyRegistered,
                      absl::StrFormat("mcHostRegister: [%p, +%u) overlaps %s "
                                      "at %#x",
                                      base, size, MemoryKindName(overlap->kind),
                                      overlap->base));
    }
    // [api.memory.host-register.device-memory]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("mcHostRegister: [%p, +%u) overlaps %s",
                                    base, size, MemoryKindName(overlap->kind)));
  }
  auto overlaps = [&](const std::unique_ptr<AddressArena>& arena) {
    return arena != nullptr && begin < arena->end() &&
           begin + size > arena->begin();
  };
  bool in_arena = overlaps(host_arena_) || overlaps(managed_arena_);
  for (const auto& [ordinal, arena] : device_arenas_) {
    in_arena = in_arena || overlaps(arena);
  }
  if (in_arena) {  // released runtime memory is not the program's to pin
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("mcHostRegister: [%p, +%u) is runtime "
                                    "memory in no live allocation",
                                    base, size));
  }
  Allocation allocation;
  allocation.base = begin;
  allocation.size = size;
  allocation.kind = MemoryKind::kRegisteredHost;
  allocation.device = device;
  allocation.flags = flags;
  return table_.Insert(allocation);
}

absl::Status MemoryManager::UnregisterHost(void* base) {
  absl::MutexLock lock(&mu_);
  std::optional<Allocation> found = table_.Find(base);
  if (!found.has_value() || found->kind != MemoryKind::kRegisteredHost ||
      found->base != reinterpret_cast<uintptr_t>(base)) {
    // [api.memory.host-unregister.not-registered]
    return McStatus(mcErrorHostMemoryNotRegistered,
                    absl::StrFormat("mcHostUnregister: %p is not the start of "
                                    "a registered range",
                                    base));
  }
  table_.Erase(base);
  return absl::OkStatus();
}

bool MemoryManager::UpdateAllocation(
    const void* base, const std::function<void(Allocation&)>& change) {
  return table_.Update(base, change);
}

std::optional<Allocation> MemoryManager::Find(const void* address) const {
  return table_.Find(address);
}

bool MemoryManager::InArena(const void* address) const {
  absl::MutexLock lock(&mu_);
  for (const auto& [device, arena] : device_arenas_) {
    if (arena != nullptr && arena->Contains(address)) return true;
  }
  return (host_arena_ != nullptr && host_arena_->Contains(address)) ||
         (managed_arena_ != nullptr && managed_arena_->Contains(address));
}

size_t MemoryManager::DeviceBytesInUse(int device) const {
  absl::MutexLock lock(&mu_);
  return DeviceBytesInUseLocked(device);
}

size_t MemoryManager::DeviceBytesInUseLocked(int device) const {
  // Stream-ordered allocations lie in blocks, counted whole; IPC mappings
  // are another process's memory.
  size_t in_use = table_.TotalSize([device](const Allocation& a) {
    return a.kind == MemoryKind::kDevice && a.device == device &&
           a.origin == DeviceOrigin::kMalloc;
  });
  auto blocks = block_bytes_.find(device);
  return in_use + (blocks == block_bytes_.end() ? 0 : blocks->second);
}

absl::StatusOr<void*> MemoryManager::ReserveBlock(int device, size_t size,
                                                  size_t capacity) {
  absl::MutexLock lock(&mu_);
  const size_t in_use = DeviceBytesInUseLocked(device);
  if (size > capacity || in_use > capacity - size) {
    return McStatus(mcErrorMemoryAllocation,
                    absl::StrFormat("memory pool: %u bytes requested, %u of "
                                    "%u bytes of device %d free",
                                    size, capacity - in_use, capacity, device));
  }
  AddressArena* arena = ArenaFor(MemoryKind::kDevice, device);
  if (arena == nullptr) {
    return McStatus(mcErrorMemoryAllocation,
                    "no address space for device memory");
  }
  MX_ASSIGN_OR_RETURN(void* base, arena->Allocate(size));
  block_bytes_[device] += size;
  return base;
}

void MemoryManager::ReleaseBlock(int device, void* base, size_t size) {
  absl::MutexLock lock(&mu_);
  block_bytes_[device] -= size;
  if (AddressArena* arena = ArenaFor(MemoryKind::kDevice, device)) {
    arena->Release(base, size);
  }
}

void MemoryManager::SetPagesAccessible(void* base, size_t size,
                                       bool accessible) {
  ProtectPages(reinterpret_cast<uintptr_t>(base), size,
               accessible ? PROT_READ | PROT_WRITE : PROT_NONE);
}

void MemoryManager::ProtectPages(uintptr_t base, size_t size, int protection) {
  const uintptr_t page = AddressArena::PageSize();
  const uintptr_t first = base / page * page;
  const uintptr_t end = (base + size + page - 1) / page * page;
  mprotect(reinterpret_cast<void*>(first), end - first, protection);
}

absl::Status MemoryManager::RegisterAllocation(const Allocation& allocation) {
  return table_.Insert(allocation);
}

void MemoryManager::SetDeviceAccessible(int device, bool accessible) {
  absl::MutexLock lock(&mu_);  // no allocation is released meanwhile
  // TotalSize visits every live range; the predicate only acts.
  table_.TotalSize([&](const Allocation& a) {
    if (a.kind == MemoryKind::kDevice && a.device == device &&
        a.origin != DeviceOrigin::kStreamOrdered) {
      ProtectPages(a.base, a.size,
                   accessible ? PROT_READ | PROT_WRITE : PROT_NONE);
    }
    return false;
  });
}

void MemoryManager::SetPoolMemoryAccessible(int running_device,
                                            bool accessible) {
  absl::MutexLock lock(&mu_);  // no allocation is released meanwhile
  table_.TotalSize([&](const Allocation& a) {
    if (a.kind == MemoryKind::kDevice &&
        a.origin == DeviceOrigin::kStreamOrdered &&
        a.device != running_device && running_device >= 0 &&
        running_device < 64 && ((a.pool_access >> running_device) & 1) == 0 &&
        a.pages_ready) {
      // A device with read access only may still read.
      const bool readable = ((a.pool_read_access >> running_device) & 1) != 0;
      ProtectPages(a.base, a.size,
                   accessible ? PROT_READ | PROT_WRITE
                   : readable ? PROT_READ
                              : PROT_NONE);
    }
    return false;
  });
}

bool MemoryManager::SetCheckedMode(bool checked) {
  absl::MutexLock lock(&mu_);
  if (!device_arenas_.empty() || host_arena_ != nullptr ||
      managed_arena_ != nullptr) {
    return checked == checked_;
  }
  checked_ = checked;
  return true;
}

bool MemoryManager::checked_mode() const {
  absl::MutexLock lock(&mu_);
  return checked_;
}

std::optional<std::string> MemoryManager::DescribeFault(
    uintptr_t address) const {
  const void* pointer = reinterpret_cast<const void*>(address);
  const AddressArena* arena = nullptr;
  const char* kind = nullptr;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [device, candidate] : device_arenas_) {
      if (candidate != nullptr && candidate->Contains(pointer)) {
        arena = candidate.get();
        kind = MemoryKindName(MemoryKind::kDevice);
      }
    }
    if (host_arena_ != nullptr && host_arena_->Contains(pointer)) {
      arena = host_arena_.get();
      kind = MemoryKindName(MemoryKind::kHost);
    }
    if (managed_arena_ != nullptr && managed_arena_->Contains(pointer)) {
      arena = managed_arena_.get();
      kind = MemoryKindName(MemoryKind::kManaged);
    }
  }
  // Arenas are never destroyed, so `arena` stays valid without the lock.
  if (arena == nullptr) return std::nullopt;
  std::optional<AddressArena::Placement> placement =
      arena->PlacementAround(address);
  if (!placement.has_value()) {
    if (arena->layout() == ArenaLayout::kChecked) {
      return absl::StrFormat(
          "memory violation at 0x%x, in %s where no allocation ever was",
          address, arena->name());
    }
    return absl::StrFormat(
        "memory violation at 0x%x, in %s but in no live allocation (freed, "
        "or out of bounds; MXCTS_MEMCHECK=1 tells which)",
        address, arena->name());
  }
  const uintptr_t base = placement->base;
  const size_t size = placement->size;
  std::string where;
  if (address < base) {
    where = absl::StrFormat("%u bytes before the start", base - address);
  } else if (address >= base + size) {
    where = absl::StrFormat("%u bytes past the end", address - (base + size));
  } else {
    where = absl::StrFormat("byte %u", address - base);
  }
  if (placement->released) {
    // [lang.ub.memory.use-after-free]
    return absl::StrFormat(
        "use of freed %s at 0x%x (%s of the %u-byte allocation at 0x%x)", kind,
        address, where, size, base);
  }
  // [lang.ub.memory.out-of-bounds-global]
  return absl::StrFormat(
      "out-of-bounds access at 0x%x (%s of the %u-byte allocation at 0x%x)",
      address, where, size, base);
}

absl::StatusOr<std::optional<Allocation>> MemoryManager::CheckRange(
    const void* ptr, size_t count, absl::string_view what,
    absl::string_view api) const {
  uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  if (start + count < start) {
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat("%s: the %s range wraps around", api, what));
  }
  std::optional<Allocation> allocation = table_.Find(ptr);
  if (allocation.has_value()) {
    if (count > allocation->end() - start) {
      return McStatus(
          mcErrorInvalidValue,
          absl::StrFormat("%s: %u bytes at %s %p run %u bytes past the end of "
                          "%s of %u bytes",
                          api, count, what, ptr,
                          count - (allocation->end() - start),
                          MemoryKindName(allocation->kind), allocation->size));
    }
    return allocation;
  }
  if (InArena(ptr)) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: %s %p is in no live allocation (was "
                                    "it freed?)",
                                    api, what, ptr));
  }
  return std::optional<Allocation>();
}

absl::Status MemoryManager::Copy(void* dst, const void* src, size_t count,
                                 int kind, absl::string_view api) {
  MX_ASSIGN_OR_RETURN(CopyPlan plan,
                      PlanLinearCopy(dst, src, count, kind, api));
  RunCopy(plan);
  return absl::OkStatus();
}

absl::Status MemoryManager::Set(void* ptr, int value, size_t count,
                                absl::string_view api) {
  MemoryBox box;
  box.width = count;
  MX_ASSIGN_OR_RETURN(SetPlan plan,
                      PlanSet(ptr, count, count, box,
                              static_cast<unsigned char>(value), 1, api));
  RunSet(plan);
  return absl::OkStatus();
}

// --- Interprocess sharing (ipc/) ---

void MemoryManager::SetReleaseObserver(
    std::function<void(const Allocation&)> observer) {
  absl::MutexLock lock(&mu_);
  release_observer_ = std::move(observer);
}

absl::StatusOr<void*> MemoryManager::ReserveMappingRange(int device,
                                                         size_t size) {
  absl::MutexLock lock(&mu_);
  AddressArena* arena = ArenaFor(MemoryKind::kDevice, device);
  if (arena == nullptr) {
    return McStatus(mcErrorMemoryAllocation,
                    "no address space for device memory");
  }
  // A whole number of pages is page aligned in either layout: a checked
  // arena ends it at its guard page.
  return arena->Allocate(size);
}

void MemoryManager::ReleaseMappingRange(int device, void* base, size_t size) {
  absl::MutexLock lock(&mu_);
  if (AddressArena* arena = ArenaFor(MemoryKind::kDevice, device)) {
    arena->Release(base, size);
  }
}

}  // namespace mxcts::runtime
