// Control of static_local_dynamic_init.cu: a constant initializer.
__device__ int Next() {
  static int counter = 6;
  return ++counter;
}
__global__ void Kernel(int* out) { *out = Next(); }
