// Must not compile: __noinline__ on a function declared inline.
// [lang.function.inline.noinline-on-inline-function]
__noinline__ inline __device__ int Add(int a, int b) { return a + b; }
