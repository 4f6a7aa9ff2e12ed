#include <cooperative_groups.h>
namespace cg = cooperative_groups;

int main() {
  cg::coalesced_group active = cg::coalesced_threads();
  return static_cast<int>(active.size());
}
