// Copyright mxcts authors.
//
// Conformance: the errors of the mcGraphAdd*Node functions
// (docs/spec/api-graph.md, "Adding nodes"). The rules on the dependency
// array and the output and graph arguments are common to every function,
// so they are tested for every kind of node on every device; the errors of
// each kind's parameters follow. Every failing call is shown to add no node
// and no edge, beside a control call that succeeds.

#include <mc_runtime.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/graph/graph_testing.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::graph {
namespace {

__global__ void StoreValue(int* cell, int value) { *cell = value; }

__device__ unsigned char graph_symbol[NodeMaker::kBytes];

void NotAKernel(int*, int) {}
int not_a_kernel_data = 0;

// A graph on the parameter's device holding two empty root nodes, another
// graph holding one node, and a NodeMaker.
class AddNodeTest : public testing::TestWithParam<std::tuple<int, NodeKind>> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    device_.emplace(std::get<0>(GetParam()));
    ASSERT_TRUE(device_->ok());
    maker_.emplace(reinterpret_cast<const void*>(StoreValue), &graph_symbol);
    ASSERT_TRUE(maker_->ok());
    ASSERT_EQ(graph_.status(), mcSuccess);
    ASSERT_EQ(other_.status(), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&root_, graph(), nullptr, 0), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&second_, graph(), nullptr, 0), mcSuccess);
    ASSERT_EQ(mcGraphAddEmptyNode(&foreign_, other_.get(), nullptr, 0),
              mcSuccess);
    maker_->Prepare(kind(), graph());
  }
  void TearDown() override {
    mcDeviceSynchronize();
    maker_.reset();
    device_.reset();
  }
  NodeKind kind() const { return std::get<1>(GetParam()); }
  mcGraph_t graph() const { return graph_.get(); }
  mcError_t Add(mcGraphNode_t* node, mcGraph_t graph,
                const mcGraphNode_t* dependencies, size_t count) {
    return maker_->Add(kind(), node, graph, dependencies, count);
  }
  // The control: a node of the kind depending on the root succeeds, and
  // adds one node (besides what the kind needs before it).
  void ExpectControlAdds() {
    const size_t nodes = NodeCount(graph());
    mcGraphNode_t node = nullptr;
    ASSERT_EQ(Add(&node, graph(), &root_, 1), mcSuccess);
    EXPECT_NE(node, nullptr);
    EXPECT_EQ(NodeType(node), TypeOf(kind()));
    EXPECT_EQ(NodeCount(graph()), nodes + 1);
  }

  std::optional<ScopedDevice> device_;
  std::optional<NodeMaker> maker_;
  ScopedGraph graph_;
  ScopedGraph other_;
  mcGraphNode_t root_ = nullptr;
  mcGraphNode_t second_ = nullptr;
  mcGraphNode_t foreign_ = nullptr;
};

TEST_P(AddNodeTest, NullDependenciesWithCountIsInvalidValue) {
  MX_SPEC("api.graph.node.null-dependencies-with-count-invalid-value");
  const GraphShape before = Shape(graph());
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(Add(&node, graph(), nullptr, 1), mcErrorInvalidValue);
  EXPECT_EQ(Add(&node, graph(), nullptr, 3), mcErrorInvalidValue);
  EXPECT_EQ(Shape(graph()), before);
  ExpectControlAdds();
}

TEST_P(AddNodeTest, DependencyFromOtherGraphIsInvalidValue) {
  MX_SPEC("api.graph.node.dependency-from-other-graph-invalid-value");
  const GraphShape before = Shape(graph());
  const GraphShape other_before = Shape(other_.get());
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(Add(&node, graph(), &foreign_, 1), mcErrorInvalidValue);
  const mcGraphNode_t mixed[] = {root_, foreign_};
  EXPECT_EQ(Add(&node, graph(), mixed, 2), mcErrorInvalidValue);
  EXPECT_EQ(Shape(graph()), before);
  EXPECT_EQ(Shape(other_.get()), other_before);
  EXPECT_TRUE(Dependents(root_).empty());
  EXPECT_TRUE(Dependents(foreign_).empty());
  ExpectControlAdds();
}

