// Control: the mapped memory comes from the host, as a kernel argument.
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* mapped) { Child<<<1, 1>>>(mapped); }
