// Control of constant_assigned.cu: device code reads it.
__constant__ float weights[4];
__global__ void Kernel(float* out) {
  float local = weights[threadIdx.x];
  *out = local + weights[0];
}
