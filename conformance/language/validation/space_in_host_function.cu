// Must not compile: a __device__ variable declared in a host function.
// [lang.variable.placement.not-in-host-function]
int main() {
  __device__ int value;
  return 0;
}
