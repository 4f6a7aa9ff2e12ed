// Control of inline_hint_with_noinline.cu: __inline_hint__ alone.
// [lang.function.inline.inline-hint-with-other-qualifier]
__inline_hint__ __device__ int Add(int a, int b) { return a + b; }
__global__ void Kernel(int* out) { *out = Add(*out, 1); }
