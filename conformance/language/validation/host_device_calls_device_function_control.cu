// Control of host_device_calls_device_function.cu: the call is guarded.
// [lang.function.call.cross-space-in-host-device-undefined]
__device__ int DeviceTwice(int x) { return 2 * x; }
__host__ __device__ int Both(int x) {
#ifdef __MACA_ARCH__
  return DeviceTwice(x);
#else
  return x + x;
#endif
}
