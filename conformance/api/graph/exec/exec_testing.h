// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/graph/exec/exec_testing.h
// -----------------------------------------------------------------------------
//
// What the executable graph and stream capture tests (conformance/api/graph/
// exec, conformance/api/graph/capture) share: graphs and executable graphs
// that live for a scope, kernel node parameters built from a kernel and its
// argument values, a ticket board that shows the order in which nodes ran,
// host node parameters that log or count, and the structure of a graph read
// back as nodes, kinds and edges (docs/spec/api-graph.md).
//
//   ScopedGraph graph;
//   TicketBoard board(3);
//   mcGraphNode_t a, b;
//   KernelCall take(TakeTicket, dim3(1), dim3(1), board.clock(),
//                   board.tickets(), 0);
//   ASSERT_EQ(take.Add(&a, graph.get(), {}), mcSuccess);
//   mcHostNodeParams host = board.HostTicket(1);
//   ASSERT_EQ(mcGraphAddHostNode(&b, graph.get(), &a, 1, &host), mcSuccess);
//   ScopedExec exec(graph.get());
//   ASSERT_EQ(mcGraphLaunch(exec.get(), stream), mcSuccess);
//   mcStreamSynchronize(stream);
//   EXPECT_TRUE(board.RanBefore(0, 1));
//
// Kernels are defined by the test files (each binary has its own). Included
// by sources the backend's driver compiles, which supplies <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_GRAPH_EXEC_EXEC_TESTING_H_
#define MXCTS_CONFORMANCE_API_GRAPH_EXEC_EXEC_TESTING_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <deque>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace mxcts::conformance {

// A graph that lives for a scope: created empty, or adopted (from a
// capture), and destroyed at the end of the scope unless released.
class ScopedGraph {
 public:
  ScopedGraph() : result_(mcGraphCreate(&graph_, 0)) {}
  explicit ScopedGraph(mcGraph_t adopted) : graph_(adopted) {}
  ~ScopedGraph() {
    if (graph_ != nullptr) mcGraphDestroy(graph_);
  }
  ScopedGraph(const ScopedGraph&) = delete;
  ScopedGraph& operator=(const ScopedGraph&) = delete;

  mcGraph_t get() const { return graph_; }
  // Where a call that makes a graph (mcStreamEndCapture) stores it; the
  // graph held before is destroyed first.
  mcGraph_t* out() {
    if (graph_ != nullptr) mcGraphDestroy(graph_);
    graph_ = nullptr;
    return &graph_;
  }
  // Gives up the graph without destroying it.
  mcGraph_t release() { return std::exchange(graph_, nullptr); }
  // The result of creating the graph.
  mcError_t status() const { return result_; }

 private:
  mcGraph_t graph_ = nullptr;
  mcError_t result_ = mcSuccess;
};

// An executable graph that lives for a scope: instantiated from a graph,
// or filled through out(), and destroyed at the end of the scope (launches
// already enqueued still run [api.graph.exec-destroy.releases]).
class ScopedExec {
 public:
  ScopedExec() = default;
  explicit ScopedExec(mcGraph_t graph, unsigned long long flags = 0)
      : result_(flags == 0
                    ? mcGraphInstantiate(&exec_, graph, nullptr, nullptr, 0)
                    : mcGraphInstantiateWithFlags(&exec_, graph, flags)) {}
  ~ScopedExec() {
    if (exec_ != nullptr) mcGraphExecDestroy(exec_);
  }
  ScopedExec(const ScopedExec&) = delete;
  ScopedExec& operator=(const ScopedExec&) = delete;

  mcGraphExec_t get() const { return exec_; }
  mcGraphExec_t* out() {
    if (exec_ != nullptr) mcGraphExecDestroy(exec_);
    exec_ = nullptr;
    return &exec_;
  }
  mcGraphExec_t release() { return std::exchange(exec_, nullptr); }
  // The result of instantiating (mcSuccess when made through out()).
  mcError_t status() const { return result_; }

