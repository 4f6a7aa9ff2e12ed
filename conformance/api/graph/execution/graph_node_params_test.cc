// Copyright mxcts authors.
//
// Conformance: node parameters (docs/spec/api-graph.md,
// api.graph.node-params.*): each getter returns what the node was added
// with, or what was set on it last; a set changes the graph's node for
// executable graphs instantiated afterwards only. Graphs run with
// mcGraphInstantiate, mcGraphLaunch and mcStreamSynchronize, in every
// timeline mode, on every device.

#include <mc_runtime.h>

#include <atomic>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "conformance/api/graph/graph_testing.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance::graph {
namespace {

__global__ void StoreValue(int* cell, int value) { *cell = value; }

__global__ void AddValue(int* cell, int value) { *cell += value; }

__device__ unsigned char graph_symbol[NodeMaker::kBytes];

bool SamePitchedPtr(const mcPitchedPtr& a, const mcPitchedPtr& b) {
  return a.ptr == b.ptr && a.pitch == b.pitch && a.xsize == b.xsize &&
         a.ysize == b.ysize;
}

bool SamePos(const mcPos& a, const mcPos& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

bool SameExtent(const mcExtent& a, const mcExtent& b) {
  return a.width == b.width && a.height == b.height && a.depth == b.depth;
}

bool SameDim(const dim3& a, const dim3& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

class NodeParams : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    device_.emplace(GetParam());
    ASSERT_TRUE(device_->ok());
    maker_.emplace(reinterpret_cast<const void*>(StoreValue), &graph_symbol);
    ASSERT_TRUE(maker_->ok());
    ASSERT_EQ(mcStreamCreate(&stream_), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cells_, 64 * sizeof(int)), mcSuccess);
    std::memset(cells_, 0, 64 * sizeof(int));
    ASSERT_EQ(graph_.status(), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (cells_ != nullptr) mcFree(cells_);
    if (stream_ != nullptr) mcStreamDestroy(stream_);
    maker_.reset();
    device_.reset();
  }
  mcGraph_t graph() const { return graph_.get(); }
  NodeMaker& maker() { return *maker_; }
  mcGraphNode_t Add(NodeKind kind) {
    mcGraphNode_t node = nullptr;
    EXPECT_EQ(maker().Add(kind, &node, graph(), nullptr, 0), mcSuccess);
    return node;
  }
  // Launches `exec` once into the stream and waits.
  mcError_t Launch(const ScopedExec& exec) {
    const mcError_t launched = mcGraphLaunch(exec.get(), stream_);
    const mcError_t synchronized = mcStreamSynchronize(stream_);
    return launched != mcSuccess ? launched : synchronized;
  }

  std::optional<ScopedDevice> device_;
  std::optional<NodeMaker> maker_;
  mcStream_t stream_ = nullptr;
  int* cells_ = nullptr;
  ScopedGraph graph_;
};

std::string DeviceName(const testing::TestParamInfo<int>& info) {
  return "Device" + std::to_string(info.param);
}

// Getters return what the node was added with.

TEST_P(NodeParams, KernelGetReturnsTheAddedParameters) {
  MX_SPEC("api.graph.node-params.get-returns-set-values");
  int* cell = cells_ + 3;
  int value = 41;
  void* args[] = {&cell, &value};
  mcKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(StoreValue);
  params.gridDim = dim3(2, 3, 1);
  params.blockDim = dim3(4, 5, 2);
  params.sharedMemBytes = 96;
  params.kernelParams = args;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, &params),
            mcSuccess);
  mcKernelNodeParams held{};
  ASSERT_EQ(mcGraphKernelNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.func, reinterpret_cast<void*>(StoreValue));
  EXPECT_TRUE(SameDim(held.gridDim, params.gridDim));
  EXPECT_TRUE(SameDim(held.blockDim, params.blockDim));
  EXPECT_EQ(held.sharedMemBytes, 96u);
  EXPECT_EQ(held.extra, nullptr);
  ASSERT_NE(held.kernelParams, nullptr);
  EXPECT_EQ(*static_cast<int**>(held.kernelParams[0]), cells_ + 3);
  EXPECT_EQ(*static_cast<int*>(held.kernelParams[1]), 41);
}

