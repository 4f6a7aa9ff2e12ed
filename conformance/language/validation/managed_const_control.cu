// Control of managed_const.cu: the same variable, not const.
__managed__ int limit = 4;
__global__ void Kernel(int* out) { *out = limit; }
