// Control of grid_constant_not_const.cu: the parameter const.
struct Params { int scale; };
__global__ void Kernel(__grid_constant__ const Params params, int* out) {
  *out = params.scale;
}
