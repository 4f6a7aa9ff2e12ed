// Control of builtin_in_host_function.cu: a __device__ function reads it.
// [lang.builtin.device-code-only]
__global__ void Kernel(unsigned* out) { *out = 1; }
__device__ unsigned DeviceIndex() { return threadIdx.x; }
