// Must not compile: device code releases mapped host memory.
// [api.memory.host-get-device-pointer.kernels-cannot-allocate]
__global__ void Release(int* mapped, int* out) {
  *out = *mapped;
  mcFreeHost(mapped);
}
