// Copyright mxcts authors.
//
// conformance/api/testing/memory_testing.h: buffers of every kind of
// memory for the memory API's conformance tests (docs/spec/api-memory.md),
// in memory/ and multi_device/ (execution and validation).
//
// A Buffer holds `size` bytes of one kind: pageable host memory, memory
// from mcMallocHost, pageable memory registered with mcHostRegister, device
// memory of device 0 or 1, or managed memory. It fills itself with a known
// pattern, and reads itself back only after every device has finished its
// work, so a test's verdict never depends on when queued work runs (the
// tests hold under any timeline the API permits); FirstChange() is the
// check that a refused call left it as it was. TwoDeviceTest and
// PeerAccessTest are the fixtures of the tests between devices 0 and 1.
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.
//
//   TEST_P(Copy, Bytes) {
//     MX_SPEC("api.memory.memcpy.copies-bytes");
//     MX_REQUIRE_MEMORY_KIND(GetParam());
//     Buffer buffer(GetParam(), 4096);
//     ASSERT_TRUE(buffer.ok());
//     EXPECT_EQ(buffer.Read(), Pattern(4096, buffer.seed()));
//   }

#ifndef MXCTS_CONFORMANCE_API_TESTING_MEMORY_TESTING_H_
#define MXCTS_CONFORMANCE_API_TESTING_MEMORY_TESTING_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"

namespace mxcts::conformance::memory {

enum class Kind {
  kPageable,    // malloc
  kPinned,      // mcMallocHost
  kRegistered,  // malloc, then mcHostRegister
  kDevice,      // mcMalloc on device 0
  kPeer,        // mcMalloc on device 1
  kManaged,     // mcMallocManaged
};

inline const std::vector<Kind>& AllKinds() {
  static const std::vector<Kind> kinds = {Kind::kPageable,   Kind::kPinned,
                                          Kind::kRegistered, Kind::kDevice,
                                          Kind::kPeer,       Kind::kManaged};
  return kinds;
}

// The kinds the runtime knows (every kind but pageable memory).
inline const std::vector<Kind>& RuntimeKinds() {
  static const std::vector<Kind> kinds = {Kind::kPinned, Kind::kRegistered,
                                          Kind::kDevice, Kind::kPeer,
                                          Kind::kManaged};
  return kinds;
}

inline const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kPageable:
      return "Pageable";
    case Kind::kPinned:
      return "Pinned";
    case Kind::kRegistered:
      return "Registered";
    case Kind::kDevice:
      return "Device";
    case Kind::kPeer:
      return "PeerDevice";
    case Kind::kManaged:
      return "Managed";
  }
  return "Unknown";
}

// Host memory (pageable or page-locked): the host side of an explicit kind.
inline bool IsHostKind(Kind kind) {
  return kind == Kind::kPageable || kind == Kind::kPinned ||
         kind == Kind::kRegistered;
}

// The explicit mcMemcpyKind naming a copy from `src` to `dst` (managed
// memory counts as device memory).
inline mcMemcpyKind ExplicitKind(Kind dst, Kind src) {
  if (IsHostKind(src)) {
    return IsHostKind(dst) ? mcMemcpyHostToHost : mcMemcpyHostToDevice;
  }
  return IsHostKind(dst) ? mcMemcpyDeviceToHost : mcMemcpyDeviceToDevice;
}

// Skips the test unless the backend has what memory of `kind` needs.
#define MX_REQUIRE_MEMORY_KIND(kind)                              \
  do {                                                            \
    if ((kind) == ::mxcts::conformance::memory::Kind::kManaged) { \
      MX_REQUIRE_CAPABILITY("managed_memory");                    \
    }                                                             \
    if ((kind) == ::mxcts::conformance::memory::Kind::kPeer) {    \
      MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);          \
    }                                                             \
  } while (false)

// `n` bytes that differ from those of another seed at almost every offset.
inline std::vector<unsigned char> Pattern(size_t n, unsigned seed) {
  std::vector<unsigned char> bytes(n);
  uint32_t state = seed * 2654435761u + 12345u;
  for (size_t i = 0; i < n; ++i) {
    state = state * 1103515245u + 12345u;
    bytes[i] = static_cast<unsigned char>(state >> 16);
  }
  return bytes;
}

// Waits for every device's work; restores the current device.
inline void SynchronizeAllDevices() {
  int current = 0;
  int count = 0;
  ASSERT_EQ(mcGetDevice(&current), mcSuccess);
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  for (int device = 0; device < count; ++device) {
    ASSERT_EQ(mcSetDevice(device), mcSuccess);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess) << "device " << device;
  }
  ASSERT_EQ(mcSetDevice(current), mcSuccess);
}

// The current device's free memory, as mcMemGetInfo reports it (the check
// that a refused allocation allocated nothing).
inline size_t FreeMemory() {
  size_t free = 0, total = 0;
  EXPECT_EQ(mcMemGetInfo(&free, &total), mcSuccess);
  return free;
}

