// Must not compile: an atomic on a pointer to const.
// [lang.atomic.general.unsupported-type-rejected]
__global__ void Kernel(const float* sum) { atomicAdd(sum, 1.0f); }
