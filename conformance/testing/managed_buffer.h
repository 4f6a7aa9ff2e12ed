// Copyright mxcts authors.
//
// ManagedBuffer<T>: `count` elements of managed memory whose every byte is
// set to `fill_byte` first, freed on scope exit. Kernels write results into
// it and the host reads them after synchronizing; a byte pattern that no
// result has (0x5a, 0xff) tells a slot the device never wrote from one it
// wrote, whatever T is. The allocation is checked with EXPECT_EQ, so a
// failed one fails the test and leaves get() null.
//
//   ManagedBuffer<int> out(threads, 0xff);
//   Kernel<<<1, threads>>>(out.get());
//   ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
//   EXPECT_EQ(out[0], 42);
//
// For MXMACA test sources (host code). The destructor ignores mcFree's
// result, so it is harmless after a trap made errors sticky.

#ifndef MXCTS_CONFORMANCE_TESTING_MANAGED_BUFFER_H_
#define MXCTS_CONFORMANCE_TESTING_MANAGED_BUFFER_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <cstddef>
#include <cstring>

namespace mxcts::conformance {

template <class T>
class ManagedBuffer {
 public:
  explicit ManagedBuffer(size_t count, int fill_byte = 0) : count_(count) {
    EXPECT_EQ(mcMallocManaged(&data_, count * sizeof(T)), mcSuccess);
    if (data_ != nullptr)
      std::memset(static_cast<void*>(data_), fill_byte, count * sizeof(T));
  }
  ~ManagedBuffer() { (void)mcFree(data_); }
  ManagedBuffer(const ManagedBuffer&) = delete;
  ManagedBuffer& operator=(const ManagedBuffer&) = delete;

  T* get() { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  size_t size() const { return count_; }

 private:
  T* data_ = nullptr;
  size_t count_;
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_MANAGED_BUFFER_H_
