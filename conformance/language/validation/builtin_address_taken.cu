#include <mc_runtime.h>

__global__ void Kernel(unsigned* out) {
  const uint3* index = &threadIdx;
  *out = index->x;
}