TEST_P(AddNodeTest, DuplicateDependencyIsInvalidValue) {
  MX_SPEC("api.graph.node.duplicate-dependency-invalid-value");
  const GraphShape before = Shape(graph());
  mcGraphNode_t node = nullptr;
  const mcGraphNode_t twice[] = {root_, root_};
  EXPECT_EQ(Add(&node, graph(), twice, 2), mcErrorInvalidValue);
  const mcGraphNode_t apart[] = {root_, second_, root_};
  EXPECT_EQ(Add(&node, graph(), apart, 3), mcErrorInvalidValue);
  EXPECT_EQ(Shape(graph()), before);
  // Control: the two distinct nodes are accepted.
  const mcGraphNode_t distinct[] = {root_, second_};
  ASSERT_EQ(Add(&node, graph(), distinct, 2), mcSuccess);
  EXPECT_EQ(Dependents(root_), std::vector<mcGraphNode_t>{node});
  EXPECT_EQ(Dependents(second_), std::vector<mcGraphNode_t>{node});
}

TEST_P(AddNodeTest, NullOutputIsInvalidValue) {
  MX_SPEC("api.graph.node.null-output-or-graph-invalid-value");
  const GraphShape before = Shape(graph());
  EXPECT_EQ(Add(nullptr, graph(), &root_, 1), mcErrorInvalidValue);
  EXPECT_EQ(Shape(graph()), before);
  ExpectControlAdds();
}

TEST_P(AddNodeTest, NullGraphIsInvalidValue) {
  MX_SPEC("api.graph.node.null-output-or-graph-invalid-value");
  const GraphShape before = Shape(graph());
  const GraphShape other_before = Shape(other_.get());
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(Add(&node, nullptr, nullptr, 0), mcErrorInvalidValue);
  EXPECT_EQ(Shape(graph()), before);
  EXPECT_EQ(Shape(other_.get()), other_before);
  maker_->Prepare(kind(), graph());
  ExpectControlAdds();
}

INSTANTIATE_TEST_SUITE_P(EveryKindOnEveryDevice, AddNodeTest,
                         testing::Combine(testing::ValuesIn(GraphDevices()),
                                          testing::ValuesIn(kAllNodeKinds)),
                         KindOnDeviceName);

// ---------------------------------------------------------------------------
// The errors of each kind's parameters, on every device.

class NodeParamsTest : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    device_.emplace(GetParam());
    ASSERT_TRUE(device_->ok());
    maker_.emplace(reinterpret_cast<const void*>(StoreValue), &graph_symbol);
    ASSERT_TRUE(maker_->ok());
    ASSERT_EQ(graph_.status(), mcSuccess);
    ASSERT_EQ(mcGetDeviceProperties(&prop_, GetParam()), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    maker_.reset();
    device_.reset();
  }
  mcGraph_t graph() const { return graph_.get(); }
  NodeMaker& maker() { return *maker_; }

  std::optional<ScopedDevice> device_;
  std::optional<NodeMaker> maker_;
  ScopedGraph graph_;
  mcDeviceProp_t prop_{};
};

std::string DeviceName(const testing::TestParamInfo<int>& info) {
  return "Device" + std::to_string(info.param);
}

// Kernel nodes.

TEST_P(NodeParamsTest, KernelNullParamsIsInvalidValue) {
  MX_SPEC("api.graph.kernel-node.null-params-invalid-value");
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 0u);
  mcKernelNodeParams params = maker().KernelParams();
  EXPECT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, &params),
            mcSuccess);
  EXPECT_EQ(NodeCount(graph()), 1u);
}

