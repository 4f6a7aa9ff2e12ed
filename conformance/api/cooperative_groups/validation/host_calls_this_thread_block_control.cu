#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void Kernel(int* out) {
  cg::thread_block block = cg::this_thread_block();
  out[block.thread_rank()] = static_cast<int>(block.size());
}

int main() { return 0; }
