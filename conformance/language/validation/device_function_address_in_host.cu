// Must not compile: host code takes the address of a __device__ function.
// [lang.function.address.device-function-in-host]
__device__ int DeviceTwice(int x) { return 2 * x; }
int (*HostPointer())(int) { return &DeviceTwice; }
