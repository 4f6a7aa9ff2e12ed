// Control of kernel_parameters_too_large.cu: 4096 bytes of parameters.
// [lang.function.global.parameter-size-limit]
struct Block { unsigned char bytes[4088]; };
__global__ void Kernel(Block block, int* out) { *out = block.bytes[0]; }
