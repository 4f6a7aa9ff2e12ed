// Copyright mxcts authors.
//
// Conformance: errors of the kernel node attribute calls
// (docs/spec/api-graph.md, api.graph.kernel-node-attribute.*): null values,
// nodes that are not live kernel nodes, attributes kernel nodes do not
// have and invalid access policy windows are mcErrorInvalidValue, and a
// cooperative attribute on a grid that cannot be resident at once is
// mcErrorCooperativeLaunchTooLarge; a failing call changes nothing. The
// valid call is each table's control.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/graph/graph_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "gtest/gtest.h"

namespace {

using mxcts::conformance::graph::ScopedGraph;

__global__ void StoreOne(int* cell) { *cell = 1; }

enum class Target { kKernelNode, kEmptyNode, kDestroyedNode, kNullNode };

struct BadCallCase {
  const char* name;
  Target target;
  int attr;  // a mcKernelNodeAttrID, or a value that is none
  bool null_value;
  float hit_ratio;  // of the access policy window set
  mcError_t error;  // mcSuccess: the control
};

class KernelNodeAttributeCallTest
    : public ::testing::TestWithParam<BadCallCase> {};

TEST_P(KernelNodeAttributeCallTest, BadCallsAreInvalidValueAndChangeNothing) {
  MX_SPEC("api.graph.kernel-node-attribute.bad-call-invalid-value");
  MX_REQUIRE_CAPABILITY("graphs");
  const BadCallCase& c = GetParam();
  ScopedGraph graph;
  int* cell = nullptr;
  ASSERT_EQ(mcMalloc(&cell, sizeof(int)), mcSuccess);
  void* args[] = {&cell};
  mcKernelNodeParams params = {
      reinterpret_cast<void*>(StoreOne), dim3(1), dim3(1), 0, args, nullptr};
  mcGraphNode_t kernel = nullptr;
  ASSERT_EQ(mcGraphAddKernelNode(&kernel, graph.get(), nullptr, 0, &params),
            mcSuccess);
  mcGraphNode_t node = kernel;
  if (c.target == Target::kEmptyNode || c.target == Target::kDestroyedNode) {
    ASSERT_EQ(mcGraphAddEmptyNode(&node, graph.get(), nullptr, 0), mcSuccess);
    if (c.target == Target::kDestroyedNode) {
      ASSERT_EQ(mcGraphAddKernelNode(&node, graph.get(), nullptr, 0, &params),
                mcSuccess);
      ASSERT_EQ(mcGraphDestroyNode(node), mcSuccess);
    }
  }
  if (c.target == Target::kNullNode) node = nullptr;
  mcKernelNodeAttrValue value{};
  value.accessPolicyWindow.num_bytes = 16;
  value.accessPolicyWindow.hitRatio = c.hit_ratio;
  const auto attr = static_cast<mcKernelNodeAttrID>(c.attr);
  EXPECT_EQ(mcGraphKernelNodeSetAttribute(node, attr,
                                          c.null_value ? nullptr : &value),
            c.error);
  EXPECT_EQ(mcGraphKernelNodeGetAttribute(node, attr,
                                          c.null_value ? nullptr : &value),
            c.error);
  if (c.error != mcSuccess && c.target == Target::kKernelNode &&
      attr == mcKernelNodeAttributeAccessPolicyWindow && !c.null_value) {
    // The refused window was not stored.
    mcKernelNodeAttrValue read{};
    ASSERT_EQ(mcGraphKernelNodeGetAttribute(kernel, attr, &read), mcSuccess);
    EXPECT_EQ(read.accessPolicyWindow.num_bytes, 0u);
  }
  mcFree(cell);
}

INSTANTIATE_TEST_SUITE_P(
    Calls, KernelNodeAttributeCallTest,
    ::testing::Values(
        BadCallCase{"ControlWindow", Target::kKernelNode,
                    mcKernelNodeAttributeAccessPolicyWindow, false, 0.5f,
                    mcSuccess},
        BadCallCase{"ControlCooperative", Target::kKernelNode,
                    mcKernelNodeAttributeCooperative, false, 0.5f, mcSuccess},
        BadCallCase{"NullValue", Target::kKernelNode,
                    mcKernelNodeAttributePriority, true, 0.5f,
                    mcErrorInvalidValue},
        BadCallCase{"EmptyNode", Target::kEmptyNode,
                    mcKernelNodeAttributePriority, false, 0.5f,
                    mcErrorInvalidValue},
        BadCallCase{"DestroyedNode", Target::kDestroyedNode,
                    mcKernelNodeAttributePriority, false, 0.5f,
                    mcErrorInvalidValue},
        BadCallCase{"NullNode", Target::kNullNode,
                    mcKernelNodeAttributePriority, false, 0.5f,
                    mcErrorInvalidValue},
        BadCallCase{"IgnoreAttribute", Target::kKernelNode,
                    mcLaunchAttributeIgnore, false, 0.5f, mcErrorInvalidValue},
        BadCallCase{"SynchronizationPolicyAttribute", Target::kKernelNode,
                    mcLaunchAttributeSynchronizationPolicy, false, 0.5f,
                    mcErrorInvalidValue},
        BadCallCase{"UnknownAttribute", Target::kKernelNode, 99, false, 0.5f,
                    mcErrorInvalidValue}),
    [](const auto& info) { return std::string(info.param.name); });

struct WindowCase {
  const char* name;
  float hit_ratio;
  mcError_t error;
};

class KernelNodeWindowTest : public ::testing::TestWithParam<WindowCase> {};

TEST_P(KernelNodeWindowTest, InvalidWindowIsRefused) {
  MX_SPEC("api.graph.kernel-node-attribute.bad-call-invalid-value");
  MX_REQUIRE_CAPABILITY("graphs");
  ScopedGraph graph;
  int* cell = nullptr;
  ASSERT_EQ(mcMalloc(&cell, sizeof(int)), mcSuccess);
  void* args[] = {&cell};
  mcKernelNodeParams params = {
      reinterpret_cast<void*>(StoreOne), dim3(1), dim3(1), 0, args, nullptr};
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddKernelNode(&node, graph.get(), nullptr, 0, &params),
            mcSuccess);
  mcKernelNodeAttrValue value{};
  value.accessPolicyWindow.base_ptr = cell;
  value.accessPolicyWindow.num_bytes = sizeof(int);
  value.accessPolicyWindow.hitRatio = GetParam().hit_ratio;
  EXPECT_EQ(mcGraphKernelNodeSetAttribute(
                node, mcKernelNodeAttributeAccessPolicyWindow, &value),
            GetParam().error);
  mcKernelNodeAttrValue read{};
  ASSERT_EQ(mcGraphKernelNodeGetAttribute(
                node, mcKernelNodeAttributeAccessPolicyWindow, &read),
            mcSuccess);
  EXPECT_EQ(read.accessPolicyWindow.num_bytes,
            GetParam().error == mcSuccess ? sizeof(int) : 0u);
  mcFree(cell);
}

