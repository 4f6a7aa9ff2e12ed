// Control of noinline_with_forceinline.cu: either qualifier alone compiles.
__device__ __noinline__ int Add(int a, int b) { return a + b; }
__device__ __forceinline__ int Sub(int a, int b) { return a - b; }
__global__ void Kernel(int* out) { *out = Add(1, 2) + Sub(3, 1); }
