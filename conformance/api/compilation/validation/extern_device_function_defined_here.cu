// Copyright mxcts authors.
// Control: the same kernel, with the device function defined in this source.
__device__ int Twice(int x);
__global__ void K(int* p) { p[threadIdx.x] = Twice(threadIdx.x); }
__device__ int Twice(int x) { return 2 * x; }