TEST_P(NodeParams, KernelAddedWithExtraReportsItsArgumentsAsKernelParams) {
  MX_SPEC("api.graph.node-params.get-returns-set-values",
          "api.graph.kernel-node.extra-argument-form");
  struct {
    int* cell;
    int value;
  } packed = {cells_ + 7, 99};
  size_t size = sizeof(packed);
  void* extra[] = {MC_LAUNCH_PARAM_BUFFER_POINTER, &packed,
                   MC_LAUNCH_PARAM_BUFFER_SIZE, &size, MC_LAUNCH_PARAM_END};
  mcKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(StoreValue);
  params.gridDim = dim3(1);
  params.blockDim = dim3(1);
  params.extra = extra;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, &params),
            mcSuccess);
  packed.value = 0;  // copied when added
  mcKernelNodeParams held{};
  ASSERT_EQ(mcGraphKernelNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.extra, nullptr);
  ASSERT_NE(held.kernelParams, nullptr);
  EXPECT_EQ(*static_cast<int**>(held.kernelParams[0]), cells_ + 7);
  EXPECT_EQ(*static_cast<int*>(held.kernelParams[1]), 99);
  // The parameters read back add an equal node.
  mcGraphNode_t copy = nullptr;
  ASSERT_EQ(mcGraphAddKernelNode(&copy, graph(), &node, 1, &held), mcSuccess);
  ScopedExec exec(graph());
  ASSERT_EQ(Launch(exec), mcSuccess);
  EXPECT_EQ(cells_[7], 99);
}

TEST_P(NodeParams, MemcpyGetReturnsTheAddedParameters) {
  MX_SPEC("api.graph.node-params.get-returns-set-values");
  mcMemcpy3DParms params{};
  params.srcPtr = make_mcPitchedPtr(maker().device_src(), 64, 48, 4);
  params.srcPos = make_mcPos(2, 1, 0);
  params.dstPtr = make_mcPitchedPtr(maker().device_dst(), 32, 32, 8);
  params.dstPos = make_mcPos(0, 3, 0);
  params.extent = make_mcExtent(16, 2, 1);
  params.kind = mcMemcpyDeviceToDevice;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddMemcpyNode(&node, graph(), nullptr, 0, &params),
            mcSuccess);
  mcMemcpy3DParms held{};
  ASSERT_EQ(mcGraphMemcpyNodeGetParams(node, &held), mcSuccess);
  EXPECT_TRUE(SamePitchedPtr(held.srcPtr, params.srcPtr));
  EXPECT_TRUE(SamePitchedPtr(held.dstPtr, params.dstPtr));
  EXPECT_TRUE(SamePos(held.srcPos, params.srcPos));
  EXPECT_TRUE(SamePos(held.dstPos, params.dstPos));
  EXPECT_TRUE(SameExtent(held.extent, params.extent));
  EXPECT_EQ(held.kind, mcMemcpyDeviceToDevice);
  EXPECT_EQ(held.srcArray, nullptr);
  EXPECT_EQ(held.dstArray, nullptr);
}

TEST_P(NodeParams, Memcpy1DGetDescribesTheSameCopy) {
  MX_SPEC("api.graph.node-params.get-returns-set-values",
          "api.graph.memcpy-node.one-dimensional-form");
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(
      mcGraphAddMemcpyNode1D(&node, graph(), nullptr, 0, maker().device_dst(),
                             maker().device_src(), 100, mcMemcpyDeviceToDevice),
      mcSuccess);
  mcMemcpy3DParms held{};
  ASSERT_EQ(mcGraphMemcpyNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(static_cast<char*>(held.srcPtr.ptr) + held.srcPos.x,
            maker().device_src());
  EXPECT_EQ(static_cast<char*>(held.dstPtr.ptr) + held.dstPos.x,
            maker().device_dst());
  EXPECT_EQ(held.extent.width * held.extent.height * held.extent.depth, 100u);
  EXPECT_EQ(held.kind, mcMemcpyDeviceToDevice);
}

TEST_P(NodeParams, MemsetGetReturnsTheAddedParameters) {
  MX_SPEC("api.graph.node-params.get-returns-set-values");
  mcMemsetParams params{};
  params.dst = maker().device_dst();
  params.pitch = 64;
  params.value = 0xbeef;
  params.elementSize = 2;
  params.width = 8;
  params.height = 3;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddMemsetNode(&node, graph(), nullptr, 0, &params),
            mcSuccess);
  mcMemsetParams held{};
  ASSERT_EQ(mcGraphMemsetNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.dst, params.dst);
  EXPECT_EQ(held.pitch, 64u);
  EXPECT_EQ(held.value, 0xbeefu);
  EXPECT_EQ(held.elementSize, 2u);
  EXPECT_EQ(held.width, 8u);
  EXPECT_EQ(held.height, 3u);
}

