// Copyright mxcts authors.
//
// The protection is page protection of the allocations themselves
// (MemoryManager::SetDeviceAccessible): in checked mode every allocation
// owns its pages alone, between guard pages, so protecting them hides
// nothing else. Which devices are protected is decided once, when the grid
// starts, from the peer access table; enabling access while the grid runs
// takes effect with the next grid, as peer access takes effect for work
// issued after it on hardware.
//
// The fault handler learns what is protected from two atomics (the running
// device, a mask of protected devices) rather than from the object, so that
// it needs no lock of this file; the allocation itself is found in the
// allocation table, whose lock device code never holds. A fault is
// reported as a peer access only while the grid runs and only for a device
// the mask names: a stray pointer into the device's own memory keeps its
// out-of-bounds or use-after-free explanation.
//
// Tested by peer_protection_test.cc.

#include "reference/runtime/peer/peer_protection.h"

#include <atomic>

#include "absl/strings/str_format.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/memory/allocation_table.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/peer/peer_access.h"

namespace mxcts::runtime {
namespace {

// Devices are numbered below kMaskBits (at most 16 are simulated).
constexpr int kMaskBits = 64;

// The device whose grid runs under protection, or -1.
std::atomic<int> running_device{-1};
// Bit d: device d's memory is protected from that grid.
std::atomic<uint64_t> protected_mask{0};

}  // namespace

PeerProtection::PeerProtection(int device) : device_(device) {
  MemoryManager& memory = MemoryManager::Get();
  if (!memory.checked_mode()) return;
  const int count = DeviceTable::Get().device_count();
  PeerAccessTable& peers = PeerAccessTable::Get();
  uint64_t mask = 0;
  for (int other = 0; other < count && other < kMaskBits; ++other) {
    // [api.peer.enable.grants-access] [api.peer.enable.one-directional]
    if (other == device || peers.IsEnabled(device, other)) continue;
    memory.SetDeviceAccessible(other, false);
    protected_devices_.push_back(other);
    mask |= uint64_t{1} << other;
  }
  // [api.pool.access.set-grants-peer] Pool memory is reached as its pool
  // allows, whatever the peer access.
  memory.SetPoolMemoryAccessible(device, false);
  protects_pools_ = true;
  protected_mask.store(mask);
  running_device.store(device);
}

PeerProtection::~PeerProtection() {
  if (!protects_pools_) return;
  running_device.store(-1);
  protected_mask.store(0);
  MemoryManager& memory = MemoryManager::Get();
  for (int other : protected_devices_) memory.SetDeviceAccessible(other, true);
  memory.SetPoolMemoryAccessible(device_, true);
}

std::optional<std::string> DescribePeerFault(uintptr_t address) {
  const int device = running_device.load();
  const uint64_t mask = protected_mask.load();
  if (device < 0) return std::nullopt;
  std::optional<Allocation> allocation =
      MemoryManager::Get().Find(reinterpret_cast<const void*>(address));
  if (allocation.has_value() && allocation->kind == MemoryKind::kDevice &&
      allocation->origin == DeviceOrigin::kStreamOrdered &&
      allocation->device != device &&
      ((allocation->pool_access >> device) & 1) == 0) {
    // [api.pool.access.without-access-undefined]
    return absl::StrFormat(
        "memory of a pool of device %d accessed from a kernel on device %d, "
        "which the pool gives no access (0x%x, byte %u of the %u-byte "
        "stream-ordered allocation at 0x%x; mcMemPoolSetAccess grants it, "
        "peer access does not)",
        allocation->device, device, address, address - allocation->base,
        allocation->size, allocation->base);
  }
  if (mask == 0) return std::nullopt;
  if (!allocation.has_value() || allocation->kind != MemoryKind::kDevice ||
      allocation->device < 0 || allocation->device >= kMaskBits ||
      ((mask >> allocation->device) & 1) == 0) {
    return std::nullopt;
  }
  // [lang.ub.memory.peer-pointer-without-access]
  return absl::StrFormat(
      "device memory of device %d accessed from a kernel on device %d "
      "without peer access (0x%x, byte %u of the %u-byte allocation at 0x%x; "
      "mcDeviceEnablePeerAccess(%d, 0) on device %d grants it)",
      allocation->device, device, address, address - allocation->base,
      allocation->size, allocation->base, allocation->device, device);
}

}  // namespace mxcts::runtime
