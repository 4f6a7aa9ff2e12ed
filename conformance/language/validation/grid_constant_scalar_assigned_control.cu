// Control of grid_constant_scalar_assigned.cu: reading it is fine.
__global__ void Kernel(__grid_constant__ const int scale, int* out) {
  *out = scale * 2;
}
