// Copyright mxcts authors.
//
// The graph entry points: graphs and nodes, parameters, edges and queries,
// executable graphs, updates, enabling, and the DOT output
// (graphs/graph.h, graphs/graph_exec.h, graphs/graph_dot.h). Stream capture
// is api_graph_capture.cc.
//
// Tested by api_graph_test.cc and the conformance tests of api-graph.md.

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "mc_runtime_api.h"
#include "reference/runtime/api/api_entry.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/graphs/graph.h"
#include "reference/runtime/graphs/graph_dot.h"
#include "reference/runtime/graphs/graph_exec.h"
#include "reference/runtime/graphs/stream_capture.h"
#include "reference/runtime/images/image_registry.h"
#include "reference/runtime/process/runtime.h"
#include "reference/runtime/timeline/stream.h"
#include "reference/runtime/timeline/timeline.h"

namespace mxcts::runtime {
namespace {

absl::Status Invalid(const std::string& message) {
  return McStatus(mcErrorInvalidValue, message);
}

absl::StatusOr<MCgraph_st*> FindGraph(mcGraph_t graph) {
  return GraphTable::Get().Find(graph, "the graph");
}

absl::StatusOr<MCgraphNode_st*> FindNode(mcGraphNode_t node) {
  return GraphTable::Get().FindNode(node, "the node");
}

// The node `node` if it is of `type`; mcErrorInvalidValue otherwise.
// [api.graph.node-params.wrong-node-type-invalid-value]
absl::StatusOr<MCgraphNode_st*> FindNodeOfType(mcGraphNode_t node,
                                               mcGraphNodeType type,
                                               const void* out) {
  if (out == nullptr) return Invalid("the parameters are null");
  MX_ASSIGN_OR_RETURN(MCgraphNode_st * found, FindNode(node));
  if (found->params.type() != type) {
    return Invalid(absl::StrFormat("node %p is a %s node", node,
                                   found->params.type_name()));
  }
  return found;
}

// A Get call: stores `read(params)` of `node`, a node of `type`, in `*out`.
template <typename Out, typename Read>
absl::Status ReadNodeParams(mcGraphNode_t node, mcGraphNodeType type, Out* out,
                            Read read) {
  MX_ASSIGN_OR_RETURN(MCgraphNode_st * found, FindNodeOfType(node, type, out));
  *out = read(found->params);
  return absl::OkStatus();
}

// A Set call: replaces the parameters of `node`, a node of `type`, with
// those `make` returns; on `make`'s error the node keeps its parameters.
// [api.graph.node-params.set-changes-graph-node]
template <typename MakeParams>
absl::Status ReplaceNodeParams(mcGraphNode_t node, mcGraphNodeType type,
                               const void* given, MakeParams make) {
  MX_ASSIGN_OR_RETURN(MCgraphNode_st * found,
                      FindNodeOfType(node, type, given));
  MX_ASSIGN_OR_RETURN(found->params, make());
  return absl::OkStatus();
}

// What every mcGraphAdd*Node does: checks the output, the graph and the
// dependencies, then the parameters `make` returns, and adds the node.
// [api.graph.node.null-output-or-graph-invalid-value]
template <typename MakeParams>
absl::Status AddNodeApi(mcGraphNode_t* node, mcGraph_t graph,
                        const mcGraphNode_t* dependencies, size_t count,
                        MakeParams make) {
  if (node == nullptr) return Invalid("the node output is null");
  MX_ASSIGN_OR_RETURN(MCgraph_st * target, FindGraph(graph));
  MX_ASSIGN_OR_RETURN(std::vector<MCgraphNode_st*> after,
                      CheckDependencies(*target, dependencies, count));
  MX_ASSIGN_OR_RETURN(NodeParams params, make());
  MX_ASSIGN_OR_RETURN(*node, AddNode(*target, std::move(params), after));
  return absl::OkStatus();
}

// A copy of `child` for a child graph node, refusing graphs with memory
// nodes. [api.graph.child-graph-node.embeds-copy]
absl::StatusOr<NodeParams> ChildGraphParams(mcGraph_t child) {
  if (child == nullptr) {
    // [api.graph.child-graph-node.null-child-invalid-value]
    return Invalid("the child graph is null");
  }
  MX_ASSIGN_OR_RETURN(MCgraph_st * graph, FindGraph(child));
  if (HoldsNodeOfType(*graph, mcGraphNodeTypeMemAlloc) ||
      HoldsNodeOfType(*graph, mcGraphNodeTypeMemFree)) {
    return Invalid("a child graph may not hold memory nodes");
  }
  return NodeParams::ChildGraph(std::shared_ptr<MCgraph_st>(CopyGraph(*graph)));
}

// Stores up to `*count` of `nodes` in `out` (null for the rest) and the
// number stored in `*count`; with a null `out`, the number there is.
// [api.graph.get-nodes.count-and-fill]
absl::Status FillNodes(const std::vector<MCgraphNode_st*>& nodes,
                       mcGraphNode_t* out, size_t* count) {
  // [api.graph.get-nodes.null-count-invalid-value]
  if (count == nullptr) return Invalid("the count is null");
  if (out == nullptr) {
    *count = nodes.size();
    return absl::OkStatus();
  }
  const size_t room = *count;
  for (size_t i = 0; i < room; ++i) {
    out[i] = i < nodes.size() ? nodes[i] : nullptr;
  }
  *count = std::min(room, nodes.size());
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Edge>> CheckEdges(const MCgraph_st& graph,
                                             const mcGraphNode_t* from,
                                             const mcGraphNode_t* to,
                                             size_t count) {
  std::vector<Edge> edges;
  if (count == 0) return edges;
  if (from == nullptr || to == nullptr) {
    return Invalid(
        absl::StrFormat("an edge array is null but the count is %u", count));
  }
  for (size_t i = 0; i < count; ++i) {
    MX_ASSIGN_OR_RETURN(MCgraphNode_st * a, FindNode(from[i]));
    MX_ASSIGN_OR_RETURN(MCgraphNode_st * b, FindNode(to[i]));
    if (a->graph != &graph || b->graph != &graph) {
      // [api.graph.add-dependencies.foreign-node-invalid-value]
      return Invalid(
          absl::StrFormat("edge %u joins a node of another graph", i));
    }
    edges.push_back(Edge{a, b});
  }
  return edges;
}

// Writes `message` into the instantiation log: at most `size` bytes, NUL
// included.
void WriteLog(const std::string& message, char* log, size_t size) {
  if (log == nullptr || size == 0) return;
  const size_t n = std::min(size - 1, message.size());
  std::memcpy(log, message.data(), n);
  log[n] = '\0';
}

absl::Status InstantiateApi(mcGraphExec_t* exec, mcGraph_t graph,
                            unsigned long long flags, mcGraphNode_t* error_node,
                            char* log, size_t log_size) {
  // [api.graph.instantiate.null-invalid-value]
  if (exec == nullptr) return Invalid("the executable graph output is null");
  MX_ASSIGN_OR_RETURN(MCgraph_st * source, FindGraph(graph));
  GraphFailure failure;
  absl::StatusOr<MCgraphExec_st*> made = Instantiate(*source, flags, &failure);
  if (!made.ok()) {
    if (error_node != nullptr) {
      *error_node = const_cast<MCgraphNode_st*>(failure.node);
    }
    WriteLog(failure.message, log, log_size);
    return made.status();
  }
  *exec = *made;
  return absl::OkStatus();
}

// The executable graph and node of a per-node call.
struct ExecAndNode {
  MCgraphExec_st* exec;
  MCgraphNode_st* node;
};

absl::StatusOr<ExecAndNode> FindExecAndNode(mcGraphExec_t exec,
                                            mcGraphNode_t node) {
  MX_ASSIGN_OR_RETURN(MCgraphExec_st * found, ExecTable::Get().Find(exec));
  MX_ASSIGN_OR_RETURN(MCgraphNode_st * found_node, FindNode(node));
  return ExecAndNode{found, found_node};
}

template <typename MakeParams>
absl::Status SetExecNodeApi(mcGraphExec_t exec, mcGraphNode_t node,
                            MakeParams make) {
  MX_ASSIGN_OR_RETURN(ExecAndNode target, FindExecAndNode(exec, node));
  MX_ASSIGN_OR_RETURN(NodeParams params, make());
  // Launches enqueued but not run keep their snapshot; the lock keeps the
  // timeline from reading it meanwhile.
  absl::MutexLock lock(&Runtime::Get().execution_mutex());
  return SetExecNodeParams(*target.exec, target.node, params);
}

}  // namespace
}  // namespace mxcts::runtime

using mxcts::runtime::AddNodeApi;
using mxcts::runtime::ChildGraphParams;
using mxcts::runtime::GraphTable;
using mxcts::runtime::McStatus;
using mxcts::runtime::NodeParams;
using mxcts::runtime::RunApi;

// --- Graphs. ---

extern "C" mcError_t mcGraphCreate(mcGraph_t* graph, unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    // [api.graph.create.null-output-invalid-value]
    if (graph == nullptr) return mxcts::runtime::Invalid("the graph is null");
    if (flags != 0) {  // [api.graph.create.nonzero-flags-invalid-value]
      return mxcts::runtime::Invalid(
          absl::StrFormat("flags %#x: the only flags are 0", flags));
    }
    *graph =
        GraphTable::Get().Create();  // [api.graph.create.returns-empty-graph]
    return absl::OkStatus();
  });
}

