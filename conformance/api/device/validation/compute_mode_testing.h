// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/device/validation/compute_mode_testing.h
// -----------------------------------------------------------------------------
//
// What the compute mode tests share: the device in a given mode, and the
// calls that need a context on a device, each checked against the error
// expected. Defines a kernel, so one per test binary.
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_DEVICE_VALIDATION_COMPUTE_MODE_TESTING_H_
#define MXCTS_CONFORMANCE_API_DEVICE_VALIDATION_COMPUTE_MODE_TESTING_H_

#include <mc_runtime.h>

#include <string>

#include "conformance/api/testing/expect_error.h"

namespace mxcts::conformance {

inline int ComputeMode(int device) {
  int mode = -1;
  if (mcDeviceGetAttribute(&mode, mcDeviceAttributeComputeMode, device) !=
      mcSuccess) {
    return -1;
  }
  return mode;
}

// The first device in `mode`, or -1.
inline int DeviceInMode(int mode) {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return -1;
  for (int device = 0; device < count; ++device) {
    if (ComputeMode(device) == mode) return device;
  }
  return -1;
}

__global__ void Store(int* out) { *out = 1; }

// The calls that need a context on `device`, each expected to return
// `expected`.
inline std::string UseDevice(int device, mcError_t expected) {
  std::string problems;
  problems += Expect("mcSetDevice", mcSetDevice(device), mcSuccess);
  int* p = nullptr;
  problems += Expect("mcMalloc", mcMalloc(&p, sizeof(int)), expected);
  mcStream_t stream = nullptr;
  problems += Expect("mcStreamCreate", mcStreamCreate(&stream), expected);
  Store<<<1, 1>>>(p);
  problems += Expect("the launch", mcGetLastError(), expected);
  if (expected == mcSuccess) {
    problems += Expect("mcDeviceSynchronize", mcDeviceSynchronize(), mcSuccess);
    mcStreamDestroy(stream);
    mcFree(p);
  }
  mcGetLastError();
  mcSetDevice(0);
  return problems;
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_DEVICE_VALIDATION_COMPUTE_MODE_TESTING_H_
