#include <mc_runtime.h>

__global__ void Kernel(unsigned* out) {
  const uint3 copy = threadIdx;
  const uint3* index = &copy;
  *out = index->x;
}
