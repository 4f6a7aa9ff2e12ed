// Copyright mxcts authors.
//
// Conformance: the address of a __device__ function taken in device code,
// called through a function pointer (docs/spec/lang-function-spaces.md,
// lang.function.address.device-function-pointer): the result equals a
// direct call's. The pointer is chosen at run time, per thread, from a
// table and from a conditional, so a call that ignored the pointer would
// give the same result to every thread (the control).

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace {

using BinaryOp = int (*)(int, int);

__device__ int Add(int a, int b) { return a + b; }
__device__ int Subtract(int a, int b) { return a - b; }
__device__ int Multiply(int a, int b) { return a * b; }

// Calls `op` through a pointer parameter.
__device__ int Apply(BinaryOp op, int a, int b) { return op(a, b); }

__global__ void CallThroughPointers(int* direct, int* indirect, int* chosen) {
  const BinaryOp table[3] = {&Add, &Subtract, Multiply};
  const int t = static_cast<int>(threadIdx.x);
  const int which = t % 3;
  const int a = t + 10;
  const int b = t + 2;
  direct[t] = which == 0   ? Add(a, b)
              : which == 1 ? Subtract(a, b)
                           : Multiply(a, b);
  indirect[t] = Apply(table[which], a, b);
  BinaryOp op = (t % 2 == 0) ? &Add : &Multiply;
  chosen[t] = op(a, b);
}

TEST(DeviceFunctionPointer, CallThroughPointerEqualsDirectCall) {
  MX_SPEC("lang.function.address.device-function-pointer");
  constexpr int kThreads = 12;
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 3 * kThreads * sizeof(int)), mcSuccess);
  int* direct = out;
  int* indirect = out + kThreads;
  int* chosen = out + 2 * kThreads;
  CallThroughPointers<<<1, kThreads>>>(direct, indirect, chosen);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(indirect[t], direct[t]) << "thread " << t;
    const int a = t + 10;
    const int b = t + 2;
    EXPECT_EQ(chosen[t], t % 2 == 0 ? a + b : a * b) << "thread " << t;
  }
  // Control: the three functions give three different results.
  EXPECT_EQ(indirect[0], 12);
  EXPECT_EQ(indirect[1], 8);
  EXPECT_EQ(indirect[2], 48);
  mcFree(out);
}

// A device function pointer stored in device memory by one kernel and
// called by another.
__device__ BinaryOp stored_op = nullptr;

__global__ void StoreOperation(int which) {
  stored_op = which == 0 ? &Add : &Multiply;
}

__global__ void CallStoredOperation(int* out) { *out = stored_op(6, 7); }

TEST(DeviceFunctionPointer, PointerStoredInDeviceMemoryCallsTheFunction) {
  MX_SPEC("lang.function.address.device-function-pointer");
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 2 * sizeof(int)), mcSuccess);
  StoreOperation<<<1, 1>>>(0);
  CallStoredOperation<<<1, 1>>>(out);
  StoreOperation<<<1, 1>>>(1);
  CallStoredOperation<<<1, 1>>>(out + 1);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], 13);
  EXPECT_EQ(out[1], 42);
  mcFree(out);
}

}  // namespace
