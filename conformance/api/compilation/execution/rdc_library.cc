// Copyright mxcts authors.
//
// Relocatable device code of a library (mxmaca_library with rdc = True):
// what rdc_library.h declares, and a `static` kernel and variable whose
// names the test source uses for its own.

#include "conformance/api/compilation/execution/rdc_library.h"

#include <mc_runtime.h>

__device__ int rdc_counter = 100;
__constant__ int rdc_table[4] = {2, 3, 5, 7};
__managed__ int rdc_managed = 40;

__device__ int RdcScale(int x) { return 10 * x + 1; }

static __device__ int rdc_private = 2;

static __global__ void ReadPrivate(int* out) { *out = rdc_private; }

__global__ void LibraryCount() { atomicAdd(&rdc_counter, 1); }

void LaunchLibraryCount(int threads) {
  LibraryCount<<<1, threads>>>();
  mcDeviceSynchronize();
}

void LaunchLibraryReadPrivate(int* out) {
  ReadPrivate<<<1, 1>>>(out);
  mcDeviceSynchronize();
}
