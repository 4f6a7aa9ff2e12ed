// Copyright mxcts authors.
//
// Conformance: an executable graph's kernel node whose kernel launches no
// grids from device code cannot be updated to a kernel that does
// (docs/spec/api-graph.md,
// api.graph.exec-update.kernel-to-dynamic-parallelism-rejected), by
// mcGraphExecUpdate or by mcGraphExecKernelNodeSetParams; the executable
// graph keeps its kernel. The kernel that launches does so in its body or
// through a __device__ function it calls. Controls: a change between two
// kernels that launch nothing, and a change from a launching kernel to one
// that does not, or to another that does, are accepted.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/graph/exec/exec_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Kernels that launch nothing.
__global__ void AddTo(int* cell, int amount) { atomicAdd(cell, amount); }
__global__ void AddTwiceTo(int* cell, int amount) {
  atomicAdd(cell, 2 * amount);
}

// Kernels that launch AddTo from device code: in their body, or through a
// __device__ function.
__global__ void AddInChild(int* cell, int amount) {
  AddTo<<<1, 1>>>(cell, amount);
}
__device__ void LaunchAdd(int* cell, int amount) {
  AddTo<<<1, 1>>>(cell, amount);
}
__global__ void AddThroughHelper(int* cell, int amount) {
  LaunchAdd(cell, amount);
}

using Kernel = void (*)(int*, int);

struct LauncherCase {
  const char* name;
  Kernel launcher;
};

class DynamicParallelismUpdateTest
    : public testing::TestWithParam<LauncherCase> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    MX_REQUIRE_CAPABILITY("dynamic_parallelism");
    ASSERT_EQ(mcStreamCreateWithFlags(&stream_, mcStreamNonBlocking),
              mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cell_, sizeof(int)), mcSuccess);
    *cell_ = 0;
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (cell_ != nullptr) mcFree(cell_);
    if (stream_ != nullptr) mcStreamDestroy(stream_);
  }
  // Launches `exec` once, waits, and returns how much it added.
  int Run(mcGraphExec_t exec) {
    const int before = *cell_;
    EXPECT_EQ(mcGraphLaunch(exec, stream_), mcSuccess);
    EXPECT_EQ(mcStreamSynchronize(stream_), mcSuccess);
    return *cell_ - before;
  }
  // mcGraphExecUpdate of an executable graph of one `from` node with a
  // graph of one `to` node: its error, *result and whether the error node
  // is the new graph's node; then what a launch adds.
  struct Outcome {
    mcError_t error;
    mcGraphExecUpdateResult result;
    bool names_the_node;
    int added;
  };
  Outcome WholeGraphUpdate(Kernel from, Kernel to) {
    ScopedGraph original, changed;
    mcGraphNode_t a = nullptr, b = nullptr;
    KernelCall first(from, dim3(1), dim3(1), cell_, 1);
    KernelCall second(to, dim3(1), dim3(1), cell_, 10);
    EXPECT_EQ(first.Add(&a, original.get(), {}), mcSuccess);
    EXPECT_EQ(second.Add(&b, changed.get(), {}), mcSuccess);
    ScopedExec exec(original.get());
    EXPECT_EQ(exec.status(), mcSuccess);
    Outcome outcome{};
    mcGraphNode_t error_node = nullptr;
    outcome.result = mcGraphExecUpdateSuccess;
    outcome.error = mcGraphExecUpdate(exec.get(), changed.get(), &error_node,
                                      &outcome.result);
    outcome.names_the_node = error_node == b;
    outcome.added = Run(exec.get());
    return outcome;
  }
  // mcGraphExecKernelNodeSetParams from `from` to `to`: its error, then
  // what a launch adds.
  std::pair<mcError_t, int> NodeUpdate(Kernel from, Kernel to) {
    ScopedGraph graph;
    mcGraphNode_t a = nullptr;
    KernelCall first(from, dim3(1), dim3(1), cell_, 1);
    KernelCall second(to, dim3(1), dim3(1), cell_, 10);
    EXPECT_EQ(first.Add(&a, graph.get(), {}), mcSuccess);
    ScopedExec exec(graph.get());
    EXPECT_EQ(exec.status(), mcSuccess);
    const mcError_t error =
        mcGraphExecKernelNodeSetParams(exec.get(), a, second.params());
    return {error, Run(exec.get())};
  }

  mcStream_t stream_ = nullptr;
  int* cell_ = nullptr;
};

TEST_P(DynamicParallelismUpdateTest, WholeGraphUpdateToALaunchingKernelFails) {
  MX_SPEC("api.graph.exec-update.kernel-to-dynamic-parallelism-rejected");
  const Outcome refused = WholeGraphUpdate(AddTo, GetParam().launcher);
  EXPECT_EQ(refused.error, mcErrorGraphExecUpdateFailure);
  EXPECT_TRUE(refused.result ==
                  mcGraphExecUpdateErrorUnsupportedFunctionChange ||
              refused.result == mcGraphExecUpdateErrorFunctionChanged)
      << refused.result;
  EXPECT_TRUE(refused.names_the_node);
  EXPECT_EQ(refused.added, 1) << "the executable graph kept its kernel";
  // Control: from one kernel that launches nothing to another.
  const Outcome accepted = WholeGraphUpdate(AddTo, AddTwiceTo);
  EXPECT_EQ(accepted.error, mcSuccess);
  EXPECT_EQ(accepted.result, mcGraphExecUpdateSuccess);
  EXPECT_EQ(accepted.added, 20);
}

TEST_P(DynamicParallelismUpdateTest, NodeUpdateToALaunchingKernelFails) {
  MX_SPEC("api.graph.exec-update.kernel-to-dynamic-parallelism-rejected");
  const auto [error, added] = NodeUpdate(AddTo, GetParam().launcher);
  EXPECT_NE(error, mcSuccess);
  EXPECT_EQ(added, 1) << "the executable graph kept its kernel";
  // Control: from one kernel that launches nothing to another.
  const auto [control_error, control_added] = NodeUpdate(AddTo, AddTwiceTo);
  EXPECT_EQ(control_error, mcSuccess);
  EXPECT_EQ(control_added, 20);
}

// Control: the rule has a direction; a launching kernel may become one that
// launches nothing, or another launching one.
TEST_P(DynamicParallelismUpdateTest, UpdateFromALaunchingKernelIsAccepted) {
  MX_SPEC("api.graph.exec-update.kernel-to-dynamic-parallelism-rejected");
  const Outcome to_plain = WholeGraphUpdate(GetParam().launcher, AddTo);
  EXPECT_EQ(to_plain.error, mcSuccess);
  EXPECT_EQ(to_plain.added, 10);
  const Outcome to_launcher = WholeGraphUpdate(AddInChild, GetParam().launcher);
  EXPECT_EQ(to_launcher.error, mcSuccess);
  EXPECT_EQ(to_launcher.added, 10);
  const auto [error, added] = NodeUpdate(GetParam().launcher, AddTwiceTo);
  EXPECT_EQ(error, mcSuccess);
  EXPECT_EQ(added, 20);
}

INSTANTIATE_TEST_SUITE_P(Launchers, DynamicParallelismUpdateTest,
                         testing::Values(LauncherCase{"InItsBody", AddInChild},
                                         LauncherCase{"ThroughADeviceFunction",
                                                      AddThroughHelper}),
                         [](const testing::TestParamInfo<LauncherCase>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace mxcts::conformance
