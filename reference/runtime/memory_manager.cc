// Copyright mxcts authors.
//
// The memory manager joins the arenas (where memory comes from) and the
// allocation table (what each range is). Arenas are reserved on first use:
// one per device, sized twice the device's memory so that guard pages and
// released-but-not-reused ranges never make a fitting request fail; one for
// page-locked host memory; one for managed memory.
//
// Pointer checks, in the order a copy applies them:
//   1. the kind is an mcMemcpyKind (else mcErrorInvalidMemcpyDirection);
//   2. nothing to do for count 0, whatever the pointers
//      [api.memory.memcpy.count-zero];
//   3. no null pointer [api.memory.memcpy.null-pointer];
//   4. each side: inside a live range and not running past its end
//      [api.memory.memcpy.past-end-of-allocation], or, if the runtime does
//      not know it, not inside a runtime arena (a stale pointer)
//      [api.memory.lifetime.freed-pointer-in-api];
//   5. the device side of an explicit kind is runtime memory
//      [api.memory.memcpy.device-side-not-device-memory].
// mcMemcpyDefault and mcMemcpyHostToHost have no device side to check
// [api.memory.memcpy.kind-default-infers]. A copy in the wrong direction
// between known ranges is undefined and is performed as written.
//
// Tested by memory_manager_test.cc.

#include "reference/runtime/memory_manager.h"

#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/device_config.h"
#include "reference/runtime/error_mapping.h"
#include "reference/runtime/status_macros.h"

namespace mxcts::runtime {
namespace {

constexpr size_t kDeviceArenaBytes = 2 * config::kTotalGlobalMem;
constexpr size_t kHostArenaBytes = size_t{64} << 30;
constexpr size_t kManagedArenaBytes = size_t{128} << 30;

bool IsMemcpyKind(int kind) {
  return kind >= mcMemcpyHostToHost && kind <= mcMemcpyDefault;
}

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
  size_t in_use = table_.TotalSize([device](const Allocation& a) {
    return a.kind == MemoryKind::kDevice && a.device == device;
  });
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
  if (AddressArena* arena = ArenaFor(allocation.kind, allocation.device)) {
    arena->Release(reinterpret_cast<void*>(allocation.base), allocation.size);
  }
}

absl::Status MemoryManager::Free(void* base,
                                 std::initializer_list<MemoryKind> kinds,
                                 absl::string_view api) {
  absl::MutexLock lock(&mu_);
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
  table_.Erase(base);
  ReleaseToArena(*found);
  return absl::OkStatus();
}

void MemoryManager::ReleaseDevice(int device) {
  absl::MutexLock lock(&mu_);
  std::vector<Allocation> released =
      table_.EraseIf([device](const Allocation& a) {
        return a.device == device &&
               (a.kind == MemoryKind::kDevice || a.kind == MemoryKind::kHost ||
                a.kind == MemoryKind::kManaged);
      });
  for (const Allocation& allocation : released) ReleaseToArena(allocation);
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

void MemoryManager::UnregisterRange(void* base) { table_.Erase(base); }

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
  return table_.TotalSize([device](const Allocation& a) {
    return a.kind == MemoryKind::kDevice && a.device == device;
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
  if (!IsMemcpyKind(kind)) {  // [api.memory.memcpy.invalid-kind]
    return McStatus(mcErrorInvalidMemcpyDirection,
                    absl::StrCat(api, ": ", kind, " is not an mcMemcpyKind"));
  }
  if (count == 0) return absl::OkStatus();
  if (dst == nullptr || src == nullptr) {
    return McStatus(
        mcErrorInvalidValue,
        absl::StrCat(api, ": the ", dst == nullptr ? "destination" : "source",
                     " is null"));
  }
  MX_ASSIGN_OR_RETURN(std::optional<Allocation> to,
                      CheckRange(dst, count, "destination", api));
  MX_ASSIGN_OR_RETURN(std::optional<Allocation> from,
                      CheckRange(src, count, "source", api));
  bool device_dst =
      kind == mcMemcpyHostToDevice || kind == mcMemcpyDeviceToDevice;
  bool device_src =
      kind == mcMemcpyDeviceToHost || kind == mcMemcpyDeviceToDevice;
  if ((device_dst && !to.has_value()) || (device_src && !from.has_value())) {
    return McStatus(
        mcErrorInvalidValue,
        absl::StrFormat(
            "%s: the %s %p of this copy kind must be device, "
            "managed or page-locked memory, but the runtime does "
            "not know it",
            api, device_dst && !to.has_value() ? "destination" : "source",
            device_dst && !to.has_value() ? dst : src));
  }
  std::memmove(dst, src, count);
  return absl::OkStatus();
}

absl::Status MemoryManager::Set(void* ptr, int value, size_t count,
                                absl::string_view api) {
  if (count == 0) return absl::OkStatus();  // [api.memory.memset.count-zero]
  if (ptr == nullptr) {
    return McStatus(mcErrorInvalidValue, absl::StrCat(api, ": ptr is null"));
  }
  MX_ASSIGN_OR_RETURN(std::optional<Allocation> target,
                      CheckRange(ptr, count, "destination", api));
  if (!target.has_value()) {  // [api.memory.memset.not-device-memory]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%s: %p is not device, managed or "
                                    "page-locked memory",
                                    api, ptr));
  }
  std::memset(ptr, value, count);
  return absl::OkStatus();
}

}  // namespace mxcts::runtime
