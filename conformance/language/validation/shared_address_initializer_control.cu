// Control of shared_address_initializer.cu: the address taken at run time.
__shared__ int tile;
__global__ void Kernel(int* out) {
  int* where = &tile;
  *where = 1;
  *out = *where;
}
