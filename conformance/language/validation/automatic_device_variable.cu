// Must not compile: __device__ on a variable of a device function that is
// neither static nor extern.
// [lang.variable.placement.device-constant-not-automatic]
__global__ void Kernel(int* out) {
  __device__ int scratch;
  scratch = 1;
  *out = scratch;
}
