// Copyright mxcts authors.
//
// Conformance: printf, malloc, free, assert and the math library called
// from device code resolve to their device versions, not to the host C
// library's (docs/spec/lang-function-spaces.md,
// lang.function.call.device-library-functions). Each is told apart from
// the host version by what only the device version does: device printf
// returns the number of arguments, not of characters; device malloc
// allocates from the device heap, whose size mcLimitMallocHeapSize bounds,
// and its memory outlives the kernel; a failed device assert stops the
// kernel with mcErrorAssert instead of aborting the process. The host
// versions, called here from host code, are the controls.

#include <assert.h>
#include <mc_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

__global__ void PrintAndCount(int* out) {
  out[0] = printf("device %d %d\n", 10, 20);
}

TEST(DeviceLibraryFunctions, PrintfIsTheDeviceVersion) {
  MX_SPEC("lang.function.call.device-library-functions");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(int)), mcSuccess);
  ::testing::internal::CaptureStdout();
  PrintAndCount<<<1, 1>>>(out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // Control: the host printf of the same text returns its length.
  const int host_result = std::printf("device %d %d\n", 10, 20);
  std::fflush(stdout);
  const std::string output = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(out[0], 2);  // two arguments
  EXPECT_EQ(host_result, 13);
  EXPECT_EQ(output, "device 10 20\ndevice 10 20\n");
  mcFree(out);
}

// Allocates `bytes` on the device heap, writes to it and keeps it in
// `*kept` (null if malloc failed).
__global__ void AllocateOnDevice(size_t bytes, int** kept) {
  int* block = static_cast<int*>(malloc(bytes));
  if (block != nullptr) block[0] = 77;
  *kept = block;
}

__global__ void ReadBack(int* const* kept, int* out) { *out = (*kept)[0]; }

__global__ void FreeOnDevice(int** kept) {
  free(*kept);
  *kept = nullptr;
}

TEST(DeviceLibraryFunctions, MallocAndFreeUseTheDeviceHeap) {
  MX_SPEC("lang.function.call.device-library-functions");
  int** slots = nullptr;
  ASSERT_EQ(mcMallocManaged(&slots, 2 * sizeof(int*)), mcSuccess);
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(int)), mcSuccess);
  size_t heap = 0;
  ASSERT_EQ(mcDeviceGetLimit(&heap, mcLimitMallocHeapSize), mcSuccess);
  ASSERT_GT(heap, 0u);
  slots[0] = slots[1] = nullptr;
  // More than the whole device heap: device malloc returns null. Control:
  // the host's malloc of the same size succeeds.
  AllocateOnDevice<<<1, 1>>>(2 * heap, &slots[0]);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(slots[0], nullptr);
  void* host_block = std::malloc(2 * heap);
  EXPECT_NE(host_block, nullptr);
  std::free(host_block);
  // A small block outlives its kernel: another kernel reads it, a third
  // frees it.
  AllocateOnDevice<<<1, 1>>>(64, &slots[1]);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_NE(slots[1], nullptr);
  ReadBack<<<1, 1>>>(&slots[1], out);
  FreeOnDevice<<<1, 1>>>(&slots[1]);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*out, 77);
  EXPECT_EQ(slots[1], nullptr);
  mcFree(out);
  mcFree(slots);
}

__global__ void AssertPositive(int value) { assert(value > 0); }

mcError_t RunAssert(int value) {
  AssertPositive<<<1, 1>>>(value);
  return mcDeviceSynchronize();
}

TEST(DeviceLibraryFunctions, FailedAssertStopsTheKernelNotTheProcess) {
  MX_SPEC("lang.function.call.device-library-functions");
  // The host's assert would abort the child process instead.
  MX_EXPECT_TRAP(RunAssert(-1), mcErrorAssert, "value > 0");
}

TEST(DeviceLibraryFunctions, ControlAssertThatHoldsRuns) {
  MX_SPEC("lang.function.call.device-library-functions");
  MX_EXPECT_NO_TRAP(RunAssert(1));
}

__global__ void MathFunctions(float* out, float x) {
  out[0] = sqrtf(x);
  out[1] = sinf(0.0f) + cosf(0.0f);
  out[2] = fmaxf(x, 20.0f);
  out[3] = static_cast<float>(abs(-7));
}

TEST(DeviceLibraryFunctions, MathLibraryCallsCompute) {
  MX_SPEC("lang.function.call.device-library-functions");
  float* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 4 * sizeof(float)), mcSuccess);
  MathFunctions<<<1, 1>>>(out, 16.0f);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 4.0f);
  EXPECT_EQ(out[1], 1.0f);
  EXPECT_EQ(out[2], 20.0f);
  EXPECT_EQ(out[3], 7.0f);
  MathFunctions<<<1, 1>>>(out, 25.0f);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // Control: the results follow the argument.
  EXPECT_EQ(out[0], 5.0f);
  EXPECT_EQ(out[2], 25.0f);
  mcFree(out);
}

}  // namespace
