// Must not compile: a host function reads a built-in variable.
// [lang.builtin.device-code-only]
__global__ void Kernel(unsigned* out) { *out = 1; }
unsigned HostIndex() { return threadIdx.x; }
