// Must not compile: a kernel called like an ordinary function.
// [lang.function.global.requires-configuration]
__global__ void Kernel(int* out) { *out = 1; }
void Run(int* out) { Kernel(out); }
