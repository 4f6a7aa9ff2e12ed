// Control of atomic_on_const.cu: the pointer is to non-const float.
// [lang.atomic.general.unsupported-type-rejected]
__global__ void Kernel(float* sum) { atomicAdd(sum, 1.0f); }
