#include <mc_runtime.h>

__global__ void Kernel(unsigned* out) {
  unsigned x = 0;
  *out = x + threadIdx.x;
}
