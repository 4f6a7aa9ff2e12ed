// Control of variable_two_spaces.cu: __device__ with one of them.
__device__ __constant__ int value;
__global__ void Kernel(int* out) { *out = value; }
