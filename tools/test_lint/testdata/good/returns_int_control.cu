// Control of returns_int.cu: the same kernel returning void compiles.
__global__ void ReturnsVoid(int* out) { *out = 1; }
