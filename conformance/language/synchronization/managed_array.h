// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/language/synchronization/managed_array.h
// -----------------------------------------------------------------------------
//
// ManagedArray<T>: an array in managed memory that device code writes and
// the host checks after synchronizing, filled with a sentinel first so that
// a slot the device never wrote is told apart from one it wrote.
//
//   ManagedArray<int> seen(threads, /*fill=*/-1);
//   ASSERT_TRUE(seen.ok());
//   Kernel<<<1, threads>>>(seen.data());
//   ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
//   EXPECT_EQ(seen[0], 42);
//
// For MXMACA test sources (host code). The destructor frees the memory and
// ignores the result, so it is harmless after a trap made errors sticky.

#ifndef MXCTS_CONFORMANCE_LANGUAGE_SYNCHRONIZATION_MANAGED_ARRAY_H_
#define MXCTS_CONFORMANCE_LANGUAGE_SYNCHRONIZATION_MANAGED_ARRAY_H_

#include <mc_runtime.h>

#include <cstddef>

namespace mxcts::conformance {

template <typename T>
class ManagedArray {
 public:
  // `size` elements, each set to `fill`; ok() is false if the allocation
  // failed.
  ManagedArray(size_t size, T fill) : size_(size) {
    void* memory = nullptr;
    if (mcMallocManaged(&memory, size * sizeof(T)) != mcSuccess) return;
    data_ = static_cast<T*>(memory);
    for (size_t i = 0; i < size; ++i) data_[i] = fill;
  }
  ~ManagedArray() {
    if (data_ != nullptr) (void)mcFree(data_);
  }
  ManagedArray(const ManagedArray&) = delete;
  ManagedArray& operator=(const ManagedArray&) = delete;

  bool ok() const { return data_ != nullptr; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_LANGUAGE_SYNCHRONIZATION_MANAGED_ARRAY_H_
