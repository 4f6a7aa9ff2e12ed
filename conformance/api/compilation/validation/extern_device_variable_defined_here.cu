// Copyright mxcts authors.
// Control: the same kernel, with the variable defined in this source.
extern __device__ int counter;
__global__ void K() { atomicAdd(&counter, 1); }
__device__ int counter = 0;
