// Must not compile: __forceinline__ on a function declared inline.
// [lang.function.inline.noinline-on-inline-function]
inline __forceinline__ __device__ int Add(int a, int b) { return a + b; }
