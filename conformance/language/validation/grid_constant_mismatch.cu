// Must not compile: two declarations of a kernel that disagree on which
// parameters are __grid_constant__.
// [lang.variable.grid-constant.declarations-must-match]
struct Params { int scale; };
__global__ void Kernel(__grid_constant__ const Params params, int* out);
__global__ void Kernel(const Params params, int* out) { *out = params.scale; }