TEST_P(NodeParams, HostGetReturnsTheAddedParameters) {
  MX_SPEC("api.graph.node-params.get-returns-set-values");
  int data = 0;
  mcHostNodeParams params{&NodeMaker::CountCall, &data};
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddHostNode(&node, graph(), nullptr, 0, &params), mcSuccess);
  mcHostNodeParams held{};
  ASSERT_EQ(mcGraphHostNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.fn, &NodeMaker::CountCall);
  EXPECT_EQ(held.userData, &data);
}

TEST_P(NodeParams, ChildGraphGetReturnsACopyOfTheChild) {
  MX_SPEC("api.graph.node-params.get-returns-set-values",
          "api.graph.child-graph-node.embeds-copy");
  ScopedGraph child;
  mcGraphNode_t a = nullptr, b = nullptr;
  ASSERT_EQ(maker().Add(NodeKind::kKernel, &a, child.get(), nullptr, 0),
            mcSuccess);
  ASSERT_EQ(maker().Add(NodeKind::kMemset, &b, child.get(), &a, 1), mcSuccess);
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddChildGraphNode(&node, graph(), nullptr, 0, child.get()),
            mcSuccess);
  mcGraph_t held = nullptr;
  ASSERT_EQ(mcGraphChildGraphNodeGetGraph(node, &held), mcSuccess);
  std::vector<mcGraphNode_t> nodes = Nodes(held);
  ASSERT_EQ(nodes.size(), 2u);
  std::vector<mcGraphNodeType> types = {NodeType(nodes[0]), NodeType(nodes[1])};
  EXPECT_EQ(Sorted(types), Sorted(std::vector<mcGraphNodeType>{
                               mcGraphNodeTypeKernel, mcGraphNodeTypeMemset}));
  const std::vector<Edge> edges = Edges(held);
  ASSERT_EQ(edges.size(), 1u);
  EXPECT_EQ(NodeType(edges[0].first), mcGraphNodeTypeKernel);
  EXPECT_EQ(NodeType(edges[0].second), mcGraphNodeTypeMemset);
  // The same graph each time it is asked.
  mcGraph_t again = nullptr;
  ASSERT_EQ(mcGraphChildGraphNodeGetGraph(node, &again), mcSuccess);
  EXPECT_EQ(again, held);
}

TEST_P(NodeParams, EventGettersReturnTheAddedEvents) {
  MX_SPEC("api.graph.node-params.get-returns-set-values");
  mcGraphNode_t record = Add(NodeKind::kEventRecord);
  mcGraphNode_t wait = Add(NodeKind::kEventWait);
  mcEvent_t held = nullptr;
  ASSERT_EQ(mcGraphEventRecordNodeGetEvent(record, &held), mcSuccess);
  EXPECT_EQ(held, maker().record_event());
  ASSERT_EQ(mcGraphEventWaitNodeGetEvent(wait, &held), mcSuccess);
  EXPECT_EQ(held, maker().wait_event());
}

