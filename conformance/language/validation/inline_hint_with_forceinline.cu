// Must not compile: __inline_hint__ together with __forceinline__.
// [lang.function.inline.inline-hint-with-other-qualifier]
__forceinline__ __inline_hint__ __device__ int Add(int a, int b) { return a + b; }
