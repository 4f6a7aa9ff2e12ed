// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/graph/graph_testing.h
// -----------------------------------------------------------------------------
//
// What the graph conformance tests (docs/spec/api-graph.md) share: the
// devices they run on, a graph that lives for a scope, the graph queries
// read into vectors (nodes, roots, edges, a node's neighbours) and a
// snapshot of a graph's shape to show that a failing call changed nothing,
// and NodeMaker, which adds a node of any kind with good parameters, so
// that a rule common to every mcGraphAdd*Node is tested for each of them.
//
//   __global__ void StoreValue(int* cell, int value) { *cell = value; }
//   __device__ int symbol[64];
//
//   NodeMaker maker(reinterpret_cast<const void*>(StoreValue), &symbol);
//   ScopedGraph graph;
//   mcGraphNode_t a = nullptr, b = nullptr;
//   maker.Add(NodeKind::kKernel, &a, graph.get(), nullptr, 0);
//   maker.Add(NodeKind::kMemset, &b, graph.get(), &a, 1);
//   Edges(graph.get());  // {a -> b}
//   GraphShape before = Shape(graph.get());
//   ... a call that must fail ...
//   EXPECT_EQ(Shape(graph.get()), before);
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>. Host code only: the kernel and the device variable a
// NodeMaker uses are the test file's.

#ifndef MXCTS_CONFORMANCE_API_GRAPH_GRAPH_TESTING_H_
#define MXCTS_CONFORMANCE_API_GRAPH_GRAPH_TESTING_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace mxcts::conformance::graph {

// ---------------------------------------------------------------------------
// Devices

// The number of devices, or 1 if it cannot be read (the tests then fail on
// their own calls).
inline int GraphDeviceCount() {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return 1;
  return count;
}

// Every device ordinal, for parameterized tests.
inline std::vector<int> GraphDevices() {
  std::vector<int> devices;
  for (int device = 0; device < GraphDeviceCount(); ++device) {
    devices.push_back(device);
  }
  return devices;
}

// Memory allocation node parameters: `bytes` of pinned memory on `device`.
inline mcMemAllocNodeParams DeviceAllocationParams(int device, size_t bytes) {
  mcMemAllocNodeParams params{};
  params.poolProps.allocType = mcMemAllocationTypePinned;
  params.poolProps.handleTypes = mcMemHandleTypeNone;
  params.poolProps.location.type = mcMemLocationTypeDevice;
  params.poolProps.location.id = device;
  params.bytesize = bytes;
  return params;
}

// ---------------------------------------------------------------------------
// Graphs

// A graph created by mcGraphCreate for the scope (destroyed at its end
// unless released).
class ScopedGraph {
 public:
  ScopedGraph() { status_ = mcGraphCreate(&graph_, 0); }
  ~ScopedGraph() {
    if (graph_ != nullptr) mcGraphDestroy(graph_);
  }
  ScopedGraph(const ScopedGraph&) = delete;
  ScopedGraph& operator=(const ScopedGraph&) = delete;

  mcGraph_t get() const { return graph_; }
  mcError_t status() const { return status_; }
  // Gives the graph up: the scope no longer destroys it.
  mcGraph_t release() {
    mcGraph_t graph = graph_;
    graph_ = nullptr;
    return graph;
  }

 private:
  mcGraph_t graph_ = nullptr;
  mcError_t status_ = mcErrorUnknown;
};

// An executable graph for the scope, destroyed at its end.
class ScopedExec {
 public:
  ScopedExec() = default;
  explicit ScopedExec(mcGraph_t graph) { Instantiate(graph); }
  ~ScopedExec() { Reset(); }
  ScopedExec(const ScopedExec&) = delete;
  ScopedExec& operator=(const ScopedExec&) = delete;

  mcError_t Instantiate(mcGraph_t graph) {
    Reset();
    status_ = mcGraphInstantiate(&exec_, graph, nullptr, nullptr, 0);
    return status_;
  }
  void Reset() {
    if (exec_ != nullptr) mcGraphExecDestroy(exec_);
    exec_ = nullptr;
  }
  mcGraphExec_t get() const { return exec_; }
  mcError_t status() const { return status_; }

