// Copyright mxcts authors.
//
// The device pass of a small MXMACA source, written as mxcc's translator
// emits it (reference/compiler/design.md, "Rewrites"), so that
// image_runtime_test can link a device image by hand: kernels bodies keep
// their code and touch their records, __shared__ becomes a shared-arena
// binding, a __device__ variable gets its record. The original source:
//
//   __device__ int answer = 42;
//   __global__ void reverse(int* data) {
//     __shared__ int tile[64];
//     tile[threadIdx.x] = data[threadIdx.x];
//     __syncthreads();
//     data[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
//     ...
//   }

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mcr/detail/device_abi.h"
#include "mcr/detail/launch_abi.h"

int answer = 42;
extern "C" __attribute__((used))
const ::__mc_internal::DeviceVariableRecord __mc_variable_record_1 = {
    "answer", (void*)&answer, sizeof(answer), 0};

void reverse(int* data) {
  ::__mc_internal::Touch(&::__mc_internal::DeviceKernel<
                         decltype(static_cast<void (*)(int*)>(&reverse)),
                         static_cast<void (*)(int*)>(&reverse)>::record);
  static char __mc_shared_site_1;
  typedef int __mc_shared_t_1[64];
  __mc_shared_t_1& tile = *static_cast<__mc_shared_t_1*>(
      ::__mc_dev_shared_variable(&__mc_shared_site_1, sizeof(__mc_shared_t_1),
                                 alignof(__mc_shared_t_1)));
  const unsigned t = threadIdx.x;
  tile[t] = data[t] + answer;
  __syncthreads();
  data[t] = tile[blockDim.x - 1 - t];
  if (t == 0) printf("block %u reversed %u values\n", blockIdx.x, blockDim.x);
  if (t == 1) printf("done\n");  // g++ makes this puts("done").
}

void math(float* values) {
  ::__mc_internal::Touch(&::__mc_internal::DeviceKernel<
                         decltype(static_cast<void (*)(float*)>(&math)),
                         static_cast<void (*)(float*)>(&math)>::record);
  values[0] = sinf(values[0]);
  values[1] = sqrtf(values[1]);
  values[2] = powf(values[2], 3.0f);
  values[3] = static_cast<float>(exp(static_cast<double>(values[3])));
  values[4] = floorf(values[4]);
  values[5] = fmaxf(values[5], values[6]);
}

struct Counter {
  int value;
};

void heap(int* out) {
  ::__mc_internal::Touch(&::__mc_internal::DeviceKernel<
                         decltype(static_cast<void (*)(int*)>(&heap)),
                         static_cast<void (*)(int*)>(&heap)>::record);
  Counter* counter = new Counter{static_cast<int>(threadIdx.x)};
  int* block = static_cast<int*>(malloc(4 * sizeof(int)));
  // Keeps the compiler from eliding the allocations.
  __asm__ volatile("" : : "r"(counter), "r"(block) : "memory");
  block[3] = 100;
  out[threadIdx.x] = counter->value + block[3];
  free(block);
  delete counter;
}

void check(int* value) {
  ::__mc_internal::Touch(&::__mc_internal::DeviceKernel<
                         decltype(static_cast<void (*)(int*)>(&check)),
                         static_cast<void (*)(int*)>(&check)>::record);
  assert(*value == 1);
}
