// Must not compile: a __global__ function must return void.
// [lang.function.global.return-type-void]
__global__ int ReturnsInt(int* out) {
  *out = 1;
  return 1;
}
