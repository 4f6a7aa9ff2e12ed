// Must not compile: __managed__ together with __constant__.
// [lang.variable.managed.not-with-constant-or-shared]
__managed__ __constant__ int value;
__global__ void Kernel(int* out) { *out = 1; }