extern "C" mcError_t mcGraphDestroy(mcGraph_t graph) {
  return RunApi([&]() -> absl::Status {
    // [api.graph.destroy.null-graph-invalid-value]
    MX_ASSIGN_OR_RETURN(MCgraph_st * found, mxcts::runtime::FindGraph(graph));
    if (found->owned_by_node) {
      return mxcts::runtime::Invalid("the graph belongs to a child graph node");
    }
    // [api.graph.destroy.releases-graph-and-nodes]: executable graphs hold
    // their own copies.
    GraphTable::Get().Destroy(found);
    return absl::OkStatus();
  });
}

extern "C" mcError_t mcGraphClone(mcGraph_t* clone, mcGraph_t original) {
  return RunApi([&]() -> absl::Status {
    // [api.graph.clone.null-invalid-value]
    if (clone == nullptr) return mxcts::runtime::Invalid("the clone is null");
    MX_ASSIGN_OR_RETURN(MCgraph_st * source,
                        mxcts::runtime::FindGraph(original));
    // [api.graph.clone.independent-copy]
    MCgraph_st* copy = mxcts::runtime::CopyGraph(*source).release();
    GraphTable::Get().Adopt(copy);
    *clone = copy;
    return absl::OkStatus();
  });
}

extern "C" mcError_t mcGraphNodeFindInClone(mcGraphNode_t* clonedNode,
                                            mcGraphNode_t originalNode,
                                            mcGraph_t clonedGraph) {
  return RunApi([&]() -> absl::Status {
    if (clonedNode == nullptr) {
      return mxcts::runtime::Invalid("the output is null");
    }
    MX_ASSIGN_OR_RETURN(MCgraphNode_st * original,
                        mxcts::runtime::FindNode(originalNode));
    MX_ASSIGN_OR_RETURN(MCgraph_st * clone,
                        mxcts::runtime::FindGraph(clonedGraph));
    if (clone->cloned_from != original->graph) {
      return mxcts::runtime::Invalid(
          "the graph is not a clone of the node's graph");
    }
    for (size_t i = 0; i < clone->originals.size(); ++i) {
      if (clone->originals[i] == original) {
        *clonedNode = clone->nodes[i].get();
        return absl::OkStatus();
      }
    }
    return mxcts::runtime::Invalid("the node was added after the clone");
  });
}

