// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/device_testing.h
// -----------------------------------------------------------------------------
//
// What the device API's conformance tests share (docs/spec/api-device.md),
// in device/execution and device/validation: the pointers that are not
// kernels, which the kernel attribute and occupancy calls refuse, a fixture
// of tests parameterized over them, and whether the backend supports a
// limit.
//
//   class GetAttributes : public NonKernelTest {};
//   TEST_P(GetAttributes, IsInvalidDeviceFunction) {
//     mcFuncAttributes a;
//     EXPECT_EQ(mcFuncGetAttributes(&a, pointer()),
//               mcErrorInvalidDeviceFunction);
//   }
//   INSTANTIATE_TEST_SUITE_P(Pointers, GetAttributes,
//                            testing::ValuesIn(NotKernels()), NotAKernelName);
//
// Host code only; included by sources the backend's driver compiles, which
// supplies <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_TESTING_DEVICE_TESTING_H_
#define MXCTS_CONFORMANCE_API_TESTING_DEVICE_TESTING_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

namespace mxcts::conformance {

// A pointer that is not a kernel, and its test name.
struct NotAKernel {
  const char* name;
  const void* pointer;
};

// What the host cases point at.
inline void NotAKernelHostFunction(int*) {}
inline int not_a_kernel_host_data = 0;

// A host function, null and host data. A test that has a kernel adds a
// pointer into it.
inline std::vector<NotAKernel> NotKernels() {
  return {
      {"HostFunction", reinterpret_cast<const void*>(&NotAKernelHostFunction)},
      {"Null", nullptr},
      {"HostData", &not_a_kernel_host_data},
  };
}

inline std::string NotAKernelName(
    const testing::TestParamInfo<NotAKernel>& info) {
  return info.param.name;
}

// A test of calls given a pointer that is not a kernel; clears the error
// they record at the end.
class NonKernelTest : public testing::TestWithParam<NotAKernel> {
 protected:
  void TearDown() override { mcGetLastError(); }
  const void* pointer() const { return GetParam().pointer; }
};

// Whether the current device supports `limit`: if so, *value is its value;
// if not (mcErrorUnsupportedLimit), the last error is cleared.
inline bool LimitSupported(mcLimit limit, size_t* value) {
  if (mcDeviceGetLimit(value, limit) != mcErrorUnsupportedLimit) return true;
  mcGetLastError();
  return false;
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_DEVICE_TESTING_H_
