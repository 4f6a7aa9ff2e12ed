// Control of shared_with_initializer.cu: assignment in device code is the way.
__global__ void Kernel(int* out) {
  __shared__ int counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  *out = counter;
}
