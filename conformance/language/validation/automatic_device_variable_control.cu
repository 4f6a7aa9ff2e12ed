// Control of automatic_device_variable.cu: a static one is allowed.
__global__ void Kernel(int* out) {
  static __device__ int scratch;
  scratch = 1;
  *out = scratch;
}
