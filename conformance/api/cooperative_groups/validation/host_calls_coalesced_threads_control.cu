#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void Kernel(int* out) {
  cg::coalesced_group active = cg::coalesced_threads();
  out[active.thread_rank()] = static_cast<int>(active.size());
}

int main() { return 0; }
