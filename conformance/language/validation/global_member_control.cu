// Control of global_member.cu: a __device__ member function is allowed.
struct Holder {
  __device__ void Member(int* out) { *out = 1; }
};
__global__ void Kernel(int* out) { Holder().Member(out); }
