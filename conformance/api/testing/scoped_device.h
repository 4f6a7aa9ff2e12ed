// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/scoped_device.h
// -----------------------------------------------------------------------------
//
// The calling thread's current device, and a scope that makes another
// device current and restores the one before, for the stream, event,
// callback and timeline conformance tests (the memory tests have their own,
// memory::ScopedDevice, in memory_testing.h).
//
//   {
//     ScopedDevice on1(1);
//     ASSERT_TRUE(on1.ok());
//     CurrentDevice();  // 1
//   }                   // the device current before is current again
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_TESTING_SCOPED_DEVICE_H_
#define MXCTS_CONFORMANCE_API_TESTING_SCOPED_DEVICE_H_

#include <mc_runtime.h>

namespace mxcts::conformance {

// The current device of the calling thread, or -1 if mcGetDevice fails.
inline int CurrentDevice() {
  int device = -1;
  if (mcGetDevice(&device) != mcSuccess) return -1;
  return device;
}

// Makes `device` the calling thread's current device until the end of the
// scope, then restores the one before (if there was one). ok() says whether
// mcSetDevice(device) succeeded.
class ScopedDevice {
 public:
  explicit ScopedDevice(int device) : previous_(CurrentDevice()) {
    result_ = mcSetDevice(device);
  }
  ~ScopedDevice() {
    if (previous_ >= 0) mcSetDevice(previous_);
  }
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;

  bool ok() const { return result_ == mcSuccess; }

 private:
  int previous_;
  mcError_t result_;
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_SCOPED_DEVICE_H_
