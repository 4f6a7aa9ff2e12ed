// Must not compile: an assignment to a __grid_constant__ parameter's member.
// [lang.variable.grid-constant.direct-write-rejected]
struct Params { int scale; };
__global__ void Kernel(__grid_constant__ const Params params, int* out) {
  params.scale = 2;
  *out = params.scale;
}
