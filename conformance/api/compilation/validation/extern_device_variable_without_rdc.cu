// Copyright mxcts authors.
// Must not compile without -fgpu-rdc: counter is defined in another source.
extern __device__ int counter;
__global__ void K() { atomicAdd(&counter, 1); }