TEST_P(NodeParams, MemoryNodeGettersReturnTheAddedParameters) {
  MX_SPEC("api.graph.node-params.get-returns-set-values",
          "api.graph.mem-alloc-node.allocates");
  mcMemAllocNodeParams params = maker().AllocParams();
  params.bytesize = 5000;
  mcGraphNode_t alloc = nullptr;
  ASSERT_EQ(mcGraphAddMemAllocNode(&alloc, graph(), nullptr, 0, &params),
            mcSuccess);
  mcGraphNode_t free_node = nullptr;
  ASSERT_EQ(mcGraphAddMemFreeNode(&free_node, graph(), &alloc, 1, params.dptr),
            mcSuccess);
  mcMemAllocNodeParams held{};
  ASSERT_EQ(mcGraphMemAllocNodeGetParams(alloc, &held), mcSuccess);
  EXPECT_EQ(held.dptr, params.dptr);
  EXPECT_EQ(held.bytesize, 5000u);
  EXPECT_EQ(held.poolProps.allocType, mcMemAllocationTypePinned);
  EXPECT_EQ(held.poolProps.location.type, mcMemLocationTypeDevice);
  EXPECT_EQ(held.poolProps.location.id, GetParam());
  void* freed = nullptr;
  ASSERT_EQ(mcGraphMemFreeNodeGetParams(free_node, &freed), mcSuccess);
  EXPECT_EQ(freed, params.dptr);
}

// Getters return what was set last.

TEST_P(NodeParams, KernelGetReturnsTheLastSet) {
  MX_SPEC("api.graph.node-params.get-returns-set-values",
          "api.graph.node-params.set-changes-graph-node");
  mcGraphNode_t node = Add(NodeKind::kKernel);
  int* cell = cells_ + 9;
  int value = 1234;
  void* args[] = {&cell, &value};
  mcKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(AddValue);
  params.gridDim = dim3(3);
  params.blockDim = dim3(7);
  params.kernelParams = args;
  ASSERT_EQ(mcGraphKernelNodeSetParams(node, &params), mcSuccess);
  value = 0;  // the set copied the arguments
  mcKernelNodeParams held{};
  ASSERT_EQ(mcGraphKernelNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.func, reinterpret_cast<void*>(AddValue));
  EXPECT_EQ(held.gridDim.x, 3u);
  EXPECT_EQ(held.blockDim.x, 7u);
  ASSERT_NE(held.kernelParams, nullptr);
  EXPECT_EQ(*static_cast<int**>(held.kernelParams[0]), cells_ + 9);
  EXPECT_EQ(*static_cast<int*>(held.kernelParams[1]), 1234);
}

