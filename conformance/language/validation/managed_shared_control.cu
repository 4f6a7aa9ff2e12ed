// Control of managed_shared.cu: __shared__ alone.
__shared__ int value;
__global__ void Kernel(int* out) {
  value = 1;
  *out = value;
}
