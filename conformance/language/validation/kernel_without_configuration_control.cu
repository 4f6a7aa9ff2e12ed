// Control of kernel_without_configuration.cu: the same call with <<<>>>.
__global__ void Kernel(int* out) { *out = 1; }
void Run(int* out) { Kernel<<<1, 1>>>(out); }