TEST_P(NodeParams, MemcpyGetReturnsTheLastSet) {
  MX_SPEC("api.graph.node-params.get-returns-set-values",
          "api.graph.node-params.set-changes-graph-node");
  mcGraphNode_t node = Add(NodeKind::kMemcpy);
  mcMemcpy3DParms params = maker().CopyParams();
  params.extent = make_mcExtent(8, 1, 1);
  params.srcPos = make_mcPos(4, 0, 0);
  ASSERT_EQ(mcGraphMemcpyNodeSetParams(node, &params), mcSuccess);
  mcMemcpy3DParms held{};
  ASSERT_EQ(mcGraphMemcpyNodeGetParams(node, &held), mcSuccess);
  EXPECT_TRUE(SameExtent(held.extent, params.extent));
  EXPECT_TRUE(SamePos(held.srcPos, params.srcPos));
  // And through the one-dimensional setter.
  ASSERT_EQ(mcGraphMemcpyNodeSetParams1D(node, maker().device_src(),
                                         maker().device_dst(), 24,
                                         mcMemcpyDeviceToDevice),
            mcSuccess);
  ASSERT_EQ(mcGraphMemcpyNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(static_cast<char*>(held.srcPtr.ptr) + held.srcPos.x,
            maker().device_dst());
  EXPECT_EQ(static_cast<char*>(held.dstPtr.ptr) + held.dstPos.x,
            maker().device_src());
  EXPECT_EQ(held.extent.width * held.extent.height * held.extent.depth, 24u);
}

TEST_P(NodeParams, MemsetGetReturnsTheLastSet) {
  MX_SPEC("api.graph.node-params.get-returns-set-values",
          "api.graph.node-params.set-changes-graph-node");
  mcGraphNode_t node = Add(NodeKind::kMemset);
  mcMemsetParams params = maker().MemsetParams();
  params.value = 0x77;
  params.elementSize = 4;
  params.width = 10;
  params.pitch = 40;
  ASSERT_EQ(mcGraphMemsetNodeSetParams(node, &params), mcSuccess);
  mcMemsetParams held{};
  ASSERT_EQ(mcGraphMemsetNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.value, 0x77u);
  EXPECT_EQ(held.elementSize, 4u);
  EXPECT_EQ(held.width, 10u);
  EXPECT_EQ(held.pitch, 40u);
}

TEST_P(NodeParams, HostGetReturnsTheLastSet) {
  MX_SPEC("api.graph.node-params.get-returns-set-values",
          "api.graph.node-params.set-changes-graph-node");
  mcGraphNode_t node = Add(NodeKind::kHost);
  int data = 0;
  mcHostNodeParams params{&NodeMaker::CountCall, &data};
  ASSERT_EQ(mcGraphHostNodeSetParams(node, &params), mcSuccess);
  mcHostNodeParams held{};
  ASSERT_EQ(mcGraphHostNodeGetParams(node, &held), mcSuccess);
  EXPECT_EQ(held.userData, &data);
}

TEST_P(NodeParams, EventGettersReturnTheLastSet) {
  MX_SPEC("api.graph.node-params.get-returns-set-values",
          "api.graph.node-params.set-changes-graph-node");
  mcGraphNode_t record = Add(NodeKind::kEventRecord);
  mcGraphNode_t wait = Add(NodeKind::kEventWait);
  mcEvent_t third = nullptr;
  ASSERT_EQ(mcEventCreate(&third), mcSuccess);
  ASSERT_EQ(mcGraphEventRecordNodeSetEvent(record, third), mcSuccess);
  ASSERT_EQ(mcGraphEventWaitNodeSetEvent(wait, maker().record_event()),
            mcSuccess);
  mcEvent_t held = nullptr;
  ASSERT_EQ(mcGraphEventRecordNodeGetEvent(record, &held), mcSuccess);
  EXPECT_EQ(held, third);
  ASSERT_EQ(mcGraphEventWaitNodeGetEvent(wait, &held), mcSuccess);
  EXPECT_EQ(held, maker().record_event());
  mcEventDestroy(third);
}

// A set reaches executable graphs instantiated after it, not before.

TEST_P(NodeParams, KernelSetReachesOnlyLaterInstantiations) {
  MX_SPEC("api.graph.node-params.set-changes-graph-node");
  int* cell = cells_;
  int value = 5;
  void* args[] = {&cell, &value};
  mcKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(StoreValue);
  params.gridDim = dim3(1);
  params.blockDim = dim3(1);
  params.kernelParams = args;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddKernelNode(&node, graph(), nullptr, 0, &params),
            mcSuccess);
  ScopedExec before(graph());
  ASSERT_EQ(before.status(), mcSuccess);
  value = 6;
  ASSERT_EQ(mcGraphKernelNodeSetParams(node, &params), mcSuccess);
  ScopedExec after(graph());
  ASSERT_EQ(after.status(), mcSuccess);
  ASSERT_EQ(Launch(before), mcSuccess);
  EXPECT_EQ(cells_[0], 5);
  ASSERT_EQ(Launch(after), mcSuccess);
  EXPECT_EQ(cells_[0], 6);
  ASSERT_EQ(Launch(before), mcSuccess);
  EXPECT_EQ(cells_[0], 5);
}

TEST_P(NodeParams, MemsetSetReachesOnlyLaterInstantiations) {
  MX_SPEC("api.graph.node-params.set-changes-graph-node");
  mcMemsetParams params{};
  params.dst = cells_;
  params.value = 1;
  params.elementSize = 4;
  params.width = 4;
  params.height = 1;
  params.pitch = 16;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddMemsetNode(&node, graph(), nullptr, 0, &params),
            mcSuccess);
  ScopedExec before(graph());
  params.value = 2;
  params.width = 2;
  ASSERT_EQ(mcGraphMemsetNodeSetParams(node, &params), mcSuccess);
  ScopedExec after(graph());
  ASSERT_EQ(Launch(before), mcSuccess);
  EXPECT_EQ(cells_[3], 1);
  std::memset(cells_, 0, 16);
  ASSERT_EQ(Launch(after), mcSuccess);
  EXPECT_EQ(cells_[0], 2);
  EXPECT_EQ(cells_[1], 2);
  EXPECT_EQ(cells_[2], 0);
}

