// Copyright mxcts authors.
//
// Graph allocations (graph_memory.h): a block of the device's pages with
// one allocation registered in it, as a pool's block holds one.
//
// Tested by graph_test.cc and the conformance tests of api-graph.md.

#include "reference/runtime/graphs/graph_memory.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/memory/address_arena.h"
#include "reference/runtime/memory/memory_manager.h"

namespace mxcts::runtime {

absl::StatusOr<std::shared_ptr<GraphAllocation>> GraphAllocation::Create(
    int device, size_t size) {
  MX_ASSIGN_OR_RETURN(Device * owner, DeviceTable::Get().DeviceAt(device));
  const size_t page = AddressArena::PageSize();
  std::shared_ptr<GraphAllocation> made(new GraphAllocation());
  made->device_ = device;
  made->size_ = size;
  made->reserved_ = (size + page - 1) / page * page;
  MemoryManager& memory = MemoryManager::Get();
  MX_ASSIGN_OR_RETURN(made->address_,
                      memory.ReserveBlock(device, made->reserved_,
                                          owner->properties().totalGlobalMem));
  Allocation allocation;
  allocation.base = reinterpret_cast<uintptr_t>(made->address_);
  allocation.size = size;
  allocation.kind = MemoryKind::kDevice;
  allocation.device = device;
  allocation.origin = DeviceOrigin::kGraph;
  absl::Status registered = memory.RegisterAllocation(allocation);
  if (!registered.ok()) {
    memory.ReleaseBlock(device, made->address_, made->reserved_);
    made->address_ = nullptr;
    return registered;
  }
  GraphMemory::Get().Add(made);
  return made;
}

GraphAllocation::~GraphAllocation() {
  if (address_ == nullptr) return;
  GraphMemory::Get().Remove(this);
  MemoryManager& memory = MemoryManager::Get();
  memory.UnregisterRange(address_);
  memory.ReleaseBlock(device_, address_, reserved_);
}

GraphMemory& GraphMemory::Get() {
  static GraphMemory* memory = new GraphMemory();
  return *memory;
}

void GraphMemory::Add(const std::shared_ptr<GraphAllocation>& allocation) {
  absl::MutexLock lock(&mu_);
  live_[allocation->address()] = allocation;
}

void GraphMemory::Remove(GraphAllocation* allocation) {
  absl::MutexLock lock(&mu_);
  live_.erase(allocation->address());
}

bool GraphMemory::Outstanding(const void* address) const {
  absl::MutexLock lock(&mu_);
  return outstanding_.count(address) > 0;
}

void GraphMemory::SetOutstanding(
    const std::shared_ptr<GraphAllocation>& allocation, bool outstanding) {
  // The last reference may go here: released after the lock, since the
  // allocation's destructor takes it.
  std::shared_ptr<GraphAllocation> released;
  absl::MutexLock lock(&mu_);
  if (outstanding) {
    outstanding_[allocation->address()] = allocation;
    return;
  }
  auto it = outstanding_.find(allocation->address());
  if (it == outstanding_.end()) return;
  released = std::move(it->second);
  outstanding_.erase(it);
}

std::shared_ptr<GraphAllocation> GraphMemory::Find(const void* address) const {
  absl::MutexLock lock(&mu_);
  auto it = live_.find(address);
  if (it == live_.end()) return nullptr;
  return it->second.lock();
}

absl::Status GraphMemory::Free(const void* address, const char* api) {
  std::shared_ptr<GraphAllocation> released;
  {
    absl::MutexLock lock(&mu_);
    auto it = outstanding_.find(address);
    if (it == outstanding_.end()) {
      return McStatus(mcErrorInvalidValue,
                      absl::StrFormat("%s: the graph allocation %p is not "
                                      "allocated (its graph has not run, or "
                                      "it was freed)",
                                      api, address));
    }
    released = std::move(it->second);
    outstanding_.erase(it);
  }
  return absl::OkStatus();
}

}  // namespace mxcts::runtime
