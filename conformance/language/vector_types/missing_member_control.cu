#include <mc_runtime.h>

__global__ void Kernel(int* out, int4 v) {
  *out = v.w;
}
