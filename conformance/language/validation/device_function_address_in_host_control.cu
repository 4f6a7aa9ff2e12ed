// Control of device_function_address_in_host.cu: device code takes the address.
// [lang.function.address.device-function-in-host]
__device__ int DeviceTwice(int x) { return 2 * x; }
__global__ void Kernel(int* out) { int (*p)(int) = &DeviceTwice; *out = p(*out); }
