// Control of global_with_host.cu: __host__ __device__ is allowed.
__host__ __device__ void HostAndDevice(int* out) { *out = 1; }
__global__ void Kernel(int* out) { HostAndDevice(out); }
