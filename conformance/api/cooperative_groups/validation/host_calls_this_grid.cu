#include <cooperative_groups.h>
namespace cg = cooperative_groups;

int main() {
  cg::grid_group grid = cg::this_grid();
  return static_cast<int>(grid.size());
}
