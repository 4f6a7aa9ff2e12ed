// Control of managed_constant.cu: __managed__ alone.
__managed__ int value;
__global__ void Kernel(int* out) { *out = value; }
