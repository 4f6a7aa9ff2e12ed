// Control: the same kernels, taking the variable's address with `&`.
__device__ int value;
__global__ void Child(int* out) { *out = value; }
__global__ void Parent(int* out, int v) {
  int* address = &value;
  *address = v;
  Child<<<1, 1>>>(out);
}
