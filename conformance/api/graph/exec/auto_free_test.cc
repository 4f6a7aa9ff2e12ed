// Copyright mxcts authors.
//
// Conformance: mcGraphInstantiateFlagAutoFreeOnLaunch (docs/spec/
// api-graph.md, "Instantiation and launch"): an executable graph whose
// allocation node's memory a launch left unfreed launches again only if it
// was instantiated with the flag, which frees that memory first; once the
// program frees it, either launches. The target also runs as _deferred and
// _shuffle (TIMELINE_VARIANTS).

#include <mc_runtime.h>

#include <string>

#include "conformance/api/graph/exec/exec_testing.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Fills `n` ints at `data` with `value`.
__global__ void Fill(int* data, int value, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) data[i] = value;
}

// Graph allocations left unfreed by a launch: a second launch fails
// unless the executable graph frees them on launch.
class GraphAutoFree : public testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    MX_REQUIRE_CAPABILITY("memory_pools");
  }
};

TEST_P(GraphAutoFree, SecondLaunchWithUnfreedAllocation) {
  MX_SPEC("api.graph.instantiate.with-flags",
          "api.graph.mem-alloc-node.unfreed-memory-persists",
          "api.graph.mem-alloc-node.relaunch-needs-free");
  const bool auto_free = GetParam();
  TestStream stream(StreamKind::kNonBlocking);
  ASSERT_EQ(stream.status(), mcSuccess);
  int* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(int)), mcSuccess);
  *out = 0;
  ScopedGraph graph;
  mcMemAllocNodeParams alloc{};
  alloc.poolProps.allocType = mcMemAllocationTypePinned;
  alloc.poolProps.location.type = mcMemLocationTypeDevice;
  alloc.poolProps.location.id = 0;
  alloc.bytesize = 64 * sizeof(int);
  mcGraphNode_t allocate, fill, copy;
  ASSERT_EQ(mcGraphAddMemAllocNode(&allocate, graph.get(), nullptr, 0, &alloc),
            mcSuccess);
  ASSERT_NE(alloc.dptr, nullptr);
  int* memory = static_cast<int*>(alloc.dptr);
  KernelCall fill_call(Fill, dim3(1), dim3(64), memory, 7, 64);
  ASSERT_EQ(fill_call.Add(&fill, graph.get(), {allocate}), mcSuccess);
  ASSERT_EQ(AddCopy(&copy, graph.get(), {fill}, out, memory + 63, sizeof(int)),
            mcSuccess);
  ScopedExec exec(graph.get(),
                  auto_free ? mcGraphInstantiateFlagAutoFreeOnLaunch : 0);
  ASSERT_EQ(exec.status(), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream.get()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream.get()), mcSuccess);
  EXPECT_EQ(*out, 7);
  *out = 0;
  if (auto_free) {
    ASSERT_EQ(mcGraphLaunch(exec.get(), stream.get()), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream.get()), mcSuccess);
    EXPECT_EQ(*out, 7);
  } else {
    EXPECT_EQ(mcGraphLaunch(exec.get(), stream.get()), mcErrorInvalidValue);
    mcGetLastError();
    ASSERT_EQ(mcStreamSynchronize(stream.get()), mcSuccess);
    EXPECT_EQ(*out, 0) << "the refused launch ran";
  }
  // Control: once the program frees the allocation, the next launch runs.
  ASSERT_EQ(mcFree(memory), mcSuccess);
  *out = 0;
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream.get()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream.get()), mcSuccess);
  EXPECT_EQ(*out, 7);
  EXPECT_EQ(mcFree(memory), mcSuccess);
  // Freed once, the allocation is not allocated any more.
  EXPECT_EQ(mcFree(memory), mcErrorInvalidValue);
  EXPECT_EQ(mcFree(out), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Flags, GraphAutoFree, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("AutoFreeOnLaunch")
                                             : std::string("NoFlags");
                         });

}  // namespace
}  // namespace mxcts::conformance
