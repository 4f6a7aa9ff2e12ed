// Control of space_in_host_function.cu: an extern declaration is allowed.
__device__ int value;
int main() {
  extern __device__ int value;
  return sizeof(value) == sizeof(int) ? 0 : 1;
}
