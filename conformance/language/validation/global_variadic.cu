// Must not compile: a kernel with a C ellipsis.
// [lang.function.global.no-variadic]
__global__ void Sum(int* out, int count, ...) { *out = count; }