 private:
  mcGraphExec_t exec_ = nullptr;
  mcError_t status_ = mcErrorUnknown;
};

// Instantiates `graph`, launches it once into `stream` and waits for the
// stream: the one way the construction tests run a graph.
inline mcError_t RunOnce(mcGraph_t graph, mcStream_t stream = 0) {
  mcGraphExec_t exec = nullptr;
  mcError_t result = mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  if (result != mcSuccess) return result;
  result = mcGraphLaunch(exec, stream);
  const mcError_t synchronized = mcStreamSynchronize(stream);
  if (result == mcSuccess) result = synchronized;
  const mcError_t destroyed = mcGraphExecDestroy(exec);
  if (result == mcSuccess) result = destroyed;
  return result;
}

// ---------------------------------------------------------------------------
// Queries. A failing query is a test failure; the result is then empty.

using Edge = std::pair<mcGraphNode_t, mcGraphNode_t>;

inline std::vector<mcGraphNode_t> Nodes(mcGraph_t graph) {
  size_t count = 0;
  EXPECT_EQ(mcGraphGetNodes(graph, nullptr, &count), mcSuccess);
  std::vector<mcGraphNode_t> nodes(count);
  if (count == 0) return nodes;
  EXPECT_EQ(mcGraphGetNodes(graph, nodes.data(), &count), mcSuccess);
  nodes.resize(count);
  return nodes;
}

inline std::vector<mcGraphNode_t> RootNodes(mcGraph_t graph) {
  size_t count = 0;
  EXPECT_EQ(mcGraphGetRootNodes(graph, nullptr, &count), mcSuccess);
  std::vector<mcGraphNode_t> nodes(count);
  if (count == 0) return nodes;
  EXPECT_EQ(mcGraphGetRootNodes(graph, nodes.data(), &count), mcSuccess);
  nodes.resize(count);
  return nodes;
}

inline std::vector<Edge> Edges(mcGraph_t graph) {
  size_t count = 0;
  EXPECT_EQ(mcGraphGetEdges(graph, nullptr, nullptr, &count), mcSuccess);
  std::vector<mcGraphNode_t> from(count), to(count);
  std::vector<Edge> edges;
  if (count == 0) return edges;
  EXPECT_EQ(mcGraphGetEdges(graph, from.data(), to.data(), &count), mcSuccess);
  for (size_t i = 0; i < count && i < from.size(); ++i) {
    edges.emplace_back(from[i], to[i]);
  }
  return edges;
}

inline std::vector<mcGraphNode_t> Dependencies(mcGraphNode_t node) {
  size_t count = 0;
  EXPECT_EQ(mcGraphNodeGetDependencies(node, nullptr, &count), mcSuccess);
  std::vector<mcGraphNode_t> nodes(count);
  if (count == 0) return nodes;
  EXPECT_EQ(mcGraphNodeGetDependencies(node, nodes.data(), &count), mcSuccess);
  nodes.resize(count);
  return nodes;
}

inline std::vector<mcGraphNode_t> Dependents(mcGraphNode_t node) {
  size_t count = 0;
  EXPECT_EQ(mcGraphNodeGetDependentNodes(node, nullptr, &count), mcSuccess);
  std::vector<mcGraphNode_t> nodes(count);
  if (count == 0) return nodes;
  EXPECT_EQ(mcGraphNodeGetDependentNodes(node, nodes.data(), &count),
            mcSuccess);
  nodes.resize(count);
  return nodes;
}

inline size_t NodeCount(mcGraph_t graph) {
  size_t count = 0;
  EXPECT_EQ(mcGraphGetNodes(graph, nullptr, &count), mcSuccess);
  return count;
}

inline size_t EdgeCount(mcGraph_t graph) {
  size_t count = 0;
  EXPECT_EQ(mcGraphGetEdges(graph, nullptr, nullptr, &count), mcSuccess);
  return count;
}