// --- Adding nodes. ---

extern "C" mcError_t mcGraphAddKernelNode(mcGraphNode_t* node, mcGraph_t graph,
                                          const mcGraphNode_t* dependencies,
                                          size_t numDependencies,
                                          const mcKernelNodeParams* params) {
  return RunApi([&] {
    return AddNodeApi(node, graph, dependencies, numDependencies,
                      [&] { return NodeParams::Kernel(params); });
  });
}

extern "C" mcError_t mcGraphAddMemcpyNode(mcGraphNode_t* node, mcGraph_t graph,
                                          const mcGraphNode_t* dependencies,
                                          size_t numDependencies,
                                          const mcMemcpy3DParms* params) {
  return RunApi([&] {
    return AddNodeApi(node, graph, dependencies, numDependencies,
                      [&] { return NodeParams::Memcpy(params); });
  });
}

extern "C" mcError_t mcGraphAddMemcpyNode1D(mcGraphNode_t* node,
                                            mcGraph_t graph,
                                            const mcGraphNode_t* dependencies,
                                            size_t numDependencies, void* dst,
                                            const void* src, size_t count,
                                            mcMemcpyKind kind) {
  return RunApi([&] {
    return AddNodeApi(node, graph, dependencies, numDependencies, [&] {
      return NodeParams::Memcpy1D(dst, src, count, kind);
    });
  });
}

namespace mxcts::runtime {
namespace {

// The address `offset` bytes into the device variable `symbol` on the
// current device, for `count` bytes. mcErrorInvalidSymbol for an unknown
// symbol; mcErrorInvalidValue past its end.
absl::StatusOr<char*> SymbolAddress(const void* symbol, size_t count,
                                    size_t offset) {
  MX_ASSIGN_OR_RETURN(Device * device,
                      DeviceTable::Get().CurrentDeviceForWork());
  MX_ASSIGN_OR_RETURN(
      VariableHandle variable,
      ImageRegistry::Get().ResolveVariable(symbol, device->ordinal()));
  if (offset > variable.size || count > variable.size - offset) {
    return Invalid(
        absl::StrFormat("offset %u + count %u exceed the "
                        "variable's %u bytes",
                        offset, count, variable.size));
  }
  return static_cast<char*>(variable.address) + offset;
}

}  // namespace
}  // namespace mxcts::runtime

extern "C" mcError_t mcGraphAddMemcpyNodeToSymbol(
    mcGraphNode_t* node, mcGraph_t graph, const mcGraphNode_t* dependencies,
    size_t numDependencies, const void* symbol, const void* src, size_t count,
    size_t offset, mcMemcpyKind kind) {
  return RunApi([&] {
    return AddNodeApi(node, graph, dependencies, numDependencies,
                      [&]() -> absl::StatusOr<NodeParams> {
                        MX_ASSIGN_OR_RETURN(char* address,
                                            mxcts::runtime::SymbolAddress(
                                                symbol, count, offset));
                        return NodeParams::Memcpy1D(address, src, count, kind);
                      });
  });
}

extern "C" mcError_t mcGraphAddMemcpyNodeFromSymbol(
    mcGraphNode_t* node, mcGraph_t graph, const mcGraphNode_t* dependencies,
    size_t numDependencies, void* dst, const void* symbol, size_t count,
    size_t offset, mcMemcpyKind kind) {
  return RunApi([&] {
    return AddNodeApi(node, graph, dependencies, numDependencies,
                      [&]() -> absl::StatusOr<NodeParams> {
                        MX_ASSIGN_OR_RETURN(char* address,
                                            mxcts::runtime::SymbolAddress(
                                                symbol, count, offset));
                        return NodeParams::Memcpy1D(dst, address, count, kind);
                      });
  });
}

extern "C" mcError_t mcGraphAddMemsetNode(mcGraphNode_t* node, mcGraph_t graph,
                                          const mcGraphNode_t* dependencies,
                                          size_t numDependencies,
                                          const mcMemsetParams* params) {
  return RunApi([&] {
    return AddNodeApi(node, graph, dependencies, numDependencies,
                      [&] { return NodeParams::Memset(params); });
  });
}

extern "C" mcError_t mcGraphAddHostNode(mcGraphNode_t* node, mcGraph_t graph,
                                        const mcGraphNode_t* dependencies,
                                        size_t numDependencies,
                                        const mcHostNodeParams* params) {
  return RunApi([&] {
    return AddNodeApi(node, graph, dependencies, numDependencies,
                      [&] { return NodeParams::Host(params); });
  });
}

extern "C" mcError_t mcGraphAddChildGraphNode(mcGraphNode_t* node,
                                              mcGraph_t graph,
                                              const mcGraphNode_t* dependencies,
                                              size_t numDependencies,
                                              mcGraph_t childGraph) {
  return RunApi([&] {
    return AddNodeApi(node, graph, dependencies, numDependencies,
                      [&] { return ChildGraphParams(childGraph); });
  });
}