TEST_P(NodeParamsTest, KernelParamsAndExtraTogetherIsInvalidValue) {
  MX_SPEC("api.graph.kernel-node.extra-argument-form");
  struct {
    int* cell;
    int value;
  } packed = {maker().cell(), 7};
  size_t size = sizeof(packed);
  void* extra[] = {MC_LAUNCH_PARAM_BUFFER_POINTER, &packed,
                   MC_LAUNCH_PARAM_BUFFER_SIZE, &size, MC_LAUNCH_PARAM_END};
  mcKernelNodeParams both = maker().KernelParams();
  both.extra = extra;
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, &both),
            mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 0u);
  // Controls: either form alone is accepted.
  mcKernelNodeParams only_extra = both;
  only_extra.kernelParams = nullptr;
  EXPECT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, &only_extra),
            mcSuccess);
  mcKernelNodeParams only_params = both;
  only_params.extra = nullptr;
  EXPECT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, &only_params),
            mcSuccess);
  EXPECT_EQ(NodeCount(graph()), 2u);
}

TEST_P(NodeParamsTest, KernelWithoutItsArgumentsIsInvalidValue) {
  MX_SPEC("api.graph.kernel-node.extra-argument-form");
  mcKernelNodeParams neither = maker().KernelParams();
  neither.kernelParams = nullptr;
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, &neither),
            mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 0u);
  mcKernelNodeParams good = maker().KernelParams();
  EXPECT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, &good), mcSuccess);
}

TEST_P(NodeParamsTest, KernelFunctionThatIsNoKernelIsInvalidDeviceFunction) {
  MX_SPEC("api.graph.kernel-node.bad-function-invalid-device-function");
  const void* not_kernels[] = {reinterpret_cast<const void*>(&NotAKernel),
                               &not_a_kernel_data, nullptr,
                               maker().device_src()};
  for (const void* function : not_kernels) {
    mcKernelNodeParams params = maker().KernelParams();
    params.func = const_cast<void*>(function);
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, &params),
              mcErrorInvalidDeviceFunction)
        << function;
  }
  EXPECT_EQ(NodeCount(graph()), 0u);
  mcGetLastError();
  mcKernelNodeParams good = maker().KernelParams();
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, &good), mcSuccess);
}

// A configuration, whether the device accepts it, and its name.
struct Configuration {
  const char* name;
  dim3 grid;
  dim3 block;
  size_t shared;
  bool fits;
};

std::vector<Configuration> Configurations(const mcDeviceProp_t& prop) {
  const unsigned max_threads = static_cast<unsigned>(prop.maxThreadsPerBlock);
  const unsigned max_z = static_cast<unsigned>(prop.maxThreadsDim[2]);
  return {
      {"MaxThreads", dim3(1), dim3(max_threads), 0, true},
      {"MaxThreadsPlusOne", dim3(1), dim3(max_threads + 1), 0, false},
      {"MaxThreadsAsTwoDimensions", dim3(1), dim3(max_threads / 2, 2), 0, true},
      {"TwiceMaxThreadsAsTwoDimensions", dim3(1), dim3(max_threads, 2), 0,
       false},
      {"MaxBlockZ", dim3(1), dim3(1, 1, max_z), 0, true},
      {"MaxBlockZPlusOne", dim3(1), dim3(1, 1, max_z + 1), 0, false},
      {"ZeroGridX", dim3(0), dim3(1), 0, false},
      {"ZeroGridY", dim3(1, 0), dim3(1), 0, false},
      {"ZeroGridZ", dim3(1, 1, 0), dim3(1), 0, false},
      {"ZeroBlockX", dim3(1), dim3(0), 0, false},
      {"ZeroBlockY", dim3(1), dim3(1, 0), 0, false},
      {"ZeroBlockZ", dim3(1), dim3(1, 1, 0), 0, false},
      {"MaxSharedMemory", dim3(1), dim3(1), prop.sharedMemPerBlock, true},
      {"MaxSharedMemoryPlusOne", dim3(1), dim3(1), prop.sharedMemPerBlock + 1,
       false},
  };
}

