// Copyright mxcts authors.
//
// First fit over a map of free ranges ordered by offset: Allocate takes the
// lowest free range that is long enough and splits it; Free reinserts the
// block and merges it with its neighbours, so free ranges never touch. The
// region is mapped without reserving swap on the first allocation, so an
// unused heap costs nothing.
//
// Tested by device_heap_test.cc.

#include "reference/device/services/device_heap.h"

#include <sys/mman.h>

#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "reference/device/engine.h"
#include "reference/device/scheduling/trap.h"

namespace mxcts::device_internal {
namespace {

size_t RoundDown(size_t value) {
  return value / DeviceHeap::kAlignment * DeviceHeap::kAlignment;
}

}  // namespace

DeviceHeap::DeviceHeap(size_t capacity) : capacity_(RoundDown(capacity)) {}

DeviceHeap::~DeviceHeap() {
  absl::MutexLock lock(&mutex_);
  Unmap();
}

bool DeviceHeap::EnsureMapped() {
  if (region_ != nullptr) return true;
  if (capacity_ == 0) return false;
  void* region = mmap(nullptr, capacity_, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) return false;
  region_ = static_cast<char*>(region);
  free_.clear();
  free_.emplace(0, capacity_);
  return true;
}

void DeviceHeap::Unmap() {
  if (region_ != nullptr) munmap(region_, capacity_);
  region_ = nullptr;
  free_.clear();
  live_.clear();
  live_bytes_ = 0;
}

void* DeviceHeap::Allocate(size_t size) {
  absl::MutexLock lock(&mutex_);
  used_ = true;
  if (!EnsureMapped()) return nullptr;
  if (size > capacity_) return nullptr;
  // A zero-byte request gets a unique block of its own.
  const size_t length = RoundDown(size + kAlignment - 1 + (size == 0));
  for (auto range = free_.begin(); range != free_.end(); ++range) {
    if (range->second < length) continue;
    const size_t offset = range->first;
    const size_t rest = range->second - length;
    free_.erase(range);
    if (rest > 0) free_.emplace(offset + length, rest);
    live_.emplace(offset, length);
    live_bytes_ += length;
    return region_ + offset;
  }
  return nullptr;
}

absl::Status DeviceHeap::Free(void* pointer) {
  absl::MutexLock lock(&mutex_);
  // [lang.malloc.heap.resize-after-use-is-invalid-value] Every call of
  // free is a use of the heap, free(NULL) included.
  used_ = true;
  if (pointer == nullptr) return absl::OkStatus();
  const char* address = static_cast<const char*>(pointer);
  auto block = live_.end();
  if (region_ != nullptr && address >= region_ &&
      address < region_ + capacity_) {
    block = live_.find(static_cast<size_t>(address - region_));
  }
  if (block == live_.end()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "free(%p): not a block of the device heap, or freed already", pointer));
  }
  size_t offset = block->first;
  size_t length = block->second;
  live_.erase(block);
  live_bytes_ -= length;
  // [lang.malloc.free.returns-memory-to-heap] Merge with the neighbours.
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && next->first == offset + length) {
    length += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == offset) {
      offset = previous->first;
      length += previous->second;
      free_.erase(previous);
    }
  }
  free_.emplace(offset, length);
  return absl::OkStatus();
}

bool DeviceHeap::SetCapacity(size_t capacity) {
  absl::MutexLock lock(&mutex_);
  if (!live_.empty()) return false;
  Unmap();
  capacity_ = RoundDown(capacity);
  return true;
}

void DeviceHeap::Clear() {
  absl::MutexLock lock(&mutex_);
  Unmap();
}

size_t DeviceHeap::capacity() const {
  absl::MutexLock lock(&mutex_);
  return capacity_;
}

size_t DeviceHeap::live_bytes() const {
  absl::MutexLock lock(&mutex_);
  return live_bytes_;
}

size_t DeviceHeap::live_blocks() const {
  absl::MutexLock lock(&mutex_);
  return live_.size();
}

bool DeviceHeap::Contains(const void* pointer) const {
  absl::MutexLock lock(&mutex_);
  const char* address = static_cast<const char*>(pointer);
  return region_ != nullptr && address >= region_ &&
         address < region_ + capacity_;
}

bool DeviceHeap::used() const {
  absl::MutexLock lock(&mutex_);
  return used_;
}

void DeviceHeap::ResetUse() {
  absl::MutexLock lock(&mutex_);
  used_ = false;
}

DeviceHeap& TheDeviceHeap() {
  // [lang.malloc.heap.default-size]
  static DeviceHeap* const heap =
      new DeviceHeap(device::kDefaultDeviceHeapBytes);
  return *heap;
}

void* DeviceMalloc(size_t size) { return TheDeviceHeap().Allocate(size); }

void DeviceFree(void* pointer) {
  absl::Status freed = TheDeviceHeap().Free(pointer);
  if (!freed.ok()) {
    std::string message(freed.message());
    freed = absl::OkStatus();  // The trap never returns to free the status.
    // [lang.malloc.free.double-free-undefined]
    // [lang.malloc.free.foreign-pointer-undefined]
    Trap(mcErrorLaunchFailure, std::move(message));
  }
}

}  // namespace mxcts::device_internal
