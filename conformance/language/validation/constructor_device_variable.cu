// Must not compile: a __device__ variable whose constructor needs code to
// run. [lang.variable.placement.non-trivial-constructor]
struct Counter {
  Counter() { value = 1; }
  int value;
};
__device__ Counter counter;
__global__ void Kernel(int* out) { *out = counter.value; }