TEST_P(NodeParamsTest, KernelConfigurationThatDoesNotFitIsRejected) {
  MX_SPEC("api.graph.kernel-node.bad-configuration-invalid-configuration");
  for (const Configuration& config : Configurations(prop_)) {
    SCOPED_TRACE(config.name);
    ScopedGraph graph;
    ASSERT_EQ(graph.status(), mcSuccess);
    mcKernelNodeParams params = maker().KernelParams();
    params.gridDim = config.grid;
    params.blockDim = config.block;
    params.sharedMemBytes = static_cast<unsigned int>(config.shared);
    mcGraphNode_t node = nullptr;
    const mcError_t added =
        mcGraphAddKernelNode(&node, graph.get(), nullptr, 0, &params);
    if (config.fits) {
      ASSERT_EQ(added, mcSuccess);
      ScopedExec exec(graph.get());
      EXPECT_EQ(exec.status(), mcSuccess);
      continue;
    }
    // Refused when added, or at the latest when instantiated.
    if (added != mcSuccess) {
      EXPECT_EQ(added, mcErrorInvalidConfiguration);
      EXPECT_EQ(NodeCount(graph.get()), 0u);
    } else {
      ScopedExec exec(graph.get());
      EXPECT_EQ(exec.status(), mcErrorInvalidConfiguration);
    }
    mcGetLastError();
  }
}

// Memcpy nodes.

// Values outside mcMemcpyKind.
constexpr int kBadKinds[] = {5, 6, 42, -1};

TEST_P(NodeParamsTest, MemcpyBadKindIsInvalidMemcpyDirection) {
  MX_SPEC("api.graph.memcpy-node.bad-kind-invalid-direction");
  for (int bad : kBadKinds) {
    SCOPED_TRACE(bad);
    const mcMemcpyKind kind = static_cast<mcMemcpyKind>(bad);
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(
        mcGraphAddMemcpyNode1D(&node, graph(), nullptr, 0, maker().device_dst(),
                               maker().host(), NodeMaker::kBytes, kind),
        mcErrorInvalidMemcpyDirection);
    mcMemcpy3DParms params = maker().CopyParams();
    params.kind = kind;
    EXPECT_EQ(mcGraphAddMemcpyNode(&node, graph(), nullptr, 0, &params),
              mcErrorInvalidMemcpyDirection);
    EXPECT_EQ(mcGraphAddMemcpyNodeToSymbol(
                  &node, graph(), nullptr, 0, maker().symbol(),
                  maker().device_src(), NodeMaker::kBytes, 0, kind),
              mcErrorInvalidMemcpyDirection);
    EXPECT_EQ(mcGraphAddMemcpyNodeFromSymbol(
                  &node, graph(), nullptr, 0, maker().device_dst(),
                  maker().symbol(), NodeMaker::kBytes, 0, kind),
              mcErrorInvalidMemcpyDirection);
  }
  EXPECT_EQ(NodeCount(graph()), 0u);
  mcGetLastError();
  // Control: every form with mcMemcpyDefault.
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddMemcpyNode1D(&node, graph(), nullptr, 0,
                                   maker().device_dst(), maker().host(),
                                   NodeMaker::kBytes, mcMemcpyDefault),
            mcSuccess);
  mcMemcpy3DParms params = maker().CopyParams();
  params.kind = mcMemcpyDefault;
  EXPECT_EQ(mcGraphAddMemcpyNode(&node, graph(), nullptr, 0, &params),
            mcSuccess);
  EXPECT_EQ(mcGraphAddMemcpyNodeToSymbol(&node, graph(), nullptr, 0,
                                         maker().symbol(), maker().device_src(),
                                         NodeMaker::kBytes, 0, mcMemcpyDefault),
            mcSuccess);
  EXPECT_EQ(mcGraphAddMemcpyNodeFromSymbol(
                &node, graph(), nullptr, 0, maker().device_dst(),
                maker().symbol(), NodeMaker::kBytes, 0, mcMemcpyDefault),
            mcSuccess);
  EXPECT_EQ(NodeCount(graph()), 4u);
}

TEST_P(NodeParamsTest, Memcpy1DNullPointerIsInvalidValue) {
  MX_SPEC("api.graph.memcpy-node.null-pointer-invalid-value");
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddMemcpyNode1D(&node, graph(), nullptr, 0, nullptr,
                                   maker().host(), NodeMaker::kBytes,
                                   mcMemcpyHostToDevice),
            mcErrorInvalidValue);
  EXPECT_EQ(
      mcGraphAddMemcpyNode1D(&node, graph(), nullptr, 0, maker().device_dst(),
                             nullptr, NodeMaker::kBytes, mcMemcpyHostToDevice),
      mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 0u);
  mcGetLastError();
  EXPECT_EQ(mcGraphAddMemcpyNode1D(&node, graph(), nullptr, 0,
                                   maker().device_dst(), maker().host(),
                                   NodeMaker::kBytes, mcMemcpyHostToDevice),
            mcSuccess);
  EXPECT_EQ(NodeCount(graph()), 1u);
}

