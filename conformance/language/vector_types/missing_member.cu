#include <mc_runtime.h>

__global__ void Kernel(int* out, int3 v) {
  *out = v.w;
}