extern "C" mcError_t mcGraphAddEmptyNode(mcGraphNode_t* node, mcGraph_t graph,
                                         const mcGraphNode_t* dependencies,
                                         size_t numDependencies) {
  return RunApi([&] {
    return AddNodeApi(
        node, graph, dependencies, numDependencies,
        [&]() -> absl::StatusOr<NodeParams> { return NodeParams::Empty(); });
  });
}

extern "C" mcError_t mcGraphAddEventRecordNode(
    mcGraphNode_t* node, mcGraph_t graph, const mcGraphNode_t* dependencies,
    size_t numDependencies, mcEvent_t event) {
  return RunApi([&] {
    return AddNodeApi(node, graph, dependencies, numDependencies,
                      [&] { return NodeParams::EventRecord(event); });
  });
}

extern "C" mcError_t mcGraphAddEventWaitNode(mcGraphNode_t* node,
                                             mcGraph_t graph,
                                             const mcGraphNode_t* dependencies,
                                             size_t numDependencies,
                                             mcEvent_t event) {
  return RunApi([&] {
    return AddNodeApi(node, graph, dependencies, numDependencies,
                      [&] { return NodeParams::EventWait(event); });
  });
}

extern "C" mcError_t mcGraphAddMemAllocNode(mcGraphNode_t* node,
                                            mcGraph_t graph,
                                            const mcGraphNode_t* dependencies,
                                            size_t numDependencies,
                                            mcMemAllocNodeParams* params) {
  return RunApi([&] {
    return AddNodeApi(node, graph, dependencies, numDependencies,
                      [&] { return NodeParams::MemAlloc(params); });
  });
}

namespace mxcts::runtime {
namespace {

// A free node of `graph` for `dptr` after `dependencies`: an allocation of
// the graph itself must be ordered before it, and freed once.
// [api.graph.mem-free-node.frees]
absl::StatusOr<NodeParams> MemFreeParams(const MCgraph_st& graph,
                                         const mcGraphNode_t* dependencies,
                                         size_t count, void* dptr) {
  MX_ASSIGN_OR_RETURN(NodeParams params, NodeParams::MemFree(dptr));
  for (const auto& node : graph.nodes) {
    const NodeParams& other = node->params;
    if (other.type() == mcGraphNodeTypeMemFree && other.freed() == dptr) {
      return Invalid(absl::StrFormat("the graph already frees %p", dptr));
    }
    if (other.type() != mcGraphNodeTypeMemAlloc ||
        other.allocation()->address() != dptr) {
      continue;
    }
    bool ordered = false;
    for (size_t i = 0; i < count; ++i) {
      ordered |= Reaches(node.get(), dependencies[i]);
    }
    if (!ordered) {
      return Invalid(absl::StrFormat(
          "the free of %p is not ordered after its allocation node", dptr));
    }
  }
  return params;
}

}  // namespace
}  // namespace mxcts::runtime

extern "C" mcError_t mcGraphAddMemFreeNode(mcGraphNode_t* node, mcGraph_t graph,
                                           const mcGraphNode_t* dependencies,
                                           size_t numDependencies, void* dptr) {
  return RunApi([&] {
    return AddNodeApi(node, graph, dependencies, numDependencies, [&] {
      // AddNodeApi checked the graph and the dependencies first.
      return mxcts::runtime::MemFreeParams(*graph, dependencies,
                                           numDependencies, dptr);
    });
  });
}

// --- Node parameters. ---

extern "C" mcError_t mcGraphKernelNodeGetParams(mcGraphNode_t node,
                                                mcKernelNodeParams* params) {
  // [api.graph.node-params.get-returns-set-values]
  return RunApi([&] {
    return mxcts::runtime::ReadNodeParams(
        node, mcGraphNodeTypeKernel, params,
        [](const NodeParams& p) { return p.kernel(); });
  });
}

extern "C" mcError_t mcGraphKernelNodeSetParams(
    mcGraphNode_t node, const mcKernelNodeParams* params) {
  return RunApi([&] {
    return mxcts::runtime::ReplaceNodeParams(
        node, mcGraphNodeTypeKernel, params,
        [&]() -> absl::StatusOr<NodeParams> {
          MX_ASSIGN_OR_RETURN(NodeParams made, NodeParams::Kernel(params));
          // [api.graph.kernel-node-attribute.kept-by-set-params]
          MX_ASSIGN_OR_RETURN(MCgraphNode_st * old,
                              mxcts::runtime::FindNode(node));
          MX_RETURN_IF_ERROR(made.CopyKernelAttributes(old->params));
          return made;
        });
  });
}

// --- Kernel node attributes. ---

extern "C" mcError_t mcGraphKernelNodeSetAttribute(
    mcGraphNode_t node, mcKernelNodeAttrID attr,
    const mcKernelNodeAttrValue* value) {
  return RunApi([&]() -> absl::Status {
    // [api.graph.kernel-node-attribute.bad-call-invalid-value]
    MX_ASSIGN_OR_RETURN(
        MCgraphNode_st * found,
        mxcts::runtime::FindNodeOfType(node, mcGraphNodeTypeKernel, value));
    NodeParams& params = found->params;
    switch (attr) {
      case mcKernelNodeAttributeCooperative:
        // [api.graph.kernel-node-attribute.cooperative-runs-cooperatively]
        return params.SetCooperative(value->cooperative != 0);
      case mcKernelNodeAttributePriority:
        // [api.graph.kernel-node-attribute.hints-change-nothing]
        params.mutable_kernel_attributes().priority =
            std::clamp(value->priority, mxcts::runtime::kGreatestStreamPriority,
                       mxcts::runtime::kLeastStreamPriority);
        return absl::OkStatus();
      case mcKernelNodeAttributeAccessPolicyWindow:
        MX_RETURN_IF_ERROR(mxcts::runtime::CheckAccessPolicyWindow(
            "mcGraphKernelNodeSetAttribute", value->accessPolicyWindow));
        params.mutable_kernel_attributes().access_policy_window =
            value->accessPolicyWindow;
        return absl::OkStatus();
      default:
        break;
    }
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%d is not a kernel node attribute",
                                    static_cast<int>(attr)));
  });
}