// The type of `node`, or mcGraphNodeTypeCount if the query fails.
inline mcGraphNodeType NodeType(mcGraphNode_t node) {
  mcGraphNodeType type = mcGraphNodeTypeCount;
  if (mcGraphNodeGetType(node, &type) != mcSuccess) {
    return mcGraphNodeTypeCount;
  }
  return type;
}

// Sorted copies, to compare what the queries report as sets.
template <class T>
std::vector<T> Sorted(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  return values;
}

// The nodes and edges of a graph, as sets.
struct GraphShape {
  std::vector<mcGraphNode_t> nodes;
  std::vector<Edge> edges;
  bool operator==(const GraphShape& other) const {
    return nodes == other.nodes && edges == other.edges;
  }
  bool operator!=(const GraphShape& other) const { return !(*this == other); }
};

inline GraphShape Shape(mcGraph_t graph) {
  return GraphShape{Sorted(Nodes(graph)), Sorted(Edges(graph))};
}

inline std::ostream& operator<<(std::ostream& out, const GraphShape& shape) {
  return out << shape.nodes.size() << " nodes, " << shape.edges.size()
             << " edges";
}

// ---------------------------------------------------------------------------
// Node kinds

// Every way to add a node: one per mcGraphAdd*Node function (the memcpy
// node in its three-dimensional, one-dimensional and symbol forms).
enum class NodeKind {
  kKernel,
  kMemcpy,
  kMemcpy1D,
  kMemcpyToSymbol,
  kMemcpyFromSymbol,
  kMemset,
  kHost,
  kChildGraph,
  kEmpty,
  kEventRecord,
  kEventWait,
  kMemAlloc,
  kMemFree,
};

inline constexpr NodeKind kAllNodeKinds[] = {
    NodeKind::kKernel,         NodeKind::kMemcpy,           NodeKind::kMemcpy1D,
    NodeKind::kMemcpyToSymbol, NodeKind::kMemcpyFromSymbol, NodeKind::kMemset,
    NodeKind::kHost,           NodeKind::kChildGraph,       NodeKind::kEmpty,
    NodeKind::kEventRecord,    NodeKind::kEventWait,        NodeKind::kMemAlloc,
    NodeKind::kMemFree};

// The kinds a node can be added as with no dependency (a free node depends
// on the allocation node it frees).
inline std::vector<NodeKind> RootableNodeKinds() {
  std::vector<NodeKind> kinds;
  for (NodeKind kind : kAllNodeKinds) {
    if (kind != NodeKind::kMemFree) kinds.push_back(kind);
  }
  return kinds;
}

// The kinds a child graph may hold: all but the memory nodes.
inline std::vector<NodeKind> ChildableNodeKinds() {
  std::vector<NodeKind> kinds;
  for (NodeKind kind : kAllNodeKinds) {
    if (kind != NodeKind::kMemFree && kind != NodeKind::kMemAlloc) {
      kinds.push_back(kind);
    }
  }
  return kinds;
}

inline const char* NodeKindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::kKernel:
      return "Kernel";
    case NodeKind::kMemcpy:
      return "Memcpy";
    case NodeKind::kMemcpy1D:
      return "Memcpy1D";
    case NodeKind::kMemcpyToSymbol:
      return "MemcpyToSymbol";
    case NodeKind::kMemcpyFromSymbol:
      return "MemcpyFromSymbol";
    case NodeKind::kMemset:
      return "Memset";
    case NodeKind::kHost:
      return "Host";
    case NodeKind::kChildGraph:
      return "ChildGraph";
    case NodeKind::kEmpty:
      return "Empty";
    case NodeKind::kEventRecord:
      return "EventRecord";
    case NodeKind::kEventWait:
      return "EventWait";
    case NodeKind::kMemAlloc:
      return "MemAlloc";
    case NodeKind::kMemFree:
      return "MemFree";
  }
  return "Unknown";
}

