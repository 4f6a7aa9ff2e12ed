// Control of launch_value_used.cu: the error comes from mcGetLastError.
// [lang.launch.async.expression-is-void]
#include <mc_runtime.h>

__global__ void Kernel(int* out) { *out = 1; }
int Launch(int* out) { Kernel<<<1, 1>>>(out); return mcGetLastError(); }
