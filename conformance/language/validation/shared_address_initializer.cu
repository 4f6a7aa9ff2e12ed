// Must not compile: the address of a __shared__ variable is no address
// constant, so it cannot initialize a __device__ pointer.
// [lang.variable.shared.address-not-constant]
__shared__ int tile;
__device__ int* where = &tile;
__global__ void Kernel(int* out) { *out = where != nullptr; }
