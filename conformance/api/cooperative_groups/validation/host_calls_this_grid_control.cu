#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void Kernel(int* out) {
  cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = static_cast<int>(grid.size());
}

int main() { return 0; }
