// Rejected by the reference: a __host__ __device__ function calls a __device__
// function on its host path too (undefined; an implementation may reject it).
// [lang.function.call.cross-space-in-host-device-undefined]
__device__ int DeviceTwice(int x) { return 2 * x; }
__host__ __device__ int Both(int x) { return DeviceTwice(x); }
