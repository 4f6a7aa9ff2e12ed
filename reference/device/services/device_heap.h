// Copyright mxcts authors.
//
// reference/device/services/device_heap.h: the heap of device malloc and free.
//
// A bounded region (mcLimitMallocHeapSize bytes, 8 MiB at first) mapped on
// first use and carved first-fit into 16-byte aligned blocks. The allocator's
// bookkeeping lives outside the region, so device code that writes past its
// block cannot corrupt it, and every allocated byte counts against the
// limit: the live blocks never total more than the heap's size.
// Allocations outlive the grid that made them; any thread of any later grid
// may free them. [lang.malloc.lifetime.persists-across-launches]
//
//   DeviceHeap heap(8 << 20);
//   void* p = heap.Allocate(100);  // null when the heap is exhausted
//   absl::Status freed = heap.Free(p);

#ifndef REFERENCE_DEVICE_SERVICES_DEVICE_HEAP_H_
#define REFERENCE_DEVICE_SERVICES_DEVICE_HEAP_H_

#include <stddef.h>

#include <map>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"

namespace mxcts::device_internal {

// Thread safe.
class DeviceHeap {
 public:
  // Every block is aligned to this. [lang.malloc.alloc.aligned-to-16]
  static constexpr size_t kAlignment = 16;

  // A heap of `capacity` bytes (rounded down to kAlignment).
  explicit DeviceHeap(size_t capacity);
  ~DeviceHeap();

  DeviceHeap(const DeviceHeap&) = delete;
  DeviceHeap& operator=(const DeviceHeap&) = delete;

  // A block of at least `size` bytes with indeterminate contents, or null if
  // none is free. malloc(0) returns a unique block that free accepts.
  // [lang.malloc.alloc.zero-size] [lang.malloc.alloc.null-when-exhausted]
  void* Allocate(size_t size);

  // Returns the block at `pointer` to the heap; null is a no-op
  // [lang.malloc.free.null-is-no-op] that still counts as a use (used()).
  // InvalidArgument, and no change, for a pointer that is not a live block
  // of this heap (a double free, a foreign or interior pointer).
  absl::Status Free(void* pointer);

  // Changes the capacity: false, and no change, while blocks are live.
  bool SetCapacity(size_t capacity);

  // Frees every block at once (device reset).
  void Clear();

  size_t capacity() const;
  // The bytes of the live blocks, rounding included.
  size_t live_bytes() const;
  size_t live_blocks() const;
  // Whether `pointer` lies in the heap's region.
  bool Contains(const void* pointer) const;
  // Whether Allocate or Free was called since construction or ResetUse.
  bool used() const;
  void ResetUse();

 private:
  // Maps the region if that has not happened yet; false if it fails.
  bool EnsureMapped() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void Unmap() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  mutable absl::Mutex mutex_;
  size_t capacity_ ABSL_GUARDED_BY(mutex_);
  char* region_ ABSL_GUARDED_BY(mutex_) = nullptr;
  // Free ranges, offset to length, never adjacent (coalesced on free).
  std::map<size_t, size_t> free_ ABSL_GUARDED_BY(mutex_);
  // Live blocks, offset to length.
  absl::flat_hash_map<size_t, size_t> live_ ABSL_GUARDED_BY(mutex_);
  size_t live_bytes_ ABSL_GUARDED_BY(mutex_) = 0;
  bool used_ ABSL_GUARDED_BY(mutex_) = false;
};

// The engine's device heap, kDefaultDeviceHeapBytes at first.
DeviceHeap& TheDeviceHeap();

// Device malloc and free as the image table offers them: free traps for a
// pointer that is not a live block. [lang.malloc.free.double-free-undefined]
void* DeviceMalloc(size_t size);
void DeviceFree(void* pointer);

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_SERVICES_DEVICE_HEAP_H_
