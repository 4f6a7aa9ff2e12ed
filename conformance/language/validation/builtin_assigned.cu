#include <mc_runtime.h>

__global__ void Kernel(unsigned* out) {
  threadIdx.x = 0;
  *out = threadIdx.x;
}