 private:
  mcGraphExec_t exec_ = nullptr;
  mcError_t result_ = mcSuccess;
};

// The parameters of a kernel node: the kernel, its configuration and its
// argument values, which the object owns (kernelParams points into it).
//
//   KernelCall call(Add, dim3(1), dim3(1), cell, 5);
//   call.Add(&node, graph, {before});
//   call.Set(4);  // argument 1 is now 4
//   mcGraphExecKernelNodeSetParams(exec, node, call.params());
template <typename... Params>
class KernelCall {
 public:
  template <typename... Args>
  KernelCall(void (*kernel)(Params...), dim3 grid, dim3 block, Args... args)
      : values_(args...) {
    static_assert(sizeof...(Args) == sizeof...(Params),
                  "one value per kernel parameter");
    Point(std::index_sequence_for<Params...>{});
    params_.func = reinterpret_cast<void*>(kernel);
    params_.gridDim = grid;
    params_.blockDim = block;
    params_.sharedMemBytes = 0;
    params_.kernelParams = sizeof...(Params) == 0 ? nullptr : pointers_;
    params_.extra = nullptr;
  }
  KernelCall(const KernelCall&) = delete;
  KernelCall& operator=(const KernelCall&) = delete;

  const mcKernelNodeParams* params() const { return &params_; }
  mcKernelNodeParams* mutable_params() { return &params_; }
  // Argument `I`, to change before the next use of params().
  template <size_t I>
  auto& arg() {
    return std::get<I>(values_);
  }
  // Adds the node to `graph`, after `dependencies`.
  mcError_t Add(mcGraphNode_t* node, mcGraph_t graph,
                std::initializer_list<mcGraphNode_t> dependencies) const {
    return mcGraphAddKernelNode(
        node, graph, dependencies.size() == 0 ? nullptr : dependencies.begin(),
        dependencies.size(), &params_);
  }

 private:
  template <size_t... I>
  void Point(std::index_sequence<I...>) {
    size_t at = 0;
    ((pointers_[at++] = &std::get<I>(values_)), ...);
    pointers_[at] = nullptr;
  }

  std::tuple<Params...> values_;
  void* pointers_[sizeof...(Params) + 1] = {};
  mcKernelNodeParams params_{};
};

template <typename... Params, typename... Args>
KernelCall(void (*)(Params...), dim3, dim3, Args...) -> KernelCall<Params...>;

// Adds a node of the given kind after `dependencies` (the list form of the
// mcGraphAdd*Node dependency arguments).
inline mcError_t AddEmpty(mcGraphNode_t* node, mcGraph_t graph,
                          std::initializer_list<mcGraphNode_t> dependencies) {
  return mcGraphAddEmptyNode(
      node, graph, dependencies.size() == 0 ? nullptr : dependencies.begin(),
      dependencies.size());
}
inline mcError_t AddHost(mcGraphNode_t* node, mcGraph_t graph,
                         std::initializer_list<mcGraphNode_t> dependencies,
                         const mcHostNodeParams& params) {
  return mcGraphAddHostNode(
      node, graph, dependencies.size() == 0 ? nullptr : dependencies.begin(),
      dependencies.size(), &params);
}
inline mcError_t AddMemset(mcGraphNode_t* node, mcGraph_t graph,
                           std::initializer_list<mcGraphNode_t> dependencies,
                           const mcMemsetParams& params) {
  return mcGraphAddMemsetNode(
      node, graph, dependencies.size() == 0 ? nullptr : dependencies.begin(),
      dependencies.size(), &params);
}
inline mcError_t AddCopy(mcGraphNode_t* node, mcGraph_t graph,
                         std::initializer_list<mcGraphNode_t> dependencies,
                         void* dst, const void* src, size_t count,
                         mcMemcpyKind kind = mcMemcpyDefault) {
  return mcGraphAddMemcpyNode1D(
      node, graph, dependencies.size() == 0 ? nullptr : dependencies.begin(),
      dependencies.size(), dst, src, count, kind);
}
inline mcError_t AddChild(mcGraphNode_t* node, mcGraph_t graph,
                          std::initializer_list<mcGraphNode_t> dependencies,
                          mcGraph_t child) {
  return mcGraphAddChildGraphNode(
      node, graph, dependencies.size() == 0 ? nullptr : dependencies.begin(),
      dependencies.size(), child);
}
inline mcError_t AddRecord(mcGraphNode_t* node, mcGraph_t graph,
                           std::initializer_list<mcGraphNode_t> dependencies,
                           mcEvent_t event) {
  return mcGraphAddEventRecordNode(
      node, graph, dependencies.size() == 0 ? nullptr : dependencies.begin(),
      dependencies.size(), event);
}
inline mcError_t AddWait(mcGraphNode_t* node, mcGraph_t graph,
                         std::initializer_list<mcGraphNode_t> dependencies,
                         mcEvent_t event) {
  return mcGraphAddEventWaitNode(
      node, graph, dependencies.size() == 0 ? nullptr : dependencies.begin(),
      dependencies.size(), event);
}

