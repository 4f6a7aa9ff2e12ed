// Must not compile: a memory space specifier on a function parameter.
// [lang.variable.placement.not-on-parameters]
__global__ void Kernel(__device__ int value, int* out) { *out = value; }