// The type mcGraphNodeGetType reports for a node of `kind`.
inline mcGraphNodeType TypeOf(NodeKind kind) {
  switch (kind) {
    case NodeKind::kKernel:
      return mcGraphNodeTypeKernel;
    case NodeKind::kMemcpy:
    case NodeKind::kMemcpy1D:
    case NodeKind::kMemcpyToSymbol:
    case NodeKind::kMemcpyFromSymbol:
      return mcGraphNodeTypeMemcpy;
    case NodeKind::kMemset:
      return mcGraphNodeTypeMemset;
    case NodeKind::kHost:
      return mcGraphNodeTypeHost;
    case NodeKind::kChildGraph:
      return mcGraphNodeTypeGraph;
    case NodeKind::kEmpty:
      return mcGraphNodeTypeEmpty;
    case NodeKind::kEventRecord:
      return mcGraphNodeTypeEventRecord;
    case NodeKind::kEventWait:
      return mcGraphNodeTypeWaitEvent;
    case NodeKind::kMemAlloc:
      return mcGraphNodeTypeMemAlloc;
    case NodeKind::kMemFree:
      return mcGraphNodeTypeMemFree;
  }
  return mcGraphNodeTypeCount;
}

// Test names: "Device1Memset".
inline std::string KindOnDeviceName(
    const testing::TestParamInfo<std::tuple<int, NodeKind>>& info) {
  return "Device" + std::to_string(std::get<0>(info.param)) +
         NodeKindName(std::get<1>(info.param));
}

inline std::string KindName(const testing::TestParamInfo<NodeKind>& info) {
  return NodeKindName(info.param);
}

// ---------------------------------------------------------------------------
// NodeMaker

// Adds nodes of every kind with good parameters, on the device current
// when it is made: a kernel node runs the test's `store(int* cell, int
// value)`; the copies move kBytes bytes between the maker's device
// buffers, its host buffer and the test's device variable `symbol` (at
// least kBytes bytes); a memset node sets kBytes bytes of a device buffer;
// a host node counts its calls; a child graph node runs a graph of one
// empty node; the event nodes record and wait for the maker's events; an
// allocation node allocates kBytes bytes on the device. A free node frees
// the memory of an allocation node that Prepare (or else Add) adds first,
// in the same graph, and depends on it: prerequisite() names that node.
class NodeMaker {
 public:
  static constexpr size_t kBytes = 256;
  static constexpr int kStoredValue = 0x5eed;
  static constexpr unsigned char kMemsetByte = 0x3c;

  NodeMaker(const void* store, const void* symbol)
      : store_(store), symbol_(symbol) {
    mcGetDevice(&device_);
    ok_ = mcMalloc(&device_src_, kBytes) == mcSuccess &&
          mcMalloc(&device_dst_, kBytes) == mcSuccess &&
          mcMalloc(&cell_, sizeof(int)) == mcSuccess &&
          mcEventCreate(&record_event_) == mcSuccess &&
          mcEventCreate(&wait_event_) == mcSuccess &&
          mcGraphCreate(&child_, 0) == mcSuccess;
    if (ok_) {
      mcGraphNode_t inside = nullptr;
      ok_ = mcGraphAddEmptyNode(&inside, child_, nullptr, 0) == mcSuccess;
    }
    host_.assign(kBytes, 0);
    kernel_args_[0] = &cell_;
    kernel_args_[1] = &stored_value_;
  }
  ~NodeMaker() {
    if (device_src_ != nullptr) mcFree(device_src_);
    if (device_dst_ != nullptr) mcFree(device_dst_);
    if (cell_ != nullptr) mcFree(cell_);
    if (record_event_ != nullptr) mcEventDestroy(record_event_);
    if (wait_event_ != nullptr) mcEventDestroy(wait_event_);
    if (child_ != nullptr) mcGraphDestroy(child_);
  }
  NodeMaker(const NodeMaker&) = delete;
  NodeMaker& operator=(const NodeMaker&) = delete;

  // Whether the maker's buffers, events and child graph were made.
  bool ok() const { return ok_; }
  int device() const { return device_; }