// The parameters of a memset node of `count` 4-byte elements at `dst`.
inline mcMemsetParams Memset32(void* dst, unsigned value, size_t count) {
  mcMemsetParams params{};
  params.dst = dst;
  params.pitch = 0;
  params.value = value;
  params.elementSize = 4;
  params.width = count;
  params.height = 1;
  return params;
}

// The parameters of a 3D copy node copying `bytes` contiguous bytes.
inline mcMemcpy3DParms Copy3D(void* dst, const void* src, size_t bytes,
                              mcMemcpyKind kind = mcMemcpyDefault) {
  mcMemcpy3DParms params{};
  params.srcPtr = make_mcPitchedPtr(const_cast<void*>(src), bytes, bytes, 1);
  params.dstPtr = make_mcPitchedPtr(dst, bytes, bytes, 1);
  params.extent = make_mcExtent(bytes, 1, 1);
  params.kind = kind;
  return params;
}

// A board of tickets in managed memory: a node that runs takes the next
// value of a shared clock as its ticket, so that the tickets show the
// order in which nodes ran. Kernels take tickets with atomicAdd on clock()
// (a kernel each test file defines); host nodes through HostTicket.
class TicketBoard {
 public:
  static constexpr int kNotRun = -1;

  explicit TicketBoard(int slots) : slots_(slots) {
    result_ = mcMallocManaged(&memory_, sizeof(int) * (slots + 1));
    if (result_ == mcSuccess) Reset();
  }
  ~TicketBoard() {
    if (memory_ != nullptr) mcFree(memory_);
  }
  TicketBoard(const TicketBoard&) = delete;
  TicketBoard& operator=(const TicketBoard&) = delete;

  mcError_t status() const { return result_; }
  int* clock() const { return memory_; }
  int* tickets() const { return memory_ + 1; }
  int ticket(int slot) const { return tickets()[slot]; }
  int slots() const { return slots_; }
  // Every slot back to kNotRun and the clock to 0.
  void Reset() {
    memory_[0] = 0;
    for (int i = 0; i < slots_; ++i) tickets()[i] = kNotRun;
  }
  bool Ran(int slot) const { return ticket(slot) != kNotRun; }
  // True if both ran and `first` ran before `second`.
  bool RanBefore(int first, int second) const {
    return Ran(first) && Ran(second) && ticket(first) < ticket(second);
  }
  // The tickets handed out: every slot ran exactly once when the clock
  // reads slots() and the tickets are a permutation of 0..slots()-1.
  bool EachRanOnce() const {
    if (*clock() != slots_) return false;
    std::vector<int> seen(slots_, 0);
    for (int i = 0; i < slots_; ++i) {
      const int t = ticket(i);
      if (t < 0 || t >= slots_ || seen[t]++ != 0) return false;
    }
    return true;
  }
  // The tickets as text, for failure messages ("0:3 1:0 2:1").
  std::string Describe() const {
    std::string text;
    for (int i = 0; i < slots_; ++i) {
      if (!text.empty()) text += ' ';
      text += std::to_string(i) + ":" + std::to_string(ticket(i));
    }
    return text + " clock " + std::to_string(*clock());
  }

