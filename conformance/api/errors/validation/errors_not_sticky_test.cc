// Copyright mxcts authors.
//
// Conformance: argument errors change nothing and are not sticky
// (docs/spec/api-errors.md, api.error.return.invalid-call-changes-nothing
// and api.error.sticky.argument-errors-not-sticky). Each test makes one bad
// call, checks its error, checks that what the call would have changed is
// as it was, clears the last error, and then makes the control: the same
// call with the argument fixed (or other work on the device) succeeds.

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

class ArgumentError : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    mcGetLastError();
  }
  void TearDown() override {
    mcSetDevice(0);
    mcGetLastError();
  }
  // The error was recorded, clears it, and the device still works.
  void ExpectRecordedAndNotSticky(mcError_t error) {
    EXPECT_EQ(mcGetLastError(), error);
    EXPECT_EQ(mcGetLastError(), mcSuccess);
    EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
    void* p = nullptr;
    EXPECT_EQ(mcMalloc(&p, 64), mcSuccess);
    EXPECT_EQ(mcFree(p), mcSuccess);
  }
};

TEST_F(ArgumentError, SetDeviceOutOfRangeKeepsTheCurrentDevice) {
  MX_SPEC("api.error.return.invalid-call-changes-nothing",
          "api.error.sticky.argument-errors-not-sticky");
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  EXPECT_EQ(mcSetDevice(count), mcErrorInvalidDevice);
  int current = -1;
  ASSERT_EQ(mcGetDevice(&current), mcSuccess);
  EXPECT_EQ(current, 0);
  ExpectRecordedAndNotSticky(mcErrorInvalidDevice);
  EXPECT_EQ(mcSetDevice(count - 1), mcSuccess);  // control
}

TEST_F(ArgumentError, HugeMallocAllocatesNothing) {
  MX_SPEC("api.error.return.invalid-call-changes-nothing",
          "api.error.sticky.argument-errors-not-sticky");
  void* p = nullptr;
  EXPECT_EQ(mcMalloc(&p, size_t{1} << 60), mcErrorMemoryAllocation);
  ExpectRecordedAndNotSticky(mcErrorMemoryAllocation);
}

// A bad call on `bytes` of device memory filled with `fill`, which must
// leave every byte as it was, and the same call with the argument fixed
// (which frees the memory where `fixed_frees`).
struct DeviceMemoryCall {
  const char* name;
  size_t bytes;
  char fill;
  mcError_t error;
  mcError_t (*bad)(char* device);
  mcError_t (*fixed)(char* device);
  bool fixed_frees;
};

// What the copies copy: bytes no fill value equals.
constexpr char kHostBytes[256] = {};

const DeviceMemoryCall kDeviceMemoryCalls[] = {
    {"FreeOfAnInteriorPointerKeepsTheAllocation", 256, 5, mcErrorInvalidValue,
     [](char* device) { return mcFree(device + 16); },
     [](char* device) { return mcFree(device); }, true},
    {"CopyPastTheEndCopiesNothing", 100, 3, mcErrorInvalidValue,
     [](char* device) {
       return mcMemcpy(device, kHostBytes, 101, mcMemcpyHostToDevice);
     },
     [](char* device) {
       return mcMemcpy(device, kHostBytes, 100, mcMemcpyHostToDevice);
     },
     false},
    {"CopyWithAnInvalidKindCopiesNothing", 64, 1, mcErrorInvalidMemcpyDirection,
     [](char* device) {
       return mcMemcpy(device, kHostBytes, 64, static_cast<mcMemcpyKind>(6));
     },
     [](char* device) {
       return mcMemcpy(device, kHostBytes, 64, mcMemcpyHostToDevice);
     },
     false},
    {"MemsetPastTheEndSetsNothing", 64, 2, mcErrorInvalidValue,
     [](char* device) { return mcMemset(device + 1, 7, 64); },
     [](char* device) { return mcMemset(device + 1, 7, 63); }, false},
};

class DeviceMemoryArgumentError
    : public ArgumentError,
      public testing::WithParamInterface<DeviceMemoryCall> {};

TEST_P(DeviceMemoryArgumentError, LeavesTheMemoryAsItWas) {
  MX_SPEC("api.error.return.invalid-call-changes-nothing",
          "api.error.sticky.argument-errors-not-sticky");
  const DeviceMemoryCall& call = GetParam();
  char* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, call.bytes), mcSuccess);
  ASSERT_EQ(mcMemset(device, call.fill, call.bytes), mcSuccess);
  EXPECT_EQ(call.bad(device), call.error);
  std::vector<char> read(call.bytes);
  ASSERT_EQ(mcMemcpy(read.data(), device, call.bytes, mcMemcpyDeviceToHost),
            mcSuccess);
  for (char c : read) ASSERT_EQ(c, call.fill);
  ExpectRecordedAndNotSticky(call.error);
  EXPECT_EQ(call.fixed(device), mcSuccess);  // control
  if (!call.fixed_frees) mcFree(device);
}

INSTANTIATE_TEST_SUITE_P(
    Calls, DeviceMemoryArgumentError, testing::ValuesIn(kDeviceMemoryCalls),
    [](const testing::TestParamInfo<DeviceMemoryCall>& info) {
      return std::string(info.param.name);
    });

TEST_F(ArgumentError, DestroyingAStreamTwiceLeavesOtherStreams) {
  MX_SPEC("api.error.return.invalid-call-changes-nothing",
          "api.error.sticky.argument-errors-not-sticky");
  mcStream_t gone = nullptr, live = nullptr;
  ASSERT_EQ(mcStreamCreate(&gone), mcSuccess);
  ASSERT_EQ(mcStreamCreate(&live), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(gone), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(gone), mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcStreamSynchronize(live), mcSuccess);
  ExpectRecordedAndNotSticky(mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcStreamDestroy(live), mcSuccess);
}