  // Adds a node of `kind` to `graph` depending on `dependencies` (passed
  // through as given, the allocation node of a free node added to them
  // when they are well formed). Returns what the Add call returned.
  mcError_t Add(NodeKind kind, mcGraphNode_t* node, mcGraph_t graph,
                const mcGraphNode_t* dependencies, size_t count) {
    if (kind != NodeKind::kMemFree) prerequisite_ = nullptr;
    switch (kind) {
      case NodeKind::kKernel: {
        mcKernelNodeParams params = KernelParams();
        return mcGraphAddKernelNode(node, graph, dependencies, count, &params);
      }
      case NodeKind::kMemcpy: {
        mcMemcpy3DParms params = CopyParams();
        return mcGraphAddMemcpyNode(node, graph, dependencies, count, &params);
      }
      case NodeKind::kMemcpy1D:
        return mcGraphAddMemcpyNode1D(node, graph, dependencies, count,
                                      device_dst_, host_.data(), kBytes,
                                      mcMemcpyHostToDevice);
      case NodeKind::kMemcpyToSymbol:
        return mcGraphAddMemcpyNodeToSymbol(node, graph, dependencies, count,
                                            symbol_, device_src_, kBytes, 0,
                                            mcMemcpyDeviceToDevice);
      case NodeKind::kMemcpyFromSymbol:
        return mcGraphAddMemcpyNodeFromSymbol(node, graph, dependencies, count,
                                              host_.data(), symbol_, kBytes, 0,
                                              mcMemcpyDeviceToHost);
      case NodeKind::kMemset: {
        mcMemsetParams params = MemsetParams();
        return mcGraphAddMemsetNode(node, graph, dependencies, count, &params);
      }
      case NodeKind::kHost: {
        mcHostNodeParams params = HostParams();
        return mcGraphAddHostNode(node, graph, dependencies, count, &params);
      }
      case NodeKind::kChildGraph:
        return mcGraphAddChildGraphNode(node, graph, dependencies, count,
                                        child_);
      case NodeKind::kEmpty:
        return mcGraphAddEmptyNode(node, graph, dependencies, count);
      case NodeKind::kEventRecord:
        return mcGraphAddEventRecordNode(node, graph, dependencies, count,
                                         record_event_);
      case NodeKind::kEventWait:
        return mcGraphAddEventWaitNode(node, graph, dependencies, count,
                                       wait_event_);
      case NodeKind::kMemAlloc: {
        mcMemAllocNodeParams params = AllocParams();
        const mcError_t result =
            mcGraphAddMemAllocNode(node, graph, dependencies, count, &params);
        if (result == mcSuccess) allocations_.push_back(params.dptr);
        return result;
      }
      case NodeKind::kMemFree:
        return AddFree(node, graph, dependencies, count);
    }
    return mcErrorUnknown;
  }

  // Adds what a node of `kind` needs in `graph` before it: for a free
  // node, the allocation node whose memory it frees (the next Add of a
  // free node to `graph` uses it). Does nothing for the other kinds. A
  // test that compares a graph before and after a failing Add prepares
  // first.
  void Prepare(NodeKind kind, mcGraph_t graph) {
    prerequisite_ = nullptr;
    prepared_address_ = nullptr;
    prepared_graph_ = nullptr;
    if (kind != NodeKind::kMemFree || graph == nullptr) return;
    mcGraphNode_t alloc = nullptr;
    mcMemAllocNodeParams params = AllocParams();
    if (mcGraphAddMemAllocNode(&alloc, graph, nullptr, 0, &params) !=
        mcSuccess) {
      return;
    }
    prerequisite_ = alloc;
    prepared_address_ = params.dptr;
    prepared_graph_ = graph;
    allocations_.push_back(params.dptr);
  }

  // The allocation node the last Add of a free node added first (null for
  // the other kinds, or when it could not be added).
  mcGraphNode_t prerequisite() const { return prerequisite_; }
  // The nodes Add made `node` depend on besides `dependencies`.
  std::vector<mcGraphNode_t> Extra() const {
    if (prerequisite_ == nullptr) return {};
    return {prerequisite_};
  }