extern "C" mcError_t mcGraphKernelNodeGetAttribute(
    mcGraphNode_t node, mcKernelNodeAttrID attr, mcKernelNodeAttrValue* value) {
  return RunApi([&]() -> absl::Status {
    // [api.graph.kernel-node-attribute.set-then-get-round-trips]
    MX_ASSIGN_OR_RETURN(
        MCgraphNode_st * found,
        mxcts::runtime::FindNodeOfType(node, mcGraphNodeTypeKernel, value));
    const NodeParams& params = found->params;
    switch (attr) {
      case mcKernelNodeAttributeCooperative:
        value->cooperative = params.cooperative() ? 1 : 0;
        return absl::OkStatus();
      case mcKernelNodeAttributePriority:
        value->priority = params.kernel_attributes().priority;
        return absl::OkStatus();
      case mcKernelNodeAttributeAccessPolicyWindow:
        value->accessPolicyWindow =
            params.kernel_attributes().access_policy_window;
        return absl::OkStatus();
      default:
        break;
    }
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("%d is not a kernel node attribute",
                                    static_cast<int>(attr)));
  });
}

extern "C" mcError_t mcGraphKernelNodeCopyAttributes(mcGraphNode_t dst,
                                                     mcGraphNode_t src) {
  return RunApi([&]() -> absl::Status {
    // [api.graph.kernel-node-attribute.copy-copies-all]
    MX_ASSIGN_OR_RETURN(
        MCgraphNode_st * to,
        mxcts::runtime::FindNodeOfType(dst, mcGraphNodeTypeKernel, &dst));
    MX_ASSIGN_OR_RETURN(
        MCgraphNode_st * from,
        mxcts::runtime::FindNodeOfType(src, mcGraphNodeTypeKernel, &src));
    return to->params.CopyKernelAttributes(from->params);
  });
}

extern "C" mcError_t mcGraphMemcpyNodeGetParams(mcGraphNode_t node,
                                                mcMemcpy3DParms* params) {
  return RunApi([&] {
    return mxcts::runtime::ReadNodeParams(
        node, mcGraphNodeTypeMemcpy, params,
        [](const NodeParams& p) { return p.memcpy().copy; });
  });
}

extern "C" mcError_t mcGraphMemcpyNodeSetParams(mcGraphNode_t node,
                                                const mcMemcpy3DParms* params) {
  return RunApi([&] {
    return mxcts::runtime::ReplaceNodeParams(
        node, mcGraphNodeTypeMemcpy, params,
        [&] { return NodeParams::Memcpy(params); });
  });
}

extern "C" mcError_t mcGraphMemcpyNodeSetParams1D(mcGraphNode_t node, void* dst,
                                                  const void* src, size_t count,
                                                  mcMemcpyKind kind) {
  return RunApi([&] {
    return mxcts::runtime::ReplaceNodeParams(
        node, mcGraphNodeTypeMemcpy, &kind,
        [&] { return NodeParams::Memcpy1D(dst, src, count, kind); });
  });
}

extern "C" mcError_t mcGraphMemsetNodeGetParams(mcGraphNode_t node,
                                                mcMemsetParams* params) {
  return RunApi([&] {
    return mxcts::runtime::ReadNodeParams(
        node, mcGraphNodeTypeMemset, params,
        [](const NodeParams& p) { return p.memset().set; });
  });
}

extern "C" mcError_t mcGraphMemsetNodeSetParams(mcGraphNode_t node,
                                                const mcMemsetParams* params) {
  return RunApi([&] {
    return mxcts::runtime::ReplaceNodeParams(
        node, mcGraphNodeTypeMemset, params,
        [&] { return NodeParams::Memset(params); });
  });
}

extern "C" mcError_t mcGraphHostNodeGetParams(mcGraphNode_t node,
                                              mcHostNodeParams* params) {
  return RunApi([&] {
    return mxcts::runtime::ReadNodeParams(
        node, mcGraphNodeTypeHost, params,
        [](const NodeParams& p) { return p.host(); });
  });
}

extern "C" mcError_t mcGraphHostNodeSetParams(mcGraphNode_t node,
                                              const mcHostNodeParams* params) {
  return RunApi([&] {
    return mxcts::runtime::ReplaceNodeParams(
        node, mcGraphNodeTypeHost, params,
        [&] { return NodeParams::Host(params); });
  });
}

extern "C" mcError_t mcGraphChildGraphNodeGetGraph(mcGraphNode_t node,
                                                   mcGraph_t* graph) {
  return RunApi([&] {
    return mxcts::runtime::ReadNodeParams(
        node, mcGraphNodeTypeGraph, graph,
        [](const NodeParams& p) { return p.child_graph(); });
  });
}

extern "C" mcError_t mcGraphEventRecordNodeGetEvent(mcGraphNode_t node,
                                                    mcEvent_t* event) {
  return RunApi([&] {
    return mxcts::runtime::ReadNodeParams(
        node, mcGraphNodeTypeEventRecord, event,
        [](const NodeParams& p) { return p.event(); });
  });
}

