// Must not compile: an assignment to a __constant__ variable in device
// code. [lang.variable.constant.direct-write-in-device-code]
__constant__ float weights[4];
__global__ void Kernel(float* out) {
  weights[threadIdx.x] = 1.0f;
  *out = weights[0];
}
