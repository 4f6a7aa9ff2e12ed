// Must not compile: __global__ cannot be combined with __host__.
// [lang.function.global.not-with-host]
__host__ __global__ void Both(int* out) { *out = 1; }
