// Must not compile: __grid_constant__ on a parameter that is not const.
// [lang.variable.grid-constant.invalid-placement]
struct Params { int scale; };
__global__ void Kernel(__grid_constant__ Params params, int* out) {
  *out = params.scale;
}
