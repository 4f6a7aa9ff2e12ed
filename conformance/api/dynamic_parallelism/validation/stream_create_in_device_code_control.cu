// Control: the same launch into the device-side NULL stream.
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* out) {
  mcStream_t stream = 0;
  Child<<<1, 1, 0, stream>>>(out);
}
