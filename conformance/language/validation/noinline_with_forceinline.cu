// Must not compile: __noinline__ and __forceinline__ together.
// [lang.function.inline.noinline-with-forceinline]
__device__ __noinline__ __forceinline__ int Add(int a, int b) { return a + b; }
__global__ void Kernel(int* out) { *out = Add(1, 2); }
