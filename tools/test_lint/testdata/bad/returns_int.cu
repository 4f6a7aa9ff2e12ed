// Must not compile: a __global__ function must return void.
__global__ int ReturnsInt(int* out) { return *out = 1; }
