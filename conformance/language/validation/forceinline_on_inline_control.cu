// Control of forceinline_on_inline.cu: __forceinline__ alone.
// [lang.function.inline.noinline-on-inline-function]
__forceinline__ __device__ int Add(int a, int b) { return a + b; }
__global__ void Kernel(int* out) { *out = Add(*out, 1); }
