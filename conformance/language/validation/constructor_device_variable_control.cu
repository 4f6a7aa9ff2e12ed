// Control of constructor_device_variable.cu: a constexpr constructor.
struct Counter {
  constexpr Counter() : value(1) {}
  int value;
};
__device__ Counter counter;
__global__ void Kernel(int* out) { *out = counter.value; }
