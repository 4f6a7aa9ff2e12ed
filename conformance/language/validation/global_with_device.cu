// Must not compile: __global__ cannot be combined with __device__.
// [lang.function.global.not-with-device]
__global__ __device__ void Both(int* out) { *out = 1; }