TEST_P(NodeParamsTest, Memcpy3DNullParamsOrPointerIsInvalidValue) {
  MX_SPEC("api.graph.memcpy-node.null-pointer-invalid-value");
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddMemcpyNode(&node, graph(), nullptr, 0, nullptr),
            mcErrorInvalidValue);
  mcMemcpy3DParms no_source = maker().CopyParams();
  no_source.srcPtr.ptr = nullptr;
  EXPECT_EQ(mcGraphAddMemcpyNode(&node, graph(), nullptr, 0, &no_source),
            mcErrorInvalidValue);
  mcMemcpy3DParms no_destination = maker().CopyParams();
  no_destination.dstPtr.ptr = nullptr;
  EXPECT_EQ(mcGraphAddMemcpyNode(&node, graph(), nullptr, 0, &no_destination),
            mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 0u);
  mcGetLastError();
  mcMemcpy3DParms good = maker().CopyParams();
  EXPECT_EQ(mcGraphAddMemcpyNode(&node, graph(), nullptr, 0, &good), mcSuccess);
  EXPECT_EQ(NodeCount(graph()), 1u);
}

TEST_P(NodeParamsTest, MemcpySymbolNullPointerIsInvalidValue) {
  MX_SPEC("api.graph.memcpy-node.null-pointer-invalid-value");
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddMemcpyNodeToSymbol(
                &node, graph(), nullptr, 0, maker().symbol(), nullptr,
                NodeMaker::kBytes, 0, mcMemcpyDeviceToDevice),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphAddMemcpyNodeFromSymbol(&node, graph(), nullptr, 0, nullptr,
                                           maker().symbol(), NodeMaker::kBytes,
                                           0, mcMemcpyDeviceToDevice),
            mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 0u);
  mcGetLastError();
  EXPECT_EQ(
      mcGraphAddMemcpyNodeToSymbol(&node, graph(), nullptr, 0, maker().symbol(),
                                   maker().device_src(), NodeMaker::kBytes, 0,
                                   mcMemcpyDeviceToDevice),
      mcSuccess);
  EXPECT_EQ(NodeCount(graph()), 1u);
}

// Memset nodes.

TEST_P(NodeParamsTest, MemsetElementSizeOtherThanOneTwoFourIsInvalidValue) {
  MX_SPEC("api.graph.memset-node.element-size-invalid-value");
  for (unsigned size : {0u, 3u, 5u, 8u, 16u}) {
    mcMemsetParams params = maker().MemsetParams();
    params.elementSize = size;
    params.width = 4;
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(mcGraphAddMemsetNode(&node, graph(), nullptr, 0, &params),
              mcErrorInvalidValue)
        << size;
  }
  EXPECT_EQ(NodeCount(graph()), 0u);
  mcGetLastError();
  for (unsigned size : {1u, 2u, 4u}) {
    mcMemsetParams params = maker().MemsetParams();
    params.elementSize = size;
    params.width = 4;
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(mcGraphAddMemsetNode(&node, graph(), nullptr, 0, &params),
              mcSuccess)
        << size;
  }
  EXPECT_EQ(NodeCount(graph()), 3u);
}

TEST_P(NodeParamsTest, MemsetNullParamsIsInvalidValue) {
  MX_SPEC("api.graph.memset-node.bad-destination-invalid-value");
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddMemsetNode(&node, graph(), nullptr, 0, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 0u);
  mcMemsetParams good = maker().MemsetParams();
  EXPECT_EQ(mcGraphAddMemsetNode(&node, graph(), nullptr, 0, &good), mcSuccess);
}

