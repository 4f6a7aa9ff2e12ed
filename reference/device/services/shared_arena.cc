// Copyright mxcts authors.
//
// One arena serves every block, since blocks run one after another; the
// per-block state is the garbage fill at block start. The layout (site to
// offset) belongs to the grid. The device entry points below find the arena
// of the running block through the active grid.
//
// Static variables are placed first-come in the order the grid's threads
// first reach their declarations, each at the lowest offset that suits its
// alignment; the arena's base is page aligned, so an offset aligned to the
// variable's alignment makes an aligned address. A checked arena keeps the
// same offsets for its budget but places each variable on pages of its own
// in a large reserved region, end-aligned against a gap.
//
// Tested by shared_arena_test.cc.

#include "reference/device/services/shared_arena.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "reference/device/engine.h"
#include "reference/device/scheduling/thread_context.h"
#include "reference/device/scheduling/trap.h"

namespace mxcts::device_internal {
namespace {

constexpr size_t kArenaBytes = device::kSharedBytesPerBlock;
// The address space a checked arena reserves: room for thousands of
// variables, each with its pages and its gap. Reserved, never committed.
constexpr size_t kCheckedRegionBytes = size_t{4} << 30;

size_t RoundUp(size_t value, size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

[[noreturn]] void CannotMap() {
  std::fputs("mxmaca: cannot map the shared memory arena\n", stderr);
  std::abort();
}

}  // namespace

SharedArena::SharedArena(bool checked)
    : checked_(checked),
      page_bytes_(static_cast<size_t>(sysconf(_SC_PAGESIZE))) {
  if (checked_) {
    MapChecked();
    return;
  }
  mapped_bytes_ = page_bytes_ + RoundUp(kArenaBytes, page_bytes_) + page_bytes_;
  void* region = mmap(nullptr, mapped_bytes_, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) CannotMap();
  region_begin_ = static_cast<char*>(region);
  // The arena ends exactly at the upper guard page.
  char* upper_guard = region_begin_ + mapped_bytes_ - page_bytes_;
  base_ = upper_guard - kArenaBytes;
  char* first_page = region_begin_ + page_bytes_;
  if (mprotect(first_page, upper_guard - first_page, PROT_READ | PROT_WRITE) !=
      0) {
    CannotMap();
  }
  dynamic_offset_ = kArenaBytes;
  dynamic_area_ = base_ + kArenaBytes;
}

void SharedArena::MapChecked() {
  mapped_bytes_ = kCheckedRegionBytes;
  void* region = mmap(nullptr, mapped_bytes_, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) CannotMap();
  region_begin_ = static_cast<char*>(region);
  base_ = region_begin_;
  // A gap below the first placement too.
  next_free_ = region_begin_ + kCheckedGapBytes;
  dynamic_offset_ = kArenaBytes;
  dynamic_area_ = next_free_;
}

SharedArena::~SharedArena() { munmap(region_begin_, mapped_bytes_); }

absl::StatusOr<char*> SharedArena::PlaceChecked(size_t size, size_t alignment) {
  const size_t pages = RoundUp(size == 0 ? 1 : size, page_bytes_);
  char* const end_of_region = region_begin_ + mapped_bytes_;
  if (static_cast<size_t>(end_of_region - next_free_) <
      pages + kCheckedGapBytes) {
    return absl::ResourceExhaustedError(
        "too many __shared__ variables for the checked layout");
  }
  char* const first = next_free_;
  if (mprotect(first, pages, PROT_READ | PROT_WRITE) != 0) CannotMap();
  next_free_ = first + pages + kCheckedGapBytes;
  // End-aligned: a type's size is a multiple of its alignment, so the end
  // of its last page is where it ends.
  const uintptr_t end = reinterpret_cast<uintptr_t>(first + pages);
  return reinterpret_cast<char*>((end - size) & ~(uintptr_t{alignment} - 1));
}

absl::Status SharedArena::BeginGrid(size_t dynamic_bytes) {
  // [lang.variable.shared.extern-alignment] 16-byte aligned start.
  const size_t rounded = RoundUp(dynamic_bytes, 16);
  if (dynamic_bytes > kArenaBytes || rounded > kArenaBytes) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%u bytes of dynamic shared memory exceed the %u bytes of a block",
        dynamic_bytes, kArenaBytes));
  }
  // [lang.variable.shared.extern-disjoint-from-static]
  dynamic_offset_ = kArenaBytes - rounded;
  dynamic_bytes_ = rounded;
  static_end_ = 0;
  layout_.clear();
  if (!checked_) {
    dynamic_area_ = base_ + dynamic_offset_;
    return absl::OkStatus();
  }
  // The previous grid's pages go back to inaccessible and uncommitted.
  char* const used_begin = region_begin_ + kCheckedGapBytes;
  if (next_free_ > used_begin) {
    mprotect(used_begin, next_free_ - used_begin, PROT_NONE);
    madvise(used_begin, next_free_ - used_begin, MADV_DONTNEED);
  }
  next_free_ = used_begin;
  absl::StatusOr<char*> area = PlaceChecked(rounded, 16);
  if (!area.ok()) return area.status();
  dynamic_area_ = *area;
  return absl::OkStatus();
}

