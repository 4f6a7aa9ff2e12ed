// Must not compile: a __shared__ variable cannot have an initializer.
// [lang.variable.shared.no-initializer]
__global__ void Kernel(int* out) {
  __shared__ int counter = 0;
  *out = counter;
}