TEST_P(NodeParamsTest, MemsetDestinationNotDeviceMemoryIsInvalidValue) {
  MX_SPEC("api.graph.memset-node.bad-destination-invalid-value");
  std::vector<unsigned char> pageable(NodeMaker::kBytes);
  for (void* dst :
       {static_cast<void*>(nullptr), static_cast<void*>(pageable.data())}) {
    mcMemsetParams params = maker().MemsetParams();
    params.dst = dst;
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(mcGraphAddMemsetNode(&node, graph(), nullptr, 0, &params),
              mcErrorInvalidValue)
        << dst;
  }
  EXPECT_EQ(NodeCount(graph()), 0u);
  mcGetLastError();
  mcMemsetParams good = maker().MemsetParams();
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddMemsetNode(&node, graph(), nullptr, 0, &good), mcSuccess);
}

TEST_P(NodeParamsTest, MemsetPitchNarrowerThanRowIsInvalidValue) {
  MX_SPEC("api.graph.memset-node.bad-destination-invalid-value");
  for (unsigned size : {1u, 2u, 4u}) {
    SCOPED_TRACE(size);
    mcMemsetParams params = maker().MemsetParams();
    params.elementSize = size;
    params.width = 8;
    params.height = 2;
    params.pitch = 8 * size - 1;
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(mcGraphAddMemsetNode(&node, graph(), nullptr, 0, &params),
              mcErrorInvalidValue);
    EXPECT_EQ(NodeCount(graph()), 0u);
    mcGetLastError();
    // Control: a pitch of exactly one row.
    params.pitch = 8 * size;
    ScopedGraph control;
    EXPECT_EQ(mcGraphAddMemsetNode(&node, control.get(), nullptr, 0, &params),
              mcSuccess);
  }
}

// Host nodes.

TEST_P(NodeParamsTest, HostNullFunctionOrParamsIsInvalidValue) {
  MX_SPEC("api.graph.host-node.null-function-invalid-value");
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddHostNode(&node, graph(), nullptr, 0, nullptr),
            mcErrorInvalidValue);
  mcHostNodeParams no_function = maker().HostParams();
  no_function.fn = nullptr;
  EXPECT_EQ(mcGraphAddHostNode(&node, graph(), nullptr, 0, &no_function),
            mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 0u);
  // Control: a function with null user data is fine.
  mcHostNodeParams good = maker().HostParams();
  good.userData = nullptr;
  EXPECT_EQ(mcGraphAddHostNode(&node, graph(), nullptr, 0, &good), mcSuccess);
  EXPECT_EQ(NodeCount(graph()), 1u);
}

// Child graph nodes.

TEST_P(NodeParamsTest, ChildGraphNullIsInvalidValue) {
  MX_SPEC("api.graph.child-graph-node.null-child-invalid-value");
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddChildGraphNode(&node, graph(), nullptr, 0, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 0u);
  EXPECT_EQ(
      mcGraphAddChildGraphNode(&node, graph(), nullptr, 0, maker().child()),
      mcSuccess);
  EXPECT_EQ(NodeCount(graph()), 1u);
}

TEST_P(NodeParamsTest, EmptyChildGraphIsAccepted) {
  MX_SPEC("api.graph.child-graph-node.null-child-invalid-value",
          "api.graph.child-graph-node.embeds-copy");
  ScopedGraph empty;
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddChildGraphNode(&node, graph(), nullptr, 0, empty.get()),
            mcSuccess);
  EXPECT_EQ(NodeType(node), mcGraphNodeTypeGraph);
  // Beside it, the null child is still refused.
  EXPECT_EQ(mcGraphAddChildGraphNode(&node, graph(), nullptr, 0, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 1u);
}

// Event nodes.

TEST_P(NodeParamsTest, EventRecordNullEventIsInvalidValue) {
  MX_SPEC("api.graph.event-node.null-event-invalid-value");
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddEventRecordNode(&node, graph(), nullptr, 0, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 0u);
  EXPECT_EQ(mcGraphAddEventRecordNode(&node, graph(), nullptr, 0,
                                      maker().record_event()),
            mcSuccess);
  EXPECT_EQ(NodeCount(graph()), 1u);
}