TEST_P(NodeParams, MemcpySetReachesOnlyLaterInstantiations) {
  MX_SPEC("api.graph.node-params.set-changes-graph-node");
  cells_[0] = 11;
  cells_[1] = 22;
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddMemcpyNode1D(&node, graph(), nullptr, 0, cells_ + 10,
                                   cells_, sizeof(int), mcMemcpyDefault),
            mcSuccess);
  ScopedExec before(graph());
  ASSERT_EQ(mcGraphMemcpyNodeSetParams1D(node, cells_ + 20, cells_ + 1,
                                         sizeof(int), mcMemcpyDefault),
            mcSuccess);
  ScopedExec after(graph());
  ASSERT_EQ(Launch(before), mcSuccess);
  EXPECT_EQ(cells_[10], 11);
  EXPECT_EQ(cells_[20], 0);
  ASSERT_EQ(Launch(after), mcSuccess);
  EXPECT_EQ(cells_[20], 22);
}

TEST_P(NodeParams, HostSetReachesOnlyLaterInstantiations) {
  MX_SPEC("api.graph.node-params.set-changes-graph-node");
  std::atomic<int> first{0}, second{0};
  mcHostNodeParams params{&NodeMaker::CountCall, &first};
  mcGraphNode_t node = nullptr;
  ASSERT_EQ(mcGraphAddHostNode(&node, graph(), nullptr, 0, &params), mcSuccess);
  ScopedExec before(graph());
  params.userData = &second;
  ASSERT_EQ(mcGraphHostNodeSetParams(node, &params), mcSuccess);
  ScopedExec after(graph());
  ASSERT_EQ(Launch(before), mcSuccess);
  ASSERT_EQ(Launch(after), mcSuccess);
  ASSERT_EQ(Launch(after), mcSuccess);
  EXPECT_EQ(first.load(), 1);
  EXPECT_EQ(second.load(), 2);
}

TEST_P(NodeParams, EventWaitSetReachesLaterInstantiations) {
  MX_SPEC("api.graph.node-params.set-changes-graph-node",
          "api.graph.event-wait-node.waits");
  // The graph waits for `second`, recorded after a step in another stream.
  mcEvent_t first = nullptr, second = nullptr;
  ASSERT_EQ(mcEventCreate(&first), mcSuccess);
  ASSERT_EQ(mcEventCreate(&second), mcSuccess);
  mcGraphNode_t wait = nullptr;
  ASSERT_EQ(mcGraphAddEventWaitNode(&wait, graph(), nullptr, 0, first),
            mcSuccess);
  int* cell = cells_;
  int value = 8;
  void* args[] = {&cell, &value};
  mcKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(AddValue);
  params.gridDim = dim3(1);
  params.blockDim = dim3(1);
  params.kernelParams = args;
  mcGraphNode_t add = nullptr;
  ASSERT_EQ(mcGraphAddKernelNode(&add, graph(), &wait, 1, &params), mcSuccess);
  ASSERT_EQ(mcGraphEventWaitNodeSetEvent(wait, second), mcSuccess);
  ScopedExec exec(graph());
  ASSERT_EQ(exec.status(), mcSuccess);
  mcStream_t producer = nullptr;
  ASSERT_EQ(mcStreamCreateWithFlags(&producer, mcStreamNonBlocking), mcSuccess);
  int store = 100;
  void* store_args[] = {&cell, &store};
  ASSERT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(StoreValue), dim3(1),
                           dim3(1), store_args, 0, producer),
            mcSuccess);
  ASSERT_EQ(mcEventRecord(second, producer), mcSuccess);
  ASSERT_EQ(Launch(exec), mcSuccess);
  EXPECT_EQ(cells_[0], 108);
  ASSERT_EQ(mcStreamSynchronize(producer), mcSuccess);
  mcStreamDestroy(producer);
  mcEventDestroy(first);
  mcEventDestroy(second);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, NodeParams,
                         testing::ValuesIn(GraphDevices()), DeviceName);

}  // namespace
}  // namespace mxcts::conformance::graph
