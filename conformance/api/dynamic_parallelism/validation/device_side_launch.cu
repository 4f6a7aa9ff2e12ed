// Must not compile on a backend without dynamic parallelism: a kernel
// launches another. [api.devrt.launch.unsupported-rejected-at-compile-time]
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* out) { Child<<<1, 1>>>(out); }