TEST_P(NodeParamsTest, EventWaitNullEventIsInvalidValue) {
  MX_SPEC("api.graph.event-node.null-event-invalid-value");
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddEventWaitNode(&node, graph(), nullptr, 0, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 0u);
  EXPECT_EQ(
      mcGraphAddEventWaitNode(&node, graph(), nullptr, 0, maker().wait_event()),
      mcSuccess);
  EXPECT_EQ(NodeCount(graph()), 1u);
}

TEST_P(NodeParamsTest, EventNodesWithDependenciesAndNullEventAddNoEdge) {
  MX_SPEC("api.graph.event-node.null-event-invalid-value");
  mcGraphNode_t root = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&root, graph(), nullptr, 0), mcSuccess);
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddEventRecordNode(&node, graph(), &root, 1, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphAddEventWaitNode(&node, graph(), &root, 1, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 1u);
  EXPECT_EQ(EdgeCount(graph()), 0u);
  EXPECT_EQ(
      mcGraphAddEventWaitNode(&node, graph(), &root, 1, maker().wait_event()),
      mcSuccess);
  EXPECT_EQ(EdgeCount(graph()), 1u);
}

// Memory allocation and free nodes.

TEST_P(NodeParamsTest, MemAllocNullParamsOrZeroSizeIsInvalidValue) {
  MX_SPEC("api.graph.mem-alloc-node.allocates");
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddMemAllocNode(&node, graph(), nullptr, 0, nullptr),
            mcErrorInvalidValue);
  mcMemAllocNodeParams zero = maker().AllocParams();
  zero.bytesize = 0;
  EXPECT_EQ(mcGraphAddMemAllocNode(&node, graph(), nullptr, 0, &zero),
            mcErrorInvalidValue);
  EXPECT_EQ(NodeCount(graph()), 0u);
  mcMemAllocNodeParams good = maker().AllocParams();
  EXPECT_EQ(mcGraphAddMemAllocNode(&node, graph(), nullptr, 0, &good),
            mcSuccess);
  EXPECT_NE(good.dptr, nullptr);
  EXPECT_EQ(NodeCount(graph()), 1u);
}

TEST_P(NodeParamsTest, MemAllocBadPoolPropertiesIsInvalidValue) {
  MX_SPEC("api.graph.mem-alloc-node.allocates");
  std::vector<mcMemAllocNodeParams> bad;
  mcMemAllocNodeParams params = maker().AllocParams();
  params.poolProps.allocType = mcMemAllocationTypeInvalid;
  bad.push_back(params);
  params = maker().AllocParams();
  params.poolProps.location.type = mcMemLocationTypeInvalid;
  bad.push_back(params);
  params = maker().AllocParams();
  params.poolProps.location.id = GraphDeviceCount();
  bad.push_back(params);
  params = maker().AllocParams();
  params.poolProps.location.id = -1;
  bad.push_back(params);
  for (size_t i = 0; i < bad.size(); ++i) {
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(mcGraphAddMemAllocNode(&node, graph(), nullptr, 0, &bad[i]),
              mcErrorInvalidValue)
        << "case " << i;
  }
  EXPECT_EQ(NodeCount(graph()), 0u);
  mcGetLastError();
  mcMemAllocNodeParams good = maker().AllocParams();
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddMemAllocNode(&node, graph(), nullptr, 0, &good),
            mcSuccess);
}

TEST_P(NodeParamsTest, MemFreeOfAddressNoAllocationNodeReturnedIsInvalidValue) {
  MX_SPEC("api.graph.mem-free-node.frees");
  mcMemAllocNodeParams params = maker().AllocParams();
  mcGraphNode_t alloc = nullptr;
  ASSERT_EQ(mcGraphAddMemAllocNode(&alloc, graph(), nullptr, 0, &params),
            mcSuccess);
  int host_value = 0;
  void* not_allocated[] = {nullptr, maker().device_src(), &host_value,
                           static_cast<char*>(params.dptr) + 1};
  for (void* address : not_allocated) {
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(mcGraphAddMemFreeNode(&node, graph(), &alloc, 1, address),
              mcErrorInvalidValue)
        << address;
  }
  EXPECT_EQ(NodeCount(graph()), 1u);
  EXPECT_EQ(EdgeCount(graph()), 0u);
  mcGetLastError();
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddMemFreeNode(&node, graph(), &alloc, 1, params.dptr),
            mcSuccess);
  EXPECT_EQ(NodeCount(graph()), 2u);
  EXPECT_EQ(EdgeCount(graph()), 1u);
}

