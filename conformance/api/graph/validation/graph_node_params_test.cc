// Copyright mxcts authors.
//
// Conformance: the errors of the node parameter getters and setters
// (docs/spec/api-graph.md, api.graph.node-params.*). Each getter and
// setter is called on a node of every other kind, which it refuses with
// mcErrorInvalidValue, leaving the node's kind and the graph as they were,
// beside the same call on a node of its own kind, which succeeds. A setter
// given bad parameters fails as the matching Add would and leaves the
// node's parameters as they were.

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

// A getter or setter of node parameters, the kind of node it belongs to,
// and a call of it with good arguments.
struct Accessor {
  const char* name;
  NodeKind own_kind;
  mcError_t (*call)(mcGraphNode_t node, NodeMaker& maker);
};

const std::vector<Accessor>& Accessors() {
  static const std::vector<Accessor> accessors = {
      {"KernelNodeGetParams", NodeKind::kKernel,
       [](mcGraphNode_t node, NodeMaker&) {
         mcKernelNodeParams params{};
         return mcGraphKernelNodeGetParams(node, &params);
       }},
      {"MemcpyNodeGetParams", NodeKind::kMemcpy,
       [](mcGraphNode_t node, NodeMaker&) {
         mcMemcpy3DParms params{};
         return mcGraphMemcpyNodeGetParams(node, &params);
       }},
      {"MemsetNodeGetParams", NodeKind::kMemset,
       [](mcGraphNode_t node, NodeMaker&) {
         mcMemsetParams params{};
         return mcGraphMemsetNodeGetParams(node, &params);
       }},
      {"HostNodeGetParams", NodeKind::kHost,
       [](mcGraphNode_t node, NodeMaker&) {
         mcHostNodeParams params{};
         return mcGraphHostNodeGetParams(node, &params);
       }},
      {"ChildGraphNodeGetGraph", NodeKind::kChildGraph,
       [](mcGraphNode_t node, NodeMaker&) {
         mcGraph_t graph = nullptr;
         return mcGraphChildGraphNodeGetGraph(node, &graph);
       }},
      {"EventRecordNodeGetEvent", NodeKind::kEventRecord,
       [](mcGraphNode_t node, NodeMaker&) {
         mcEvent_t event = nullptr;
         return mcGraphEventRecordNodeGetEvent(node, &event);
       }},
      {"EventWaitNodeGetEvent", NodeKind::kEventWait,
       [](mcGraphNode_t node, NodeMaker&) {
         mcEvent_t event = nullptr;
         return mcGraphEventWaitNodeGetEvent(node, &event);
       }},
      {"MemAllocNodeGetParams", NodeKind::kMemAlloc,
       [](mcGraphNode_t node, NodeMaker&) {
         mcMemAllocNodeParams params{};
         return mcGraphMemAllocNodeGetParams(node, &params);
       }},
      {"MemFreeNodeGetParams", NodeKind::kMemFree,
       [](mcGraphNode_t node, NodeMaker&) {
         void* address = nullptr;
         return mcGraphMemFreeNodeGetParams(node, &address);
       }},
      {"KernelNodeSetParams", NodeKind::kKernel,
       [](mcGraphNode_t node, NodeMaker& maker) {
         mcKernelNodeParams params = maker.KernelParams();
         return mcGraphKernelNodeSetParams(node, &params);
       }},
      {"MemcpyNodeSetParams", NodeKind::kMemcpy,
       [](mcGraphNode_t node, NodeMaker& maker) {
         mcMemcpy3DParms params = maker.CopyParams();
         return mcGraphMemcpyNodeSetParams(node, &params);
       }},
      {"MemcpyNodeSetParams1D", NodeKind::kMemcpy1D,
       [](mcGraphNode_t node, NodeMaker& maker) {
         return mcGraphMemcpyNodeSetParams1D(
             node, maker.device_dst(), maker.device_src(), NodeMaker::kBytes,
             mcMemcpyDeviceToDevice);
       }},
      {"MemsetNodeSetParams", NodeKind::kMemset,
       [](mcGraphNode_t node, NodeMaker& maker) {
         mcMemsetParams params = maker.MemsetParams();
         return mcGraphMemsetNodeSetParams(node, &params);
       }},
      {"HostNodeSetParams", NodeKind::kHost,
       [](mcGraphNode_t node, NodeMaker& maker) {
         mcHostNodeParams params = maker.HostParams();
         return mcGraphHostNodeSetParams(node, &params);
       }},
      {"EventRecordNodeSetEvent", NodeKind::kEventRecord,
       [](mcGraphNode_t node, NodeMaker& maker) {
         return mcGraphEventRecordNodeSetEvent(node, maker.wait_event());
       }},
      {"EventWaitNodeSetEvent", NodeKind::kEventWait,
       [](mcGraphNode_t node, NodeMaker& maker) {
         return mcGraphEventWaitNodeSetEvent(node, maker.record_event());
       }},
  };
  return accessors;
}

