#include <maca_cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void Kernel(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<3> tile = cg::tiled_partition<3>(block);
  out[block.thread_rank()] = static_cast<int>(tile.thread_rank());
}
