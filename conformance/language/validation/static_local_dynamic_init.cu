// Must not compile: a static local of a device function whose initializer
// needs code to run. [lang.variable.automatic.static-local-dynamic-init]
__device__ int Seed(int x) { return x * 3; }
__device__ int Next() {
  static int counter = Seed(2);
  return ++counter;
}
__global__ void Kernel(int* out) { *out = Next(); }