using WrongKind = std::tuple<int, NodeKind>;  // accessor index, node kind

std::vector<WrongKind> WrongKinds() {
  std::vector<WrongKind> params;
  for (size_t i = 0; i < Accessors().size(); ++i) {
    for (NodeKind kind : kAllNodeKinds) {
      if (TypeOf(kind) != TypeOf(Accessors()[i].own_kind)) {
        params.emplace_back(static_cast<int>(i), kind);
      }
    }
  }
  return params;
}

std::string WrongKindName(const testing::TestParamInfo<WrongKind>& info) {
  return std::string(Accessors()[std::get<0>(info.param)].name) + "On" +
         NodeKindName(std::get<1>(info.param));
}

class NodeParamsOfWrongKind : public testing::TestWithParam<WrongKind> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    maker_.emplace(reinterpret_cast<const void*>(StoreValue), &graph_symbol);
    ASSERT_TRUE(maker_->ok());
    ASSERT_EQ(graph_.status(), mcSuccess);
  }
  void TearDown() override { maker_.reset(); }
  const Accessor& accessor() const {
    return Accessors()[std::get<0>(GetParam())];
  }
  NodeKind kind() const { return std::get<1>(GetParam()); }

  std::optional<NodeMaker> maker_;
  ScopedGraph graph_;
};

TEST_P(NodeParamsOfWrongKind, IsInvalidValueAndChangesNothing) {
  MX_SPEC("api.graph.node-params.wrong-node-type-invalid-value");
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(maker_->Add(kind(), &node, graph_.get(), nullptr, 0), mcSuccess);
  const GraphShape before = Shape(graph_.get());
  EXPECT_EQ(accessor().call(node, *maker_), mcErrorInvalidValue);
  EXPECT_EQ(NodeType(node), TypeOf(kind()));
  EXPECT_EQ(Shape(graph_.get()), before);
  mcGetLastError();
  // Control: the same call on a node of its own kind.
  mcGraphNode_t own = nullptr;
  ASSERT_EQ(maker_->Add(accessor().own_kind, &own, graph_.get(), nullptr, 0),
            mcSuccess);
  EXPECT_EQ(accessor().call(own, *maker_), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(EveryAccessorOnEveryOtherKind, NodeParamsOfWrongKind,
                         testing::ValuesIn(WrongKinds()), WrongKindName);

class NodeParamsNullArguments : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    maker_.emplace(reinterpret_cast<const void*>(StoreValue), &graph_symbol);
    ASSERT_TRUE(maker_->ok());
  }
  void TearDown() override { maker_.reset(); }
  const Accessor& accessor() const { return Accessors()[GetParam()]; }
  std::optional<NodeMaker> maker_;
};

