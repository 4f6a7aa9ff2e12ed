// Must not compile: device code calls a C library function that has no
// device version; like every function without a specifier, it is host-only.
// [lang.function.host.default-space]
#include <stdlib.h>
__global__ void Kernel(int* out) { *out = getenv("HOME") != nullptr; }
