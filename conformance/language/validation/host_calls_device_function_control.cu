// Control of host_calls_device_function.cu: the helper is __host__ __device__.
// [lang.function.call.host-calls-device-only]
__host__ __device__ int DeviceTwice(int x) { return 2 * x; }
int HostCaller(int x) { return DeviceTwice(x); }