void SharedArena::BeginBlock() {
  // Empty fills are skipped, not passed to memset: the C library fills a
  // short length with a masked vector store, and one with an empty mask at
  // an address that is not mapped (an arena without dynamic memory has a
  // null dynamic area) costs the processor a microcode assist of hundreds
  // of cycles, a large share of a small block's cost.
  if (!checked_) {
    if (static_end_ != 0) std::memset(base_, kFreshByte, static_end_);
  } else {
    for (const auto& [site, slot] : layout_) {
      std::memset(slot.address, kFreshByte, slot.size);
    }
  }
  if (dynamic_bytes_ != 0) {
    std::memset(dynamic_area_, kFreshByte, dynamic_bytes_);
  }
}

absl::StatusOr<void*> SharedArena::Variable(const void* site, size_t size,
                                            size_t alignment,
                                            const char* name) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 ||
      alignment > page_bytes_) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "a __shared__ variable asks for alignment %u", alignment));
  }
  auto found = layout_.find(site);
  if (found != layout_.end()) {
    const Slot& slot = found->second;
    if (slot.size != size || slot.alignment != alignment) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "one __shared__ declaration asked for %u bytes aligned to %u, and "
          "now for %u bytes aligned to %u",
          slot.size, slot.alignment, size, alignment));
    }
    // [lang.variable.shared.one-instance-per-block]
    return slot.address;
  }
  // [lang.variable.shared.static-variables-disjoint]
  const size_t offset = RoundUp(static_end_, alignment);
  if (offset > dynamic_offset_ || size > dynamic_offset_ - offset) {
    // [lang.launch.limit.shared-memory-exceeds-max]
    // [lang.variable.shared.static-size-limit]
    return absl::ResourceExhaustedError(absl::StrFormat(
        "__shared__ variables of %u bytes (with this one of %u bytes) and "
        "%u bytes of dynamic shared memory exceed the %u bytes of shared "
        "memory of a block",
        offset + size, size, kArenaBytes - dynamic_offset_, kArenaBytes));
  }
  char* address = base_ + offset;
  if (checked_) {
    absl::StatusOr<char*> placed = PlaceChecked(size, alignment);
    if (!placed.ok()) return placed.status();
    address = *placed;
    std::memset(address, kFreshByte, size);
  } else {
    std::memset(base_ + static_end_, kFreshByte, offset + size - static_end_);
  }
  layout_.emplace(site, Slot{address, size, alignment, name});
  static_end_ = offset + size;
  return address;
}

bool SharedArena::DescribeFault(uintptr_t address,
                                std::string* description) const {
  const uintptr_t begin = reinterpret_cast<uintptr_t>(region_begin_);
  if (address < begin || address - begin >= mapped_bytes_) return false;
  // The nearest variable (or the dynamic area) that ends at or below the
  // address: the one the access ran past.
  const char* what = nullptr;
  std::string named;
  uintptr_t end = 0;
  size_t size = 0;
  for (const auto& [site, slot] : layout_) {
    const uintptr_t slot_end =
        reinterpret_cast<uintptr_t>(slot.address) + slot.size;
    if (slot_end <= address && slot_end >= end) {
      end = slot_end;
      size = slot.size;
      named = slot.name != nullptr
                  ? absl::StrFormat("__shared__ variable '%s'", slot.name)
                  : std::string("a __shared__ variable");
      what = named.c_str();
    }
  }
  const uintptr_t dynamic_end =
      reinterpret_cast<uintptr_t>(dynamic_area_) + dynamic_bytes_;
  if (dynamic_end <= address && dynamic_end >= end) {
    end = dynamic_end;
    size = dynamic_bytes_;
    what = "the dynamic shared memory (extern __shared__)";
  }
  if (what == nullptr) {
    *description = absl::StrFormat(
        "out-of-bounds access to shared memory at 0x%x, below every "
        "__shared__ variable",
        address);
  } else {
    *description = absl::StrFormat(
        "out-of-bounds access to shared memory at 0x%x, %u bytes past the end "
        "of %s (%u bytes)",
        address, address - end, what, size);
  }
  return true;
}

}  // namespace mxcts::device_internal

extern "C" void* __mc_dev_shared_variable(const void* site, size_t size,
                                          size_t alignment, const char* name) {
  using namespace mxcts::device_internal;
  ActiveGrid* grid = CurrentGrid();
  if (grid == nullptr || grid->arena == nullptr) {
    DieOutsideGrid("a __shared__ variable", "<unknown>", 0);
  }
  absl::StatusOr<void*> address =
      grid->arena->Variable(site, size, alignment, name);
  if (!address.ok()) {
    const mcError_t error =
        address.status().code() == absl::StatusCode::kResourceExhausted
            ? mcErrorInvalidConfiguration
            : mcErrorLaunchFailure;
    std::string message(address.status().message());
    address = nullptr;  // The trap never returns to free the status.
    Trap(error, std::move(message));
  }
  return *address;
}

extern "C" void* __mc_dev_dynamic_shared(void) {
  using namespace mxcts::device_internal;
  ActiveGrid* grid = CurrentGrid();
  if (grid == nullptr || grid->arena == nullptr) {
    DieOutsideGrid("an extern __shared__ array", "<unknown>", 0);
  }
  // [lang.variable.shared.extern-sized-by-ns]
  // [lang.variable.shared.extern-arrays-same-address]
  return grid->arena->dynamic_area();
}
