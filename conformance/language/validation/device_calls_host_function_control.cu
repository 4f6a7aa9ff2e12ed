// Control of device_calls_host_function.cu: the helper is __host__ __device__.
__host__ __device__ int HostOnlyTwice(int x) { return 2 * x; }
__global__ void Kernel(int* out) { *out = HostOnlyTwice(*out); }