TEST_P(NodeParamsNullArguments, NullNodeIsInvalidValue) {
  MX_SPEC("api.graph.node-params.wrong-node-type-invalid-value");
  EXPECT_EQ(accessor().call(nullptr, *maker_), mcErrorInvalidValue);
  mcGetLastError();
  ScopedGraph graph;
  mcGraphNode_t own = nullptr;
  ASSERT_EQ(maker_->Add(accessor().own_kind, &own, graph.get(), nullptr, 0),
            mcSuccess);
  EXPECT_EQ(accessor().call(own, *maker_), mcSuccess);
}

std::string AccessorName(const testing::TestParamInfo<int>& info) {
  return Accessors()[info.param].name;
}

INSTANTIATE_TEST_SUITE_P(EveryAccessor, NodeParamsNullArguments,
                         testing::Range(0,
                                        static_cast<int>(Accessors().size())),
                         AccessorName);

// Getters with a null output.

class NullOutput : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    maker_.emplace(reinterpret_cast<const void*>(StoreValue), &graph_symbol);
    ASSERT_TRUE(maker_->ok());
  }
  void TearDown() override { maker_.reset(); }
  mcGraphNode_t Add(NodeKind kind) {
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(maker_->Add(kind, &node, graph_.get(), nullptr, 0), mcSuccess);
    return node;
  }
  std::optional<NodeMaker> maker_;
  ScopedGraph graph_;
};

