// Must not compile: an assignment to a __grid_constant__ parameter.
// [lang.variable.grid-constant.direct-write-rejected]
__global__ void Kernel(__grid_constant__ const int scale, int* out) {
  scale = 2;
  *out = scale;
}