  // The parameters Add gives each kind.
  mcKernelNodeParams KernelParams() {
    mcKernelNodeParams params{};
    params.func = const_cast<void*>(store_);
    params.gridDim = dim3(1);
    params.blockDim = dim3(1);
    params.sharedMemBytes = 0;
    params.kernelParams = kernel_args_;
    params.extra = nullptr;
    return params;
  }
  mcMemcpy3DParms CopyParams() {
    mcMemcpy3DParms params{};
    params.srcPtr = make_mcPitchedPtr(device_src_, kBytes, kBytes, 1);
    params.dstPtr = make_mcPitchedPtr(device_dst_, kBytes, kBytes, 1);
    params.extent = make_mcExtent(kBytes, 1, 1);
    params.kind = mcMemcpyDeviceToDevice;
    return params;
  }
  mcMemsetParams MemsetParams() {
    mcMemsetParams params{};
    params.dst = device_dst_;
    params.pitch = kBytes;
    params.value = kMemsetByte;
    params.elementSize = 1;
    params.width = kBytes;
    params.height = 1;
    return params;
  }
  mcHostNodeParams HostParams() {
    mcHostNodeParams params{};
    params.fn = &NodeMaker::CountCall;
    params.userData = &host_calls_;
    return params;
  }
  mcMemAllocNodeParams AllocParams() {
    return DeviceAllocationParams(device_, kBytes);
  }

  // The resources the nodes use.
  void* device_src() const { return device_src_; }
  void* device_dst() const { return device_dst_; }
  int* cell() const { return cell_; }
  unsigned char* host() { return host_.data(); }
  mcEvent_t record_event() const { return record_event_; }
  mcEvent_t wait_event() const { return wait_event_; }
  mcGraph_t child() const { return child_; }
  const void* store() const { return store_; }
  const void* symbol() const { return symbol_; }
  int host_calls() const { return host_calls_.load(); }
  // The addresses allocation nodes were given, in order.
  const std::vector<void*>& allocations() const { return allocations_; }

  static void CountCall(void* counter) {
    static_cast<std::atomic<int>*>(counter)->fetch_add(1);
  }

 private:
  // A failing add keeps the prepared allocation for the next one, so that
  // failing calls change nothing.
  mcError_t AddFree(mcGraphNode_t* node, mcGraph_t graph,
                    const mcGraphNode_t* dependencies, size_t count) {
    if (graph == nullptr) {
      return mcGraphAddMemFreeNode(node, graph, dependencies, count, nullptr);
    }
    if (prepared_graph_ != graph) Prepare(NodeKind::kMemFree, graph);
    mcGraphNode_t alloc = prerequisite_;
    mcError_t result;
    if (dependencies == nullptr && count > 0) {
      result = mcGraphAddMemFreeNode(node, graph, dependencies, count,
                                     prepared_address_);
    } else {
      std::vector<mcGraphNode_t> all(dependencies, dependencies + count);
      if (alloc != nullptr) all.push_back(alloc);
      result = mcGraphAddMemFreeNode(node, graph, all.data(), all.size(),
                                     prepared_address_);
    }
    if (result == mcSuccess) prepared_graph_ = nullptr;
    return result;
  }

  const void* store_;
  const void* symbol_;
  int device_ = -1;
  bool ok_ = false;
  void* device_src_ = nullptr;
  void* device_dst_ = nullptr;
  int* cell_ = nullptr;
  int stored_value_ = kStoredValue;
  void* kernel_args_[2] = {};
  std::vector<unsigned char> host_;
  mcEvent_t record_event_ = nullptr;
  mcEvent_t wait_event_ = nullptr;
  mcGraph_t child_ = nullptr;
  std::atomic<int> host_calls_{0};
  std::vector<void*> allocations_;
  mcGraphNode_t prerequisite_ = nullptr;
  mcGraph_t prepared_graph_ = nullptr;
  void* prepared_address_ = nullptr;
};

}  // namespace mxcts::conformance::graph

#endif  // MXCTS_CONFORMANCE_API_GRAPH_GRAPH_TESTING_H_
