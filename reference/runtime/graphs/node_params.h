// Copyright mxcts authors.
//
// reference/runtime/graphs/node_params.h: what one node of a graph does: its
// kind and its parameters, checked when they are given and turned into
// device work when an executable graph runs.
//
// Parameters are copied when they are given
// [api.graph.node.parameters-copied-at-add]: a kernel node holds its own
// copy of the arguments (a PreparedLaunch), a memcpy node the description
// of its copy, which is planned again (checked against the memory that
// exists then) when the graph is instantiated or updated; pointers are
// read when the node runs, not when it was added.
//
//   absl::StatusOr<NodeParams> p = NodeParams::Memcpy1D(dst, src, n, kind);
//   absl::StatusOr<NodeWork> work = p->Plan();   // at instantiation
//   work->Run();                                 // at each launch

#ifndef MXCTS_REFERENCE_RUNTIME_GRAPHS_NODE_PARAMS_H_
#define MXCTS_REFERENCE_RUNTIME_GRAPHS_NODE_PARAMS_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mc_runtime_api.h"
#include "reference/runtime/graphs/graph_memory.h"
#include "reference/runtime/launch/launcher.h"
#include "reference/runtime/memory/memory_copy.h"

namespace mxcts::runtime {

struct MemcpyNodeParams {
  // The copy as mcMemcpy3D describes it; a one-dimensional node's is the
  // box of `count` bytes made from its pointers.
  mcMemcpy3DParms copy{};
  bool one_dimensional = false;
  // The device that owned each side's memory when the parameters were
  // given (-1: host memory): an update may not change it
  // [api.graph.exec-update.copy-restrictions].
  int dst_device = -1;
  int src_device = -1;
};

struct MemsetNodeParams {
  mcMemsetParams set{};
  int device = -1;  // the device that owned the memory
};

class NodeParams {
 public:
  // An empty node's parameters.
  NodeParams() = default;

  // Each checks the parameters as the matching mcGraphAdd*Node does and
  // returns the node's parameters, or the call's error.
  // [api.graph.kernel-node.null-params-invalid-value]
  // [api.graph.kernel-node.bad-function-invalid-device-function]
  // [api.graph.kernel-node.bad-configuration-invalid-configuration]
  static absl::StatusOr<NodeParams> Kernel(const mcKernelNodeParams* params);
  // Makes a kernel node's launch cooperative (a captured
  // mcLaunchCooperativeKernel, or mcKernelNodeAttributeCooperative):
  // checked for co-residency, run with every block alive; or ordinary
  // again. Errors as CheckCooperativeLaunch; mcErrorInvalidValue for a
  // node of another kind.
  absl::Status SetCooperative(bool cooperative);
  bool cooperative() const {
    return launch_ != nullptr && launch_->cooperative();
  }

  // A kernel node's other attributes (mcGraphKernelNodeSetAttribute): hints
  // that never change what the node does.
  struct KernelAttributes {
    mcAccessPolicyWindow access_policy_window{
        nullptr, 0, 0.0f, mcAccessPropertyNormal, mcAccessPropertyNormal};
    int priority = 0;
  };
  const KernelAttributes& kernel_attributes() const {
    return kernel_attributes_;
  }
  KernelAttributes& mutable_kernel_attributes() { return kernel_attributes_; }
  // Gives this kernel node every attribute of kernel node `from`, as a Set
  // of its parameters keeps them
  // [api.graph.kernel-node-attribute.kept-by-set-params]. Errors as
  // SetCooperative.
  absl::Status CopyKernelAttributes(const NodeParams& from);
  // [api.graph.memcpy-node.bad-kind-invalid-direction]
  // [api.graph.memcpy-node.null-pointer-invalid-value]
  static absl::StatusOr<NodeParams> Memcpy(const mcMemcpy3DParms* params);
  // [api.graph.memcpy-node.one-dimensional-form]
  static absl::StatusOr<NodeParams> Memcpy1D(void* dst, const void* src,
                                             size_t count, int kind);
  // [api.graph.memset-node.element-size-invalid-value]
  // [api.graph.memset-node.bad-destination-invalid-value]
  static absl::StatusOr<NodeParams> Memset(const mcMemsetParams* params);
  // [api.graph.host-node.null-function-invalid-value]
  static absl::StatusOr<NodeParams> Host(const mcHostNodeParams* params);
  // `graph` is the node's own copy (shared by copies of these parameters
  // until CopyGraph copies it).
  static NodeParams ChildGraph(std::shared_ptr<MCgraph_st> graph);
  static NodeParams Empty();
  // [api.graph.event-node.null-event-invalid-value]
  static absl::StatusOr<NodeParams> EventRecord(mcEvent_t event);
  static absl::StatusOr<NodeParams> EventWait(mcEvent_t event);
  // Allocates the node's memory now and stores its address in
  // `params->dptr`. [api.graph.mem-alloc-node.allocates]
  static absl::StatusOr<NodeParams> MemAlloc(mcMemAllocNodeParams* params);
  // A free of `dptr`: the start of a live graph allocation or
  // stream-ordered allocation, else mcErrorInvalidValue
  // [api.graph.mem-free-node.frees]. Checks against the graph are the
  // caller's.
  static absl::StatusOr<NodeParams> MemFree(void* dptr);

  mcGraphNodeType type() const { return type_; }
  // "kernel", "memcpy", ... for messages and the DOT output.
  const char* type_name() const;

  // The parameters as the Get calls report them.
  mcKernelNodeParams kernel() const;
  const PreparedLaunch* launch() const { return launch_.get(); }
  const MemcpyNodeParams& memcpy() const { return memcpy_; }
  const MemsetNodeParams& memset() const { return memset_; }
  const mcHostNodeParams& host() const { return host_; }
  MCgraph_st* child_graph() const { return child_.get(); }
  const std::shared_ptr<MCgraph_st>& shared_child_graph() const {
    return child_;
  }
  mcEvent_t event() const { return event_; }
  // A memory allocation node's parameters (dptr included) and memory.
  mcMemAllocNodeParams mem_alloc() const;
  const std::shared_ptr<GraphAllocation>& allocation() const {
    return allocation_;
  }
  // The address a memory free node frees.
  void* freed() const { return freed_; }

 private:
  mcGraphNodeType type_ = mcGraphNodeTypeEmpty;
  std::shared_ptr<const PreparedLaunch> launch_;
  void** extra_ = nullptr;  // reported back by kernel(); arguments copied
  KernelAttributes kernel_attributes_;
  MemcpyNodeParams memcpy_;
  MemsetNodeParams memset_;
  mcHostNodeParams host_{nullptr, nullptr};
  std::shared_ptr<MCgraph_st> child_;
  mcEvent_t event_ = nullptr;
  std::shared_ptr<GraphAllocation> allocation_;
  mcMemPoolProps pool_props_{};
  std::shared_ptr<const std::vector<mcMemAccessDesc>> access_;
  void* freed_ = nullptr;
};

// The plan of a memcpy node's copy, checked against the memory that exists
// now. Errors as mcMemcpy3D's checks.
absl::StatusOr<CopyPlan> PlanMemcpyNode(const MemcpyNodeParams& params);
// The plan of a memset node's set. Errors as mcMemset2D's checks.
absl::StatusOr<SetPlan> PlanMemsetNode(const MemsetNodeParams& params);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_GRAPHS_NODE_PARAMS_H_