  // The parameters of a host node that takes a ticket for `slot`. The
  // board owns the node's user data.
  mcHostNodeParams HostTicket(int slot) {
    marks_.push_back(Mark{this, slot});
    return mcHostNodeParams{&TicketBoard::Take, &marks_.back()};
  }

 private:
  struct Mark {
    TicketBoard* board;
    int slot;
  };
  static void Take(void* data) {
    const Mark* mark = static_cast<const Mark*>(data);
    mark->board->tickets()[mark->slot] =
        __atomic_fetch_add(mark->board->clock(), 1, __ATOMIC_SEQ_CST);
  }

  int slots_;
  int* memory_ = nullptr;
  mcError_t result_ = mcSuccess;
  std::deque<Mark> marks_;
};

// A counter that host nodes and host functions increment, owned by the
// test; Increment() gives the parameters of a host node that increments it.
class HostCounter {
 public:
  mcHostNodeParams Increment() {
    return mcHostNodeParams{&HostCounter::Run, this};
  }
  int value() const { return value_.load(); }
  static void Run(void* data) { static_cast<HostCounter*>(data)->value_++; }

 private:
  std::atomic<int> value_{0};
};

// The nodes of `graph`, in the order they were added.
inline std::vector<mcGraphNode_t> Nodes(mcGraph_t graph) {
  size_t count = 0;
  if (mcGraphGetNodes(graph, nullptr, &count) != mcSuccess) return {};
  std::vector<mcGraphNode_t> nodes(count);
  if (count != 0 && mcGraphGetNodes(graph, nodes.data(), &count) != mcSuccess) {
    return {};
  }
  nodes.resize(count);
  return nodes;
}

// The roots of `graph`.
inline std::vector<mcGraphNode_t> Roots(mcGraph_t graph) {
  size_t count = 0;
  if (mcGraphGetRootNodes(graph, nullptr, &count) != mcSuccess) return {};
  std::vector<mcGraphNode_t> nodes(count);
  if (count != 0 &&
      mcGraphGetRootNodes(graph, nodes.data(), &count) != mcSuccess) {
    return {};
  }
  nodes.resize(count);
  return nodes;
}

using Edge = std::pair<mcGraphNode_t, mcGraphNode_t>;

// The edges of `graph`, sorted.
inline std::vector<Edge> Edges(mcGraph_t graph) {
  size_t count = 0;
  if (mcGraphGetEdges(graph, nullptr, nullptr, &count) != mcSuccess) return {};
  std::vector<mcGraphNode_t> from(count), to(count);
  if (count != 0 &&
      mcGraphGetEdges(graph, from.data(), to.data(), &count) != mcSuccess) {
    return {};
  }
  std::vector<Edge> edges;
  for (size_t i = 0; i < count; ++i) edges.emplace_back(from[i], to[i]);
  std::sort(edges.begin(), edges.end());
  return edges;
}

