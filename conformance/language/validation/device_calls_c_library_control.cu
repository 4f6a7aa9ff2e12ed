// Control of device_calls_c_library.cu: the host calls the C library function
// and passes its result to the kernel.
// [lang.function.host.default-space]
#include <stdlib.h>
__global__ void Kernel(int* out, int found) { *out = found; }
void Launch(int* out) { Kernel<<<1, 1>>>(out, getenv("HOME") != nullptr); }
