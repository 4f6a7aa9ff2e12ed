#include <mc_runtime.h>

__global__ void Kernel(int2* out) {
  *out = make_int2(1, 2);
}