TEST_P(NodeParamsTest, MemFreeTwiceInOneGraphIsInvalidValue) {
  MX_SPEC("api.graph.mem-free-node.after-allocation",
          "api.graph.mem-free-node.frees");
  mcMemAllocNodeParams params = maker().AllocParams();
  mcGraphNode_t alloc = nullptr;
  ASSERT_EQ(mcGraphAddMemAllocNode(&alloc, graph(), nullptr, 0, &params),
            mcSuccess);
  mcGraphNode_t first = nullptr;
  ASSERT_EQ(mcGraphAddMemFreeNode(&first, graph(), &alloc, 1, params.dptr),
            mcSuccess);
  const GraphShape before = Shape(graph());
  mcGraphNode_t second = nullptr;
  EXPECT_EQ(mcGraphAddMemFreeNode(&second, graph(), &first, 1, params.dptr),
            mcErrorInvalidValue);
  EXPECT_EQ(Shape(graph()), before);
}

TEST_P(NodeParamsTest, MemFreeNotOrderedAfterItsAllocationIsInvalidValue) {
  MX_SPEC("api.graph.mem-free-node.after-allocation");
  mcMemAllocNodeParams params = maker().AllocParams();
  mcGraphNode_t alloc = nullptr, other = nullptr, after = nullptr;
  ASSERT_EQ(mcGraphAddMemAllocNode(&alloc, graph(), nullptr, 0, &params),
            mcSuccess);
  ASSERT_EQ(mcGraphAddEmptyNode(&other, graph(), nullptr, 0), mcSuccess);
  ASSERT_EQ(mcGraphAddEmptyNode(&after, graph(), &alloc, 1), mcSuccess);
  const GraphShape before = Shape(graph());
  mcGraphNode_t node = nullptr;
  // No dependency, and a dependency with no path from the allocation.
  EXPECT_EQ(mcGraphAddMemFreeNode(&node, graph(), nullptr, 0, params.dptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphAddMemFreeNode(&node, graph(), &other, 1, params.dptr),
            mcErrorInvalidValue);
  EXPECT_EQ(Shape(graph()), before);
  mcGetLastError();
  // Control: ordered after the allocation through another node.
  const mcGraphNode_t both[] = {other, after};
  EXPECT_EQ(mcGraphAddMemFreeNode(&node, graph(), both, 2, params.dptr),
            mcSuccess);
  EXPECT_EQ(NodeCount(graph()), before.nodes.size() + 1);
}

TEST_P(NodeParamsTest, MemFreeBeforeItsAllocationIsInvalidValue) {
  MX_SPEC("api.graph.mem-free-node.after-allocation");
  // The allocation node depends on `first`; a free after `first` alone is
  // ordered before the allocation, not after it.
  mcGraphNode_t first = nullptr, alloc = nullptr;
  ASSERT_EQ(mcGraphAddEmptyNode(&first, graph(), nullptr, 0), mcSuccess);
  mcMemAllocNodeParams params = maker().AllocParams();
  ASSERT_EQ(mcGraphAddMemAllocNode(&alloc, graph(), &first, 1, &params),
            mcSuccess);
  const GraphShape before = Shape(graph());
  mcGraphNode_t node = nullptr;
  EXPECT_EQ(mcGraphAddMemFreeNode(&node, graph(), &first, 1, params.dptr),
            mcErrorInvalidValue);
  EXPECT_EQ(Shape(graph()), before);
  mcGetLastError();
  EXPECT_EQ(mcGraphAddMemFreeNode(&node, graph(), &alloc, 1, params.dptr),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, NodeParamsTest,
                         testing::ValuesIn(GraphDevices()), DeviceName);

}  // namespace
}  // namespace mxcts::conformance::graph
