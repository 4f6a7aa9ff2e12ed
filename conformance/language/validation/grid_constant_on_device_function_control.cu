// Control of grid_constant_on_device_function.cu: without the annotation.
struct Params { int scale; };
__device__ int Scale(const Params params) { return params.scale; }
__global__ void Kernel(int* out) { *out = Scale(Params{2}); }
