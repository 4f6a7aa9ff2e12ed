// Copyright mxcts authors.
//
// The control of kernel_returns_int.cu: the same kernel, well-formed.
__global__ void Kernel() {}