INSTANTIATE_TEST_SUITE_P(
    Windows, KernelNodeWindowTest,
    ::testing::Values(WindowCase{"ControlZero", 0.0f, mcSuccess},
                      WindowCase{"ControlOne", 1.0f, mcSuccess},
                      WindowCase{"AboveOne", 1.5f, mcErrorInvalidValue},
                      WindowCase{"Negative", -0.25f, mcErrorInvalidValue}),
    [](const auto& info) { return std::string(info.param.name); });

// --- A grid too large to be resident at once. ---

__global__ void WideKernel(int* cell) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *cell = 1;
}

// The most blocks of 1024 threads of WideKernel that can be resident on
// device 0 at once (0 if it cannot be read).
unsigned LargestCooperativeGrid() {
  int per_multiprocessor = 0;
  mcDeviceProp_t prop;
  if (mcOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_multiprocessor, WideKernel, 1024, 0) != mcSuccess ||
      mcGetDeviceProperties(&prop, 0) != mcSuccess) {
    return 0;
  }
  return per_multiprocessor * prop.multiProcessorCount;
}

// A graph holding one WideKernel node of `blocks` blocks of 1024 threads.
struct WideGraph {
  explicit WideGraph(unsigned blocks) {
    mcMalloc(&cell, sizeof(int));
    args[0] = &cell;
    params = {reinterpret_cast<void*>(WideKernel),
              dim3(blocks),
              dim3(1024),
              0,
              args,
              nullptr};
    status = mcGraphAddKernelNode(&node, graph.get(), nullptr, 0, &params);
  }
  ~WideGraph() { mcFree(cell); }
  mcError_t SetCooperative(int cooperative) {
    mcKernelNodeAttrValue value{};
    value.cooperative = cooperative;
    return mcGraphKernelNodeSetAttribute(node, mcKernelNodeAttributeCooperative,
                                         &value);
  }

