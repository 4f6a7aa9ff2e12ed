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
// variable's alignment makes an aligned address.
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

size_t RoundUp(size_t value, size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

}  // namespace

SharedArena::SharedArena()
    : page_bytes_(static_cast<size_t>(sysconf(_SC_PAGESIZE))) {
  const size_t total =
      page_bytes_ + RoundUp(kArenaBytes, page_bytes_) + page_bytes_;
  void* region = mmap(nullptr, total, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) {
    std::fputs("mxmaca: cannot map the shared memory arena\n", stderr);
    std::abort();
  }
  // The arena ends exactly at the upper guard page.
  char* upper_guard = static_cast<char*>(region) + total - page_bytes_;
  base_ = upper_guard - kArenaBytes;
  char* first_page = static_cast<char*>(region) + page_bytes_;
  if (mprotect(first_page, upper_guard - first_page, PROT_READ | PROT_WRITE) !=
      0) {
    std::fputs("mxmaca: cannot map the shared memory arena\n", stderr);
    std::abort();
  }
  dynamic_offset_ = kArenaBytes;
}

SharedArena::~SharedArena() {
  const size_t total =
      page_bytes_ + RoundUp(kArenaBytes, page_bytes_) + page_bytes_;
  munmap(base_ + kArenaBytes + page_bytes_ - total, total);
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
  static_end_ = 0;
  layout_.clear();
  return absl::OkStatus();
}

void SharedArena::BeginBlock() {
  std::memset(base_, kFreshByte, static_end_);
  std::memset(base_ + dynamic_offset_, kFreshByte,
              kArenaBytes - dynamic_offset_);
}

absl::StatusOr<void*> SharedArena::Variable(const void* site, size_t size,
                                            size_t alignment) {
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
    return base_ + slot.offset;
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
  layout_.emplace(site, Slot{offset, size, alignment});
  std::memset(base_ + static_end_, kFreshByte, offset + size - static_end_);
  static_end_ = offset + size;
  return base_ + offset;
}

}  // namespace mxcts::device_internal

extern "C" void* __mc_dev_shared_variable(const void* site, size_t size,
                                          size_t alignment) {
  using namespace mxcts::device_internal;
  ActiveGrid* grid = CurrentGrid();
  if (grid == nullptr || grid->arena == nullptr) {
    DieOutsideGrid("a __shared__ variable", "<unknown>", 0);
  }
  absl::StatusOr<void*> address = grid->arena->Variable(site, size, alignment);
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
