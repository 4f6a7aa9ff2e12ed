// Control of syncthreads_in_host_code.cu: the barrier in a kernel.
__global__ void Kernel(int* out) {
  __syncthreads();
  *out = 1;
}
int main() {
  Kernel<<<1, 1>>>(nullptr);
  return 0;
}
