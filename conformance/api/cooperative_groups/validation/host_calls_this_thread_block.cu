#include <cooperative_groups.h>
namespace cg = cooperative_groups;

int main() {
  cg::thread_block block = cg::this_thread_block();
  return static_cast<int>(block.size());
}