// The nodes `node` depends on.
inline std::vector<mcGraphNode_t> DependenciesOf(mcGraphNode_t node) {
  size_t count = 0;
  if (mcGraphNodeGetDependencies(node, nullptr, &count) != mcSuccess) {
    return {};
  }
  std::vector<mcGraphNode_t> nodes(count);
  if (count != 0 &&
      mcGraphNodeGetDependencies(node, nodes.data(), &count) != mcSuccess) {
    return {};
  }
  nodes.resize(count);
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

// The kind of `node`, or mcGraphNodeTypeCount if it cannot be read.
inline mcGraphNodeType TypeOf(mcGraphNode_t node) {
  mcGraphNodeType type = mcGraphNodeTypeCount;
  if (mcGraphNodeGetType(node, &type) != mcSuccess) return mcGraphNodeTypeCount;
  return type;
}

// The kinds of the nodes of `graph`, in the order they were added.
inline std::vector<mcGraphNodeType> TypesOf(mcGraph_t graph) {
  std::vector<mcGraphNodeType> types;
  for (mcGraphNode_t node : Nodes(graph)) types.push_back(TypeOf(node));
  return types;
}

// The nodes of `graph` of the given kind, in the order they were added.
inline std::vector<mcGraphNode_t> NodesOfType(mcGraph_t graph,
                                              mcGraphNodeType type) {
  std::vector<mcGraphNode_t> nodes;
  for (mcGraphNode_t node : Nodes(graph)) {
    if (TypeOf(node) == type) nodes.push_back(node);
  }
  return nodes;
}

// True if the nodes of `graph` form one chain in the order they were
// added: node i depends exactly on node i - 1.
inline bool IsChainInAddOrder(mcGraph_t graph) {
  const std::vector<mcGraphNode_t> nodes = Nodes(graph);
  for (size_t i = 0; i < nodes.size(); ++i) {
    const std::vector<mcGraphNode_t> deps = DependenciesOf(nodes[i]);
    if (i == 0 ? !deps.empty() : deps != std::vector{nodes[i - 1]}) {
      return false;
    }
  }
  return Edges(graph).size() + 1 == std::max<size_t>(nodes.size(), 1);
}

// The name of a node kind, for messages and test names ("Kernel").
inline const char* NodeTypeName(mcGraphNodeType type) {
  switch (type) {
    case mcGraphNodeTypeKernel:
      return "Kernel";
    case mcGraphNodeTypeMemcpy:
      return "Memcpy";
    case mcGraphNodeTypeMemset:
      return "Memset";
    case mcGraphNodeTypeHost:
      return "Host";
    case mcGraphNodeTypeGraph:
      return "ChildGraph";
    case mcGraphNodeTypeEmpty:
      return "Empty";
    case mcGraphNodeTypeWaitEvent:
      return "WaitEvent";
    case mcGraphNodeTypeEventRecord:
      return "EventRecord";
    case mcGraphNodeTypeExtSemaphoreSignal:
      return "ExtSemaphoreSignal";
    case mcGraphNodeTypeExtSemaphoreWait:
      return "ExtSemaphoreWait";
    case mcGraphNodeTypeMemAlloc:
      return "MemAlloc";
    case mcGraphNodeTypeMemFree:
      return "MemFree";
    default:
      return "Unknown";
  }
}

// The name of a capture mode, for test names ("ThreadLocal").
inline const char* CaptureModeName(mcStreamCaptureMode mode) {
  switch (mode) {
    case mcStreamCaptureModeGlobal:
      return "Global";
    case mcStreamCaptureModeThreadLocal:
      return "ThreadLocal";
    case mcStreamCaptureModeRelaxed:
      return "Relaxed";
  }
  return "Unknown";
}

inline constexpr mcStreamCaptureMode kAllCaptureModes[] = {
    mcStreamCaptureModeGlobal, mcStreamCaptureModeThreadLocal,
    mcStreamCaptureModeRelaxed};

// The capture status of `stream`, or a value no status has when it cannot
// be read.
inline int CaptureStatusOf(mcStream_t stream) {
  mcStreamCaptureStatus status = mcStreamCaptureStatusNone;
  if (mcStreamIsCapturing(stream, &status) != mcSuccess) return -1;
  return static_cast<int>(status);
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_GRAPH_EXEC_EXEC_TESTING_H_
