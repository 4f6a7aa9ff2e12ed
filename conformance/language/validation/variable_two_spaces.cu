// Must not compile: __device__ with both __constant__ and __shared__.
// [lang.variable.device.at-most-one-other-specifier]
__device__ __constant__ __shared__ int value;
__global__ void Kernel(int* out) { *out = 1; }
