// Control of noinline_on_inline.cu: __noinline__ alone.
// [lang.function.inline.noinline-on-inline-function]
__noinline__ __device__ int Add(int a, int b) { return a + b; }
__global__ void Kernel(int* out) { *out = Add(*out, 1); }
