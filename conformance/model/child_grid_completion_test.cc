// Copyright mxcts authors.
//
// Conformance: a grid is complete only when its child grids are
// (docs/spec/model.md, "Execution model"): a parent whose threads launch
// child grids from device code and return at once is not done before the
// children are. Kernels launch kernels here, so the target builds only where
// the backend has a device runtime (required_capability in BUILD); the rest
// of grid completion is in block_scheduling_test.

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// A parent grid whose thread 0 launches a child and returns at once: the
// parent is complete only when the child is, so the child's writes are
// there when the host's wait for the parent returns.
__global__ void Child(unsigned* cells, unsigned base) {
  cells[base + threadIdx.x] = base + threadIdx.x + 1;
}

__global__ void Parent(unsigned* cells, bool launch) {
  if (threadIdx.x == 0 && launch) Child<<<1, 32>>>(cells, blockIdx.x * 32);
}

std::string RunParent(bool launch) {
  const unsigned blocks = 3;
  ManagedBuffer<unsigned> cells(blocks * 32, 0);
  mcStream_t stream = nullptr;
  if (mcStreamCreate(&stream) != mcSuccess) return "mcStreamCreate failed";
  Parent<<<blocks, 8, 0, stream>>>(cells.get(), launch);
  std::string problems;
  if (mcStreamSynchronize(stream) != mcSuccess) problems += "the grid failed; ";
  mcStreamDestroy(stream);
  for (unsigned i = 0; i < blocks * 32; ++i) {
    if (cells[i] != i + 1) {
      problems += "child cell " + std::to_string(i) + " unwritten; ";
      break;
    }
  }
  return problems;
}

TEST(GridCompletion, ChildGridsCompleteWithTheirParent) {
  MX_SPEC("model.exec.grid-complete-when-all-threads-exit");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  EXPECT_EQ(RunParent(true), "");
}

TEST(GridCompletion, ControlParentWithoutChildLeavesCellsUnwritten) {
  MX_SPEC("model.exec.grid-complete-when-all-threads-exit");
  MX_REQUIRE_CAPABILITY("dynamic_parallelism");
  EXPECT_NE(RunParent(false), "");
}

}  // namespace
}  // namespace mxcts::conformance