  ScopedGraph graph;
  int* cell = nullptr;
  void* args[1];
  mcKernelNodeParams params;
  mcGraphNode_t node = nullptr;
  mcError_t status;
};

class CooperativeTooLargeTest : public ::testing::TestWithParam<int> {};

TEST_P(CooperativeTooLargeTest, GridBeyondResidencyIsRefused) {
  MX_SPEC("api.graph.kernel-node-attribute.cooperative-runs-cooperatively");
  MX_REQUIRE_CAPABILITY("graphs");
  MX_REQUIRE_CAPABILITY("cooperative_launch");
  const int extra = GetParam();  // 0: the largest grid, the control
  const unsigned largest = LargestCooperativeGrid();
  ASSERT_GT(largest, 0u);
  WideGraph g(largest + extra);
  ASSERT_EQ(g.status, mcSuccess);
  EXPECT_EQ(g.SetCooperative(1),
            extra == 0 ? mcSuccess : mcErrorCooperativeLaunchTooLarge);
  mcKernelNodeAttrValue value{};
  value.cooperative = -1;
  ASSERT_EQ(mcGraphKernelNodeGetAttribute(
                g.node, mcKernelNodeAttributeCooperative, &value),
            mcSuccess);
  EXPECT_EQ(value.cooperative, extra == 0 ? 1 : 0);
}

INSTANTIATE_TEST_SUITE_P(Extra, CooperativeTooLargeTest,
                         ::testing::Values(0, 1, 100));

// A cooperative node keeps its check when its parameters change.
TEST(CooperativeTooLarge, SetParamsBeyondResidencyIsRefused) {
  MX_SPEC("api.graph.kernel-node-attribute.kept-by-set-params");
  MX_REQUIRE_CAPABILITY("graphs");
  MX_REQUIRE_CAPABILITY("cooperative_launch");
  const unsigned largest = LargestCooperativeGrid();
  ASSERT_GT(largest, 0u);
  WideGraph g(1);
  ASSERT_EQ(g.status, mcSuccess);
  ASSERT_EQ(g.SetCooperative(1), mcSuccess);
  mcKernelNodeParams wider = g.params;
  wider.gridDim = dim3(largest + 1);
  EXPECT_EQ(mcGraphKernelNodeSetParams(g.node, &wider),
            mcErrorCooperativeLaunchTooLarge);
  mcKernelNodeParams read{};
  ASSERT_EQ(mcGraphKernelNodeGetParams(g.node, &read), mcSuccess);
  EXPECT_EQ(read.gridDim.x, 1u) << "the node kept its parameters";
  // The control: an ordinary node takes the same grid.
  ASSERT_EQ(g.SetCooperative(0), mcSuccess);
  EXPECT_EQ(mcGraphKernelNodeSetParams(g.node, &wider), mcSuccess);
}

}  // namespace
