// Must not compile: __grid_constant__ on a parameter of a function that is
// not __global__. [lang.variable.grid-constant.invalid-placement]
struct Params { int scale; };
__device__ int Scale(__grid_constant__ const Params params) {
  return params.scale;
}
__global__ void Kernel(int* out) { *out = Scale(Params{2}); }
