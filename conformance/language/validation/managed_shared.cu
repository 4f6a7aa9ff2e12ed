// Must not compile: __managed__ together with __shared__.
// [lang.variable.managed.not-with-constant-or-shared]
__shared__ __managed__ int value;
__global__ void Kernel(int* out) { *out = 1; }