__global__ void SetFlag(int* flag) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *flag = 1;
}

TEST_F(ArgumentError, RejectedLaunchRunsNothing) {
  MX_SPEC("api.error.return.invalid-call-changes-nothing",
          "api.error.sticky.argument-errors-not-sticky");
  int* flag = nullptr;
  ASSERT_EQ(mcMallocManaged(&flag, sizeof(int)), mcSuccess);
  *flag = 0;
  SetFlag<<<1, 4096>>>(flag);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*flag, 0);
  ExpectRecordedAndNotSticky(mcErrorInvalidConfiguration);
  SetFlag<<<1, 1024>>>(flag);  // control
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*flag, 1);
  mcFree(flag);
}

TEST_F(ArgumentError, InvalidAttributeLeavesTheValue) {
  MX_SPEC("api.error.return.invalid-call-changes-nothing",
          "api.error.sticky.argument-errors-not-sticky");
  int value = -12345;
  EXPECT_EQ(
      mcDeviceGetAttribute(&value, static_cast<mcDeviceAttribute_t>(0), 0),
      mcErrorInvalidValue);
  EXPECT_EQ(value, -12345);
  ExpectRecordedAndNotSticky(mcErrorInvalidValue);
  EXPECT_EQ(
      mcDeviceGetAttribute(&value, mcDeviceAttributeMaxThreadsPerBlock, 0),
      mcSuccess);
  EXPECT_GT(value, 0);
}

TEST_F(ArgumentError, InvalidDeviceForCanAccessPeerLeavesTheResult) {
  MX_SPEC("api.error.return.invalid-call-changes-nothing",
          "api.error.sticky.argument-errors-not-sticky");
  int count = 0;
  ASSERT_EQ(mcGetDeviceCount(&count), mcSuccess);
  int can = -7;
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, count, 0), mcErrorInvalidDevice);
  EXPECT_EQ(can, -7);
  ExpectRecordedAndNotSticky(mcErrorInvalidDevice);
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, 0, 0), mcSuccess);
  EXPECT_EQ(can, 0);
}

TEST_F(ArgumentError, PeerAccessErrorsEnableNothing) {
  MX_SPEC("api.error.return.invalid-call-changes-nothing",
          "api.error.sticky.argument-errors-not-sticky");
  MX_REQUIRE_CAPABILITY("peer_access");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  EXPECT_EQ(mcDeviceEnablePeerAccess(1, 4), mcErrorInvalidValue);
  // Nothing was enabled: disabling says so.
  EXPECT_EQ(mcDeviceDisablePeerAccess(1), mcErrorPeerAccessNotEnabled);
  ExpectRecordedAndNotSticky(mcErrorPeerAccessNotEnabled);
  EXPECT_EQ(mcDeviceEnablePeerAccess(1, 0), mcSuccess);  // control
  EXPECT_EQ(mcDeviceDisablePeerAccess(1), mcSuccess);
}

TEST_F(ArgumentError, PeerCopyErrorCopiesNothing) {
  MX_SPEC("api.error.return.invalid-call-changes-nothing",
          "api.error.sticky.argument-errors-not-sticky");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  char* on0 = nullptr;
  char* on1 = nullptr;
  ASSERT_EQ(mcMalloc(&on0, 128), mcSuccess);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcMalloc(&on1, 128), mcSuccess);
  ASSERT_EQ(mcMemset(on1, 4, 128), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);  // device 1's set is done
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  ASSERT_EQ(mcMemset(on0, 6, 128), mcSuccess);
  // The destination is named as memory of device 0, but lives on 1.
  EXPECT_EQ(mcMemcpyPeer(on1, 0, on0, 0, 128), mcErrorInvalidValue);
  char read[128];
  ASSERT_EQ(mcMemcpy(read, on1, 128, mcMemcpyDeviceToHost), mcSuccess);
  for (char c : read) ASSERT_EQ(c, 4);
  ExpectRecordedAndNotSticky(mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpyPeer(on1, 1, on0, 0, 128), mcSuccess);  // control
  ASSERT_EQ(mcMemcpy(read, on1, 128, mcMemcpyDeviceToHost), mcSuccess);
  for (char c : read) ASSERT_EQ(c, 6);
  mcFree(on0);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  mcFree(on1);
}

TEST_F(ArgumentError, InvalidHostAllocationFlagsAllocateNothing) {
  MX_SPEC("api.error.return.invalid-call-changes-nothing",
          "api.error.sticky.argument-errors-not-sticky");
  void* p = nullptr;
  EXPECT_EQ(mcMallocHost(&p, 64, 0x80u), mcErrorInvalidValue);
  EXPECT_EQ(p, nullptr);
  ExpectRecordedAndNotSticky(mcErrorInvalidValue);
  EXPECT_EQ(mcMallocHost(&p, 64, mcMallocHostDefault), mcSuccess);
  EXPECT_NE(p, nullptr);
  mcFreeHost(p);
}

TEST_F(ArgumentError, ManagedAllocationOfZeroBytesAllocatesNothing) {
  MX_SPEC("api.error.return.invalid-call-changes-nothing",
          "api.error.sticky.argument-errors-not-sticky");
  void* p = nullptr;
  EXPECT_EQ(mcMallocManaged(&p, 0), mcErrorInvalidValue);
  EXPECT_EQ(p, nullptr);
  ExpectRecordedAndNotSticky(mcErrorInvalidValue);
  EXPECT_EQ(mcMallocManaged(&p, 64), mcSuccess);
  mcFree(p);
}

}  // namespace
