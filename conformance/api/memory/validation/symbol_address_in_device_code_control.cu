// Control: device code takes the variable's address with `&`.
__device__ int value;
__global__ void Read(int* out) {
  void* address = &value;
  *out = *static_cast<int*>(address);
}