extern "C" mcError_t mcGraphEventRecordNodeSetEvent(mcGraphNode_t node,
                                                    mcEvent_t event) {
  return RunApi([&] {
    return mxcts::runtime::ReplaceNodeParams(
        node, mcGraphNodeTypeEventRecord, &event,
        [&] { return NodeParams::EventRecord(event); });
  });
}

extern "C" mcError_t mcGraphEventWaitNodeGetEvent(mcGraphNode_t node,
                                                  mcEvent_t* event) {
  return RunApi([&] {
    return mxcts::runtime::ReadNodeParams(
        node, mcGraphNodeTypeWaitEvent, event,
        [](const NodeParams& p) { return p.event(); });
  });
}

extern "C" mcError_t mcGraphEventWaitNodeSetEvent(mcGraphNode_t node,
                                                  mcEvent_t event) {
  return RunApi([&] {
    return mxcts::runtime::ReplaceNodeParams(
        node, mcGraphNodeTypeWaitEvent, &event,
        [&] { return NodeParams::EventWait(event); });
  });
}

extern "C" mcError_t mcGraphMemAllocNodeGetParams(
    mcGraphNode_t node, mcMemAllocNodeParams* params) {
  return RunApi([&] {
    return mxcts::runtime::ReadNodeParams(
        node, mcGraphNodeTypeMemAlloc, params,
        [](const NodeParams& p) { return p.mem_alloc(); });
  });
}

extern "C" mcError_t mcGraphMemFreeNodeGetParams(mcGraphNode_t node,
                                                 void* dptr) {
  return RunApi([&] {
    return mxcts::runtime::ReadNodeParams(
        node, mcGraphNodeTypeMemFree, static_cast<void**>(dptr),
        [](const NodeParams& p) { return p.freed(); });
  });
}

// --- Edges and queries. ---

extern "C" mcError_t mcGraphAddDependencies(mcGraph_t graph,
                                            const mcGraphNode_t* from,
                                            const mcGraphNode_t* to,
                                            size_t numDependencies) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(MCgraph_st * found, mxcts::runtime::FindGraph(graph));
    MX_ASSIGN_OR_RETURN(
        std::vector<mxcts::runtime::Edge> edges,
        mxcts::runtime::CheckEdges(*found, from, to, numDependencies));
    return mxcts::runtime::AddEdges(*found, edges);
  });
}

extern "C" mcError_t mcGraphRemoveDependencies(mcGraph_t graph,
                                               const mcGraphNode_t* from,
                                               const mcGraphNode_t* to,
                                               size_t numDependencies) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(MCgraph_st * found, mxcts::runtime::FindGraph(graph));
    MX_ASSIGN_OR_RETURN(
        std::vector<mxcts::runtime::Edge> edges,
        mxcts::runtime::CheckEdges(*found, from, to, numDependencies));
    return mxcts::runtime::RemoveEdges(*found, edges);
  });
}

extern "C" mcError_t mcGraphGetNodes(mcGraph_t graph, mcGraphNode_t* nodes,
                                     size_t* numNodes) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(MCgraph_st * found, mxcts::runtime::FindGraph(graph));
    std::vector<MCgraphNode_st*> all;
    for (const auto& node : found->nodes) all.push_back(node.get());
    return mxcts::runtime::FillNodes(all, nodes, numNodes);
  });
}

extern "C" mcError_t mcGraphGetRootNodes(mcGraph_t graph,
                                         mcGraphNode_t* rootNodes,
                                         size_t* numRootNodes) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(MCgraph_st * found, mxcts::runtime::FindGraph(graph));
    std::vector<MCgraphNode_st*> roots;
    for (const auto& node : found->nodes) {
      if (node->dependencies.empty()) roots.push_back(node.get());
    }
    return mxcts::runtime::FillNodes(roots, rootNodes, numRootNodes);
  });
}

extern "C" mcError_t mcGraphGetEdges(mcGraph_t graph, mcGraphNode_t* from,
                                     mcGraphNode_t* to, size_t* numEdges) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(MCgraph_st * found, mxcts::runtime::FindGraph(graph));
    if (numEdges == nullptr)
      return mxcts::runtime::Invalid("the count is null");
    if ((from == nullptr) != (to == nullptr)) {
      // [api.graph.get-edges.one-array-null-invalid-value]
      return mxcts::runtime::Invalid("one edge array is null, not both");
    }
    std::vector<mxcts::runtime::Edge> edges = mxcts::runtime::EdgesOf(*found);
    if (from == nullptr) {
      *numEdges = edges.size();
      return absl::OkStatus();
    }
    const size_t room = *numEdges;
    for (size_t i = 0; i < room; ++i) {
      from[i] = i < edges.size() ? edges[i].from : nullptr;
      to[i] = i < edges.size() ? edges[i].to : nullptr;
    }
    *numEdges = std::min(room, edges.size());
    return absl::OkStatus();
  });
}

extern "C" mcError_t mcGraphNodeGetType(mcGraphNode_t node,
                                        mcGraphNodeType* type) {
  return RunApi([&]() -> absl::Status {
    // [api.graph.node-get-type.null-invalid-value]
    if (type == nullptr) return mxcts::runtime::Invalid("the type is null");
    MX_ASSIGN_OR_RETURN(MCgraphNode_st * found, mxcts::runtime::FindNode(node));
    *type = found->params.type();
    return absl::OkStatus();
  });
}

extern "C" mcError_t mcGraphNodeGetDependencies(mcGraphNode_t node,
                                                mcGraphNode_t* dependencies,
                                                size_t* numDependencies) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(MCgraphNode_st * found, mxcts::runtime::FindNode(node));
    return mxcts::runtime::FillNodes(found->dependencies, dependencies,
                                     numDependencies);
  });
}

