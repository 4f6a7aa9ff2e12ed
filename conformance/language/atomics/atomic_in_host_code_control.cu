// Control of atomic_in_host_code.cu: the caller is a __device__ function.
// [lang.atomic.general.device-code-only]
__device__ int DeviceCount(int* counter) { return atomicAdd(counter, 1); }
__global__ void Kernel(int* counter) { DeviceCount(counter); }
