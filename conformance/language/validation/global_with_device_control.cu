// Control of global_with_device.cu: __global__ alone compiles.
__global__ void KernelOnly(int* out) { *out = 1; }
__device__ void DeviceOnly(int* out) { *out = 1; }