extern "C" mcError_t mcGraphNodeGetDependentNodes(mcGraphNode_t node,
                                                  mcGraphNode_t* dependentNodes,
                                                  size_t* numDependentNodes) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(MCgraphNode_st * found, mxcts::runtime::FindNode(node));
    return mxcts::runtime::FillNodes(found->dependents, dependentNodes,
                                     numDependentNodes);
  });
}

extern "C" mcError_t mcGraphDestroyNode(mcGraphNode_t node) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(MCgraphNode_st * found, mxcts::runtime::FindNode(node));
    mxcts::runtime::DestroyNode(found);
    return absl::OkStatus();
  });
}

// --- Executable graphs. ---

extern "C" mcError_t mcGraphInstantiate(mcGraphExec_t* exec, mcGraph_t graph,
                                        mcGraphNode_t* errorNode,
                                        char* logBuffer, size_t bufferSize) {
  return RunApi([&] {
    return mxcts::runtime::InstantiateApi(exec, graph, 0, errorNode, logBuffer,
                                          bufferSize);
  });
}

extern "C" mcError_t mcGraphInstantiateWithFlags(mcGraphExec_t* exec,
                                                 mcGraph_t graph,
                                                 unsigned long long flags) {
  return RunApi([&]() -> absl::Status {
    // [api.graph.instantiate.unknown-flags-invalid-value]: graphs cannot be
    // launched from device code, so DeviceLaunch is refused too.
    constexpr unsigned long long kKnown =
        mcGraphInstantiateFlagAutoFreeOnLaunch | mcGraphInstantiateFlagUpload |
        mcGraphInstantiateFlagUseNodePriority;
    if ((flags & ~kKnown) != 0) {
      return mxcts::runtime::Invalid(
          absl::StrFormat("flags %#x: unknown or unsupported bits", flags));
    }
    // [api.graph.instantiate.with-flags]
    return mxcts::runtime::InstantiateApi(exec, graph, flags, nullptr, nullptr,
                                          0);
  });
}

extern "C" mcError_t mcGraphUpload(mcGraphExec_t exec, mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    MX_RETURN_IF_ERROR(mxcts::runtime::ExecTable::Get().Find(exec).status());
    MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
    // Nothing to upload: an empty piece of the stream's work.
    return mxcts::runtime::SubmitWork(
        stream, "mcGraphUpload", [] { return mcSuccess; },
        mxcts::runtime::HostWait::kNone);
  });
}