// Makes `device` current for the life of the object.
class ScopedDevice {
 public:
  explicit ScopedDevice(int device) {
    mcGetDevice(&previous_);
    ok_ = mcSetDevice(device) == mcSuccess;
  }
  ~ScopedDevice() { mcSetDevice(previous_); }
  bool ok() const { return ok_; }

 private:
  int previous_ = 0;
  bool ok_ = false;
};

// A test of devices 0 and 1, skipped where there is one device: device 0
// is current and the last error clear when the test starts and again when
// it ends.
class TwoDeviceTest : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    mcGetLastError();
  }
  void TearDown() override {
    mcSetDevice(0);
    mcGetLastError();
  }
};

// A TwoDeviceTest of peer access between the two, skipped where the
// backend has none.
class PeerAccessTest : public TwoDeviceTest {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("peer_access");
    TwoDeviceTest::SetUp();
  }
};

// `size` bytes of memory of one kind, filled with Pattern(size, seed).
class Buffer {
 public:
  Buffer(Kind kind, size_t size, unsigned seed = 1)
      : kind_(kind), size_(size), seed_(seed) {
    const size_t bytes = size == 0 ? 1 : size;
    switch (kind) {
      case Kind::kPageable:
        data_ = static_cast<unsigned char*>(std::malloc(bytes));
        break;
      case Kind::kPinned:
        ok_ = mcMallocHost(&data_, bytes) == mcSuccess;
        break;
      case Kind::kRegistered:
        data_ = static_cast<unsigned char*>(std::malloc(bytes));
        ok_ = data_ != nullptr &&
              mcHostRegister(data_, bytes, mcHostRegisterDefault) == mcSuccess;
        registered_ = ok_;
        break;
      case Kind::kDevice:
        ok_ = mcMalloc(&data_, bytes) == mcSuccess;
        break;
      case Kind::kPeer: {
        ScopedDevice on1(1);
        ok_ = on1.ok() && mcMalloc(&data_, bytes) == mcSuccess;
        break;
      }
      case Kind::kManaged:
        ok_ = mcMallocManaged(&data_, bytes) == mcSuccess;
        break;
    }
    if (kind == Kind::kPageable) ok_ = data_ != nullptr;
    if (ok_) Write(0, Pattern(size, seed));
  }
  ~Buffer() {
    if (data_ == nullptr) return;
    SynchronizeAllDevices();
    switch (kind_) {
      case Kind::kPageable:
        std::free(data_);
        break;
      case Kind::kRegistered:
        if (registered_) {
          EXPECT_EQ(mcHostUnregister(data_), mcSuccess);
        }
        std::free(data_);
        break;
      case Kind::kPinned:
        EXPECT_EQ(mcFreeHost(data_), mcSuccess);
        break;
      default:
        EXPECT_EQ(mcFree(data_), mcSuccess);
        break;
    }
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  bool ok() const { return ok_; }
  Kind kind() const { return kind_; }
  unsigned char* data() const { return data_; }
  size_t size() const { return size_; }
  unsigned seed() const { return seed_; }
  // The bytes the buffer was filled with.
  std::vector<unsigned char> Initial() const { return Pattern(size_, seed_); }
  // "" if the buffer still holds the bytes it was filled with, else where
  // it first differs (the check that a refused call changed nothing).
  std::string FirstChange() const;

  // Stores `bytes` at `offset`, complete on return.
  void Write(size_t offset, const std::vector<unsigned char>& bytes) {
    if (bytes.empty()) return;
    SynchronizeAllDevices();
    if (IsHostKind(kind_)) {
      std::memcpy(data_ + offset, bytes.data(), bytes.size());
      return;
    }
    ASSERT_EQ(mcMemcpy(data_ + offset, bytes.data(), bytes.size(),
                       mcMemcpyHostToDevice),
              mcSuccess);
    SynchronizeAllDevices();
  }

  // The buffer's bytes once every device's work has completed.
  std::vector<unsigned char> Read() const {
    std::vector<unsigned char> bytes(size_);
    SynchronizeAllDevices();
    if (size_ == 0) return bytes;
    if (IsHostKind(kind_)) {
      std::memcpy(bytes.data(), data_, size_);
    } else {
      EXPECT_EQ(mcMemcpy(bytes.data(), data_, size_, mcMemcpyDeviceToHost),
                mcSuccess);
    }
    return bytes;
  }

 private:
  Kind kind_;
  size_t size_;
  unsigned seed_;
  unsigned char* data_ = nullptr;
  bool ok_ = false;
  bool registered_ = false;
};

// The first offset where `got` and `want` differ, as a message, or "".
inline std::string FirstDifference(const std::vector<unsigned char>& got,
                                   const std::vector<unsigned char>& want) {
  if (got.size() != want.size()) {
    return "sizes " + std::to_string(got.size()) + " and " +
           std::to_string(want.size());
  }
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) {
      return "byte " + std::to_string(i) + ": " + std::to_string(got[i]) +
             " instead of " + std::to_string(want[i]);
    }
  }
  return "";
}

inline std::string Buffer::FirstChange() const {
  return FirstDifference(Read(), Initial());
}

}  // namespace mxcts::conformance::memory

#endif  // MXCTS_CONFORMANCE_API_TESTING_MEMORY_TESTING_H_
