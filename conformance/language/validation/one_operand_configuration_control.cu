// Control of one_operand_configuration.cu: two operands.
__global__ void Kernel(int* out) { *out = 1; }
void Run(int* out) { Kernel<<<1, 1>>>(out); }
