// Control: the same wait with mcDeviceSynchronize.
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* out) {
  Child<<<1, 1>>>(out);
  mcDeviceSynchronize();
}
