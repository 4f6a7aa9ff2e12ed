// Control of grid_constant_assigned.cu: a copy may be changed.
struct Params { int scale; };
__global__ void Kernel(__grid_constant__ const Params params, int* out) {
  Params copy = params;
  copy.scale = 2;
  *out = copy.scale;
}
