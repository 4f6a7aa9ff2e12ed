// Control of grid_constant_mismatch.cu: the declarations agree.
struct Params { int scale; };
__global__ void Kernel(__grid_constant__ const Params params, int* out);
__global__ void Kernel(__grid_constant__ const Params params, int* out) {
  *out = params.scale;
}
