// Control of space_on_member.cu: the member without the specifier.
struct Counters {
  int hits;
};
__global__ void Kernel(Counters* c) { c->hits = 1; }
