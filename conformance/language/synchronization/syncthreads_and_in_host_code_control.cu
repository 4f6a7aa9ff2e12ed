// Control of syncthreads_and_in_host_code.cu: the barrier in device code.
__device__ int DeviceFunction(int x) { return __syncthreads_and(x); }
__global__ void Kernel(int* out) { *out = DeviceFunction(1); }
int main() { return 0; }
