// Rejected by the reference: kernel parameters over its documented limit
// of 4096 bytes (4100 here).
// [lang.function.global.parameter-size-limit]
struct Block { unsigned char bytes[4092]; };
__global__ void Kernel(Block block, int* out) { *out = block.bytes[0]; }
