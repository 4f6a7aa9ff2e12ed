// Must not compile: the value of a kernel call is used; the call is void.
// [lang.launch.async.expression-is-void]
__global__ void Kernel(int* out) { *out = 1; }
int Launch(int* out) { int result = Kernel<<<1, 1>>>(out); return result; }
