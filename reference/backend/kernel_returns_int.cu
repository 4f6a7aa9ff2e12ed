// Copyright mxcts authors.
//
// Must not compile: a kernel whose return type is not void. The control,
// kernel_returns_void.cu, is the same kernel returning void.
__global__ int Kernel() { return 0; }
