// Copyright mxcts authors.
//
// The reference backend end to end through the MXMACA rules: the SDK's mxcc
// compiles a kernel and a GoogleTest test, the test links the reference
// runtime, and the kernel's write reaches managed memory. The smallest
// program that exercises every part of the backend target.
#include <gtest/gtest.h>
#include <mc_runtime.h>

namespace {

__global__ void WriteAnswer(int* out) { *out = 42; }

TEST(ReferenceBackend, KernelWritesManagedMemory) {
  int* value = nullptr;
  ASSERT_EQ(mcMallocManaged(reinterpret_cast<void**>(&value), sizeof(int)),
            mcSuccess);
  *value = 0;  // the kernel must change it
  WriteAnswer<<<1, 1>>>(value);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*value, 42);
  EXPECT_EQ(mcFree(value), mcSuccess);
}

}  // namespace
