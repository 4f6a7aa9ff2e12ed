// Copyright mxcts authors.
// Must not compile without -fgpu-rdc: Twice is defined in another source.
__device__ int Twice(int x);
__global__ void K(int* p) { p[threadIdx.x] = Twice(threadIdx.x); }