TEST_F(NullOutput, GettersRefuseANullOutput) {
  MX_SPEC("api.graph.node-params.get-returns-set-values");
  EXPECT_EQ(mcGraphKernelNodeGetParams(Add(NodeKind::kKernel), nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphMemcpyNodeGetParams(Add(NodeKind::kMemcpy), nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphMemsetNodeGetParams(Add(NodeKind::kMemset), nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphHostNodeGetParams(Add(NodeKind::kHost), nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphChildGraphNodeGetGraph(Add(NodeKind::kChildGraph), nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(
      mcGraphEventRecordNodeGetEvent(Add(NodeKind::kEventRecord), nullptr),
      mcErrorInvalidValue);
  EXPECT_EQ(mcGraphEventWaitNodeGetEvent(Add(NodeKind::kEventWait), nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphMemAllocNodeGetParams(Add(NodeKind::kMemAlloc), nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphMemFreeNodeGetParams(Add(NodeKind::kMemFree), nullptr),
            mcErrorInvalidValue);
  mcGetLastError();
  // Control: each getter with an output.
  for (const Accessor& accessor : Accessors()) {
    EXPECT_EQ(accessor.call(Add(accessor.own_kind), *maker_), mcSuccess)
        << accessor.name;
  }
}

// ---------------------------------------------------------------------------
// Setters given bad parameters, on every device.

class BadSet : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    device_.emplace(GetParam());
    ASSERT_TRUE(device_->ok());
    maker_.emplace(reinterpret_cast<const void*>(StoreValue), &graph_symbol);
    ASSERT_TRUE(maker_->ok());
  }
  void TearDown() override {
    maker_.reset();
    device_.reset();
  }
  mcGraphNode_t Add(NodeKind kind) {
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(maker_->Add(kind, &node, graph_.get(), nullptr, 0), mcSuccess);
    return node;
  }
  NodeMaker& maker() { return *maker_; }

  std::optional<ScopedDevice> device_;
  std::optional<NodeMaker> maker_;
  ScopedGraph graph_;
};

std::string DeviceName(const testing::TestParamInfo<int>& info) {
  return "Device" + std::to_string(info.param);
}

TEST_P(BadSet, KernelFunctionThatIsNoKernelKeepsTheParameters) {
  MX_SPEC("api.graph.node-params.set-changes-graph-node",
          "api.graph.kernel-node.bad-function-invalid-device-function");
  mcGraphNode_t node = Add(NodeKind::kKernel);
  mcKernelNodeParams bad = maker().KernelParams();
  bad.func = reinterpret_cast<void*>(&NotAKernel);
  bad.gridDim = dim3(3);
  EXPECT_EQ(mcGraphKernelNodeSetParams(node, &bad),
            mcErrorInvalidDeviceFunction);
  mcGetLastError();
  mcKernelNodeParams held{};
  ASSERT_EQ(mcGraphKernelNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.func, maker().store());
  EXPECT_EQ(held.gridDim.x, 1u);
  // Control: a good set with the new grid is taken.
  mcKernelNodeParams good = maker().KernelParams();
  good.gridDim = dim3(3);
  EXPECT_EQ(mcGraphKernelNodeSetParams(node, &good), mcSuccess);
  ASSERT_EQ(mcGraphKernelNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.gridDim.x, 3u);
}

TEST_P(BadSet, KernelNullParamsOrBothArgumentFormsKeepTheParameters) {
  MX_SPEC("api.graph.node-params.set-changes-graph-node",
          "api.graph.kernel-node.extra-argument-form",
          "api.graph.kernel-node.null-params-invalid-value");
  mcGraphNode_t node = Add(NodeKind::kKernel);
  EXPECT_EQ(mcGraphKernelNodeSetParams(node, nullptr), mcErrorInvalidValue);
  struct {
    int* cell;
    int value;
  } packed = {maker().cell(), 1};
  size_t size = sizeof(packed);
  void* extra[] = {MC_LAUNCH_PARAM_BUFFER_POINTER, &packed,
                   MC_LAUNCH_PARAM_BUFFER_SIZE, &size, MC_LAUNCH_PARAM_END};
  mcKernelNodeParams both = maker().KernelParams();
  both.extra = extra;
  both.blockDim = dim3(2);
  EXPECT_EQ(mcGraphKernelNodeSetParams(node, &both), mcErrorInvalidValue);
  mcKernelNodeParams held{};
  ASSERT_EQ(mcGraphKernelNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.blockDim.x, 1u);
  both.kernelParams = nullptr;
  EXPECT_EQ(mcGraphKernelNodeSetParams(node, &both), mcSuccess);
  ASSERT_EQ(mcGraphKernelNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.blockDim.x, 2u);
}

TEST_P(BadSet, MemcpyBadKindKeepsTheParameters) {
  MX_SPEC("api.graph.node-params.set-changes-graph-node",
          "api.graph.memcpy-node.bad-kind-invalid-direction");
  mcGraphNode_t node = Add(NodeKind::kMemcpy);
  mcMemcpy3DParms bad = maker().CopyParams();
  bad.kind = static_cast<mcMemcpyKind>(42);
  bad.extent.width = 16;
  EXPECT_EQ(mcGraphMemcpyNodeSetParams(node, &bad),
            mcErrorInvalidMemcpyDirection);
  mcGetLastError();
  mcMemcpy3DParms held{};
  ASSERT_EQ(mcGraphMemcpyNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.extent.width, NodeMaker::kBytes);
  EXPECT_EQ(held.kind, mcMemcpyDeviceToDevice);
  bad.kind = mcMemcpyDeviceToDevice;
  EXPECT_EQ(mcGraphMemcpyNodeSetParams(node, &bad), mcSuccess);
  ASSERT_EQ(mcGraphMemcpyNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.extent.width, 16u);
}

TEST_P(BadSet, Memcpy1DNullOrBadKindKeepsTheParameters) {
  MX_SPEC("api.graph.node-params.set-changes-graph-node",
          "api.graph.memcpy-node.null-pointer-invalid-value",
          "api.graph.memcpy-node.bad-kind-invalid-direction");
  mcGraphNode_t node = Add(NodeKind::kMemcpy1D);
  EXPECT_EQ(mcGraphMemcpyNodeSetParams1D(node, nullptr, maker().device_src(),
                                         16, mcMemcpyDeviceToDevice),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphMemcpyNodeSetParams1D(node, maker().device_dst(),
                                         maker().device_src(), 16,
                                         static_cast<mcMemcpyKind>(9)),
            mcErrorInvalidMemcpyDirection);
  mcGetLastError();
  mcMemcpy3DParms held{};
  ASSERT_EQ(mcGraphMemcpyNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.extent.width * held.extent.height * held.extent.depth,
            NodeMaker::kBytes);
  EXPECT_EQ(held.kind, mcMemcpyHostToDevice);
  EXPECT_EQ(mcGraphMemcpyNodeSetParams1D(node, maker().device_dst(),
                                         maker().device_src(), 16,
                                         mcMemcpyDeviceToDevice),
            mcSuccess);
  ASSERT_EQ(mcGraphMemcpyNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.extent.width * held.extent.height * held.extent.depth, 16u);
  EXPECT_EQ(held.kind, mcMemcpyDeviceToDevice);
}

TEST_P(BadSet, MemsetBadElementSizeKeepsTheParameters) {
  MX_SPEC("api.graph.node-params.set-changes-graph-node",
          "api.graph.memset-node.element-size-invalid-value");
  mcGraphNode_t node = Add(NodeKind::kMemset);
  mcMemsetParams bad = maker().MemsetParams();
  bad.elementSize = 3;
  bad.width = 4;
  bad.value = 9;
  EXPECT_EQ(mcGraphMemsetNodeSetParams(node, &bad), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphMemsetNodeSetParams(node, nullptr), mcErrorInvalidValue);
  mcGetLastError();
  mcMemsetParams held{};
  ASSERT_EQ(mcGraphMemsetNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.elementSize, 1u);
  EXPECT_EQ(held.value, NodeMaker::kMemsetByte);
  bad.elementSize = 4;
  EXPECT_EQ(mcGraphMemsetNodeSetParams(node, &bad), mcSuccess);
  ASSERT_EQ(mcGraphMemsetNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.elementSize, 4u);
  EXPECT_EQ(held.value, 9u);
}

TEST_P(BadSet, HostNullFunctionKeepsTheParameters) {
  MX_SPEC("api.graph.node-params.set-changes-graph-node",
          "api.graph.host-node.null-function-invalid-value");
  mcGraphNode_t node = Add(NodeKind::kHost);
  int data = 0;
  mcHostNodeParams bad{nullptr, &data};
  EXPECT_EQ(mcGraphHostNodeSetParams(node, &bad), mcErrorInvalidValue);
  EXPECT_EQ(mcGraphHostNodeSetParams(node, nullptr), mcErrorInvalidValue);
  mcHostNodeParams held{};
  ASSERT_EQ(mcGraphHostNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.fn, &NodeMaker::CountCall);
  EXPECT_NE(held.userData, &data);
  mcHostNodeParams good{&NodeMaker::CountCall, &data};
  EXPECT_EQ(mcGraphHostNodeSetParams(node, &good), mcSuccess);
  ASSERT_EQ(mcGraphHostNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.userData, &data);
}

TEST_P(BadSet, EventNullKeepsTheEvent) {
  MX_SPEC("api.graph.node-params.set-changes-graph-node",
          "api.graph.event-node.null-event-invalid-value");
  mcGraphNode_t record = Add(NodeKind::kEventRecord);
  mcGraphNode_t wait = Add(NodeKind::kEventWait);
  EXPECT_EQ(mcGraphEventRecordNodeSetEvent(record, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphEventWaitNodeSetEvent(wait, nullptr), mcErrorInvalidValue);
  mcEvent_t held = nullptr;
  ASSERT_EQ(mcGraphEventRecordNodeGetEvent(record, &held), mcSuccess);
  EXPECT_EQ(held, maker().record_event());
  ASSERT_EQ(mcGraphEventWaitNodeGetEvent(wait, &held), mcSuccess);
  EXPECT_EQ(held, maker().wait_event());
  EXPECT_EQ(mcGraphEventRecordNodeSetEvent(record, maker().wait_event()),
            mcSuccess);
  ASSERT_EQ(mcGraphEventRecordNodeGetEvent(record, &held), mcSuccess);
  EXPECT_EQ(held, maker().wait_event());
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, BadSet, testing::ValuesIn(GraphDevices()),
                         DeviceName);

}  // namespace
}  // namespace mxcts::conformance::graph
