// Must not compile: device code asks the symbol API for a variable's
// address. [api.memory.symbol.not-in-device-runtime]
__device__ int value;
__global__ void Read(int* out) {
  void* address = nullptr;
  mcGetSymbolAddress(&address, static_cast<const void*>(&value));
  *out = *static_cast<int*>(address);
}
