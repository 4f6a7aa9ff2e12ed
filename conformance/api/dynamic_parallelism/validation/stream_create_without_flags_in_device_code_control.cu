// Control: the same launch without the stream.
__global__ void Child(int* out) { *out = 1; }
__global__ void Parent(int* out) {
  mcStream_t stream = 0;
  Child<<<1, 1, 0, stream>>>(out);
}
