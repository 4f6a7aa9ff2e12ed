// Must not compile: __inline_hint__ together with __noinline__.
// [lang.function.inline.inline-hint-with-other-qualifier]
__inline_hint__ __noinline__ __device__ int Add(int a, int b) { return a + b; }
