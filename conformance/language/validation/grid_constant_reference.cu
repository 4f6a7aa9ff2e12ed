// Must not compile: __grid_constant__ on a parameter of reference type.
// [lang.variable.grid-constant.invalid-placement]
struct Params { int scale; };
__global__ void Kernel(__grid_constant__ const Params& params, int* out) {
  *out = params.scale;
}
