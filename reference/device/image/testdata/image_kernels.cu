// Copyright mxcts authors.
//
// A small MXMACA source whose device image (mxcc --offload-device-only, the
// :test_image rule) image_runtime_test loads by hand: a __device__ variable,
// shared memory and __syncthreads, printf (one call g++ makes into puts),
// math, the device heap and assert.

#include <assert.h>
#include <math.h>
#include <mc_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__device__ int answer = 42;

__global__ void reverse(int* data) {
  __shared__ int tile[64];
  const unsigned t = threadIdx.x;
  tile[t] = data[t] + answer;
  __syncthreads();
  data[t] = tile[blockDim.x - 1 - t];
  if (t == 0) printf("block %u reversed %u values\n", blockIdx.x, blockDim.x);
  if (t == 1) printf("done\n");  // g++ makes this puts("done").
}

__global__ void math(float* values) {
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

__global__ void heap(int* out) {
  Counter* counter = new Counter{static_cast<int>(threadIdx.x)};
  int* block = static_cast<int*>(malloc(4 * sizeof(int)));
  // Keeps the compiler from eliding the allocations.
  __asm__ volatile("" : : "r"(counter), "r"(block) : "memory");
  block[3] = 100;
  out[threadIdx.x] = counter->value + block[3];
  free(block);
  delete counter;
}

__global__ void check(int* value) { assert(*value == 1); }
