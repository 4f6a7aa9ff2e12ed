// Control of space_on_parameter.cu: the parameter without the specifier.
__global__ void Kernel(int value, int* out) { *out = value; }
