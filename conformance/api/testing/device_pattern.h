// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/device_pattern.h
// -----------------------------------------------------------------------------
//
// Byte patterns that tell which write a byte came from, for tests in which
// several writers (processes, mappings, kernels) touch one allocation:
// pattern `seed` differs from every other seed at every byte. The checks
// report as text ("" when the bytes are right), so that child processes
// (child_process.h) can send them to their parent as well as tests assert
// them.
//
//   ASSERT_EQ(WritePattern(p, 4096, 1), mcSuccess);   // then waits
//   ... another process writes pattern 2 ...
//   EXPECT_EQ(CheckDevicePattern(p, 4096, 2), "");
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_TESTING_DEVICE_PATTERN_H_
#define MXCTS_CONFORMANCE_API_TESTING_DEVICE_PATTERN_H_

#include <mc_runtime.h>

#include <string>
#include <vector>

namespace mxcts::conformance {

// Byte `i` of pattern `seed`: different seeds differ at every byte.
inline unsigned char PatternByte(size_t i, int seed) {
  return static_cast<unsigned char>(i * 7 + static_cast<size_t>(seed) * 61 +
                                    (i >> 8) + 1);
}

// The first `size` bytes of pattern `seed`.
inline std::vector<unsigned char> Pattern(size_t size, int seed) {
  std::vector<unsigned char> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = PatternByte(i, seed);
  return bytes;
}

// "" if the `size` bytes at `host` are pattern `seed`, else the first byte
// that is not.
inline std::string CheckPattern(const unsigned char* host, size_t size,
                                int seed) {
  for (size_t i = 0; i < size; ++i) {
    if (host[i] != PatternByte(i, seed)) {
      return "byte " + std::to_string(i) + " is " + std::to_string(host[i]) +
             ", pattern " + std::to_string(seed) + " has " +
             std::to_string(PatternByte(i, seed)) + "; ";
    }
  }
  return "";
}

// "" if the device memory [device_pointer, + size) holds pattern `seed`
// (read with a synchronous mcMemcpy), else what is wrong, the copy's error
// included.
inline std::string CheckDevicePattern(const void* device_pointer, size_t size,
                                      int seed) {
  std::vector<unsigned char> host(size);
  mcError_t copied =
      mcMemcpy(host.data(), device_pointer, size, mcMemcpyDeviceToHost);
  if (copied != mcSuccess) {
    return std::string("mcMemcpy from the memory returned ") +
           mcGetErrorName(copied) + "; ";
  }
  return CheckPattern(host.data(), size, seed);
}

// Writes pattern `seed` into device memory with mcMemcpy and waits for the
// device (mcDeviceSynchronize); the first error, or mcSuccess.
inline mcError_t WritePattern(void* device_pointer, size_t size, int seed) {
  std::vector<unsigned char> host = Pattern(size, seed);
  mcError_t copied =
      mcMemcpy(device_pointer, host.data(), size, mcMemcpyHostToDevice);
  if (copied != mcSuccess) return copied;
  return mcDeviceSynchronize();
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_DEVICE_PATTERN_H_