extern "C" mcError_t mcGraphLaunch(mcGraphExec_t exec, mcStream_t stream) {
  return RunApi([&]() -> absl::Status {
    using mxcts::runtime::CaptureTable;
    // [api.graph.launch.null-exec-invalid-value]
    MX_ASSIGN_OR_RETURN(MCgraphExec_st * found,
                        mxcts::runtime::ExecTable::Get().Find(exec));
    // [api.graph.launch.invalid-stream-resource-handle]
    // [api.error.sticky.later-calls-fail]: the launch is refused on a device
    // with a sticky error.
    MX_RETURN_IF_ERROR(mxcts::runtime::StreamDeviceForWork(stream).status());
    absl::MutexLock lock(&mxcts::runtime::Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(mxcts::runtime::ResolvedStream resolved,
                        mxcts::runtime::ResolveStreamLocked(stream));
    if (CaptureTable::Get().AnyActive()) {
      // A graph launch is not captured: it ends a capture of its stream.
      MX_RETURN_IF_ERROR(
          CaptureTable::Get().CheckUncapturedWork(resolved.queue, false));
    }
    // [api.graph.launch.ordered-in-stream] [api.graph.launch.repeatable]
    mxcts::runtime::Timeline& timeline = mxcts::runtime::Timeline::Get();
    MX_ASSIGN_OR_RETURN(mxcts::runtime::Point point,
                        mxcts::runtime::EnqueueLaunch(*found, resolved.queue));
    timeline.AfterSubmit(point);
    return absl::OkStatus();
  });
}

extern "C" mcError_t mcGraphExecDestroy(mcGraphExec_t exec) {
  return RunApi([&]() -> absl::Status {
    // [api.graph.exec-destroy.null-invalid-value]
    MX_ASSIGN_OR_RETURN(MCgraphExec_st * found,
                        mxcts::runtime::ExecTable::Get().Find(exec));
    // [api.graph.exec-destroy.releases]: enqueued launches hold their
    // snapshot.
    absl::MutexLock lock(&mxcts::runtime::Runtime::Get().execution_mutex());
    mxcts::runtime::ExecTable::Get().Destroy(found);
    return absl::OkStatus();
  });
}

// --- Updates. ---

extern "C" mcError_t mcGraphExecUpdate(mcGraphExec_t exec, mcGraph_t graph,
                                       mcGraphNode_t* errorNode,
                                       mcGraphExecUpdateResult* updateResult) {
  return RunApi([&]() -> absl::Status {
    if (updateResult == nullptr) {
      return mxcts::runtime::Invalid("the result output is null");
    }
    MX_ASSIGN_OR_RETURN(MCgraphExec_st * target,
                        mxcts::runtime::ExecTable::Get().Find(exec));
    MX_ASSIGN_OR_RETURN(MCgraph_st * source, mxcts::runtime::FindGraph(graph));
    absl::MutexLock lock(&mxcts::runtime::Runtime::Get().execution_mutex());
    mxcts::runtime::UpdateOutcome outcome =
        mxcts::runtime::UpdateExec(*target, *source);
    *updateResult = outcome.result;
    if (errorNode != nullptr) {
      *errorNode = const_cast<MCgraphNode_st*>(outcome.node);
    }
    if (outcome.result == mcGraphExecUpdateSuccess) return absl::OkStatus();
    return McStatus(
        mcErrorGraphExecUpdateFailure,
        "the graph cannot update the executable graph: " + outcome.message);
  });
}

extern "C" mcError_t mcGraphExecKernelNodeSetParams(
    mcGraphExec_t exec, mcGraphNode_t node, const mcKernelNodeParams* params) {
  return RunApi([&] {
    return mxcts::runtime::SetExecNodeApi(
        exec, node, [&] { return NodeParams::Kernel(params); });
  });
}

extern "C" mcError_t mcGraphExecMemcpyNodeSetParams(
    mcGraphExec_t exec, mcGraphNode_t node, const mcMemcpy3DParms* params) {
  return RunApi([&] {
    return mxcts::runtime::SetExecNodeApi(
        exec, node, [&] { return NodeParams::Memcpy(params); });
  });
}

extern "C" mcError_t mcGraphExecMemcpyNodeSetParams1D(
    mcGraphExec_t exec, mcGraphNode_t node, void* dst, const void* src,
    size_t count, mcMemcpyKind kind) {
  return RunApi([&] {
    return mxcts::runtime::SetExecNodeApi(exec, node, [&] {
      return NodeParams::Memcpy1D(dst, src, count, kind);
    });
  });
}

extern "C" mcError_t mcGraphExecMemsetNodeSetParams(
    mcGraphExec_t exec, mcGraphNode_t node, const mcMemsetParams* params) {
  return RunApi([&] {
    return mxcts::runtime::SetExecNodeApi(
        exec, node, [&] { return NodeParams::Memset(params); });
  });
}

extern "C" mcError_t mcGraphExecHostNodeSetParams(
    mcGraphExec_t exec, mcGraphNode_t node, const mcHostNodeParams* params) {
  return RunApi([&] {
    return mxcts::runtime::SetExecNodeApi(
        exec, node, [&] { return NodeParams::Host(params); });
  });
}

extern "C" mcError_t mcGraphExecChildGraphNodeSetParams(mcGraphExec_t exec,
                                                        mcGraphNode_t node,
                                                        mcGraph_t childGraph) {
  return RunApi([&] {
    return mxcts::runtime::SetExecNodeApi(
        exec, node, [&] { return ChildGraphParams(childGraph); });
  });
}

extern "C" mcError_t mcGraphExecEventRecordNodeSetEvent(mcGraphExec_t exec,
                                                        mcGraphNode_t node,
                                                        mcEvent_t event) {
  return RunApi([&] {
    return mxcts::runtime::SetExecNodeApi(
        exec, node, [&] { return NodeParams::EventRecord(event); });
  });
}

extern "C" mcError_t mcGraphExecEventWaitNodeSetEvent(mcGraphExec_t exec,
                                                      mcGraphNode_t node,
                                                      mcEvent_t event) {
  return RunApi([&] {
    return mxcts::runtime::SetExecNodeApi(
        exec, node, [&] { return NodeParams::EventWait(event); });
  });
}

extern "C" mcError_t mcGraphNodeSetEnabled(mcGraphExec_t exec,
                                           mcGraphNode_t node,
                                           unsigned int isEnabled) {
  return RunApi([&]() -> absl::Status {
    MX_ASSIGN_OR_RETURN(mxcts::runtime::ExecAndNode target,
                        mxcts::runtime::FindExecAndNode(exec, node));
    absl::MutexLock lock(&mxcts::runtime::Runtime::Get().execution_mutex());
    return mxcts::runtime::SetNodeEnabled(*target.exec, target.node,
                                          isEnabled != 0);
  });
}

extern "C" mcError_t mcGraphNodeGetEnabled(mcGraphExec_t exec,
                                           mcGraphNode_t node,
                                           unsigned int* isEnabled) {
  return RunApi([&]() -> absl::Status {
    if (isEnabled == nullptr) {
      return mxcts::runtime::Invalid("the output is null");
    }
    MX_ASSIGN_OR_RETURN(mxcts::runtime::ExecAndNode target,
                        mxcts::runtime::FindExecAndNode(exec, node));
    absl::MutexLock lock(&mxcts::runtime::Runtime::Get().execution_mutex());
    MX_ASSIGN_OR_RETURN(bool enabled,
                        mxcts::runtime::NodeEnabled(*target.exec, target.node));
    *isEnabled = enabled ? 1 : 0;
    return absl::OkStatus();
  });
}

// --- Debug output. ---

extern "C" mcError_t mcGraphDebugDotPrint(mcGraph_t graph, const char* path,
                                          unsigned int flags) {
  return RunApi([&]() -> absl::Status {
    // [api.graph.debug-dot.null-argument-invalid-value]
    MX_ASSIGN_OR_RETURN(MCgraph_st * found, mxcts::runtime::FindGraph(graph));
    if (path == nullptr) return mxcts::runtime::Invalid("the path is null");
    const std::string dot = mxcts::runtime::GraphToDot(*found, flags);
    std::FILE* file = std::fopen(path, "w");
    if (file == nullptr) {
      // [api.graph.debug-dot.unwritable-path-error]
      return McStatus(mcErrorOperatingSystem,
                      absl::StrFormat("cannot write %s", path));
    }
    const bool written =
        std::fwrite(dot.data(), 1, dot.size(), file) == dot.size();
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed) {
      return McStatus(mcErrorOperatingSystem,
                      absl::StrFormat("writing %s failed", path));
    }
    return absl::OkStatus();  // [api.graph.debug-dot.writes-file]
  });
}
