// Control of global_variadic.cu: the same kernel with a fixed parameter list.
// [lang.function.global.no-variadic]
__global__ void Sum(int* out, int count) { *out = count; }
