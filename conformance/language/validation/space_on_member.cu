// Must not compile: a memory space on a non-static data member.
// [lang.variable.placement.not-on-members]
struct Counters {
  __device__ int hits;
};
__global__ void Kernel(Counters* c) { c->hits = 1; }
