// Must not compile: host code calls a __device__ function.
// [lang.function.call.host-calls-device-only]
__device__ int DeviceTwice(int x) { return 2 * x; }
int HostCaller(int x) { return DeviceTwice(x); }
