// Copyright mxcts authors.
//
// The checks of node parameters (node_params.h): each kind checks what the
// stream call that does the same work checks, when the node is added or its
// parameters set.
//
// Tested by graph_test.cc and the conformance tests of api-graph.md.

#include "reference/runtime/graphs/node_params.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/strings/str_format.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/graphs/graph.h"
#include "reference/runtime/images/image_registry.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/timeline/event.h"

namespace mxcts::runtime {
namespace {

absl::Status NullParams(const char* what) {
  return McStatus(mcErrorInvalidValue,
                  absl::StrFormat("the %s node's parameters are null", what));
}

absl::StatusOr<mcEvent_t> CheckEvent(mcEvent_t event) {
  if (event == nullptr) {  // [api.graph.event-node.null-event-invalid-value]
    return McStatus(mcErrorInvalidValue, "the event is null");
  }
  MX_RETURN_IF_ERROR(EventTable::Get().Find(event).status());
  return event;
}

}  // namespace

absl::StatusOr<NodeParams> NodeParams::Kernel(
    const mcKernelNodeParams* params) {
  if (params == nullptr) return NullParams("kernel");
  MX_ASSIGN_OR_RETURN(Device * device,
                      DeviceTable::Get().CurrentDeviceForWork());
  NodeParams node;
  node.type_ = mcGraphNodeTypeKernel;
  void** args = params->kernelParams;
  std::vector<void*> unpacked;
  if (params->extra != nullptr) {
    if (params->kernelParams != nullptr) {
      return McStatus(mcErrorInvalidValue,
                      "kernelParams and extra are both given");
    }
    MX_ASSIGN_OR_RETURN(
        KernelHandle kernel,
        ImageRegistry::Get().ResolveKernel(params->func, device->ordinal()));
    MX_ASSIGN_OR_RETURN(unpacked,
                        UnpackExtraArguments(*kernel.record, params->extra));
    args = unpacked.data();
    node.extra_ = params->extra;
  }
  MX_ASSIGN_OR_RETURN(
      PreparedLaunch launch,
      PreparedLaunch::Prepare(*device, params->func, params->gridDim,
                              params->blockDim, args, params->sharedMemBytes));
  node.launch_ = std::make_shared<const PreparedLaunch>(std::move(launch));
  return node;
}

absl::Status NodeParams::SetCooperative(bool cooperative) {
  if (launch_ == nullptr) {
    return McStatus(mcErrorInvalidValue, "not a kernel node");
  }
  if (cooperative == launch_->cooperative()) return absl::OkStatus();
  if (!cooperative) {
    launch_ = std::make_shared<const PreparedLaunch>(launch_->Ordinary());
    return absl::OkStatus();
  }
  MX_ASSIGN_OR_RETURN(PreparedLaunch launch, launch_->Cooperative());
  launch_ = std::make_shared<const PreparedLaunch>(std::move(launch));
  return absl::OkStatus();
}

absl::Status NodeParams::CopyKernelAttributes(const NodeParams& from) {
  MX_RETURN_IF_ERROR(SetCooperative(from.cooperative()));
  kernel_attributes_ = from.kernel_attributes_;
  return absl::OkStatus();
}

mcKernelNodeParams NodeParams::kernel() const {
  mcKernelNodeParams params{};
  if (launch_ == nullptr) return params;
  params.func = const_cast<void*>(launch_->function());
  params.gridDim = launch_->grid();
  params.blockDim = launch_->block();
  params.sharedMemBytes = static_cast<unsigned>(launch_->shared_bytes());
  // The node's own copies of the arguments.
  params.kernelParams = launch_->arguments();
  params.extra = nullptr;
  return params;
}

absl::StatusOr<CopyPlan> PlanMemcpyNode(const MemcpyNodeParams& params) {
  return PlanCopy3D(params.copy, "memcpy node");
}

absl::StatusOr<NodeParams> NodeParams::Memcpy(const mcMemcpy3DParms* params) {
  if (params == nullptr) return NullParams("memcpy");
  NodeParams node;
  node.type_ = mcGraphNodeTypeMemcpy;
  node.memcpy_.copy = *params;
  MX_ASSIGN_OR_RETURN(CopyPlan plan, PlanMemcpyNode(node.memcpy_));
  node.memcpy_.dst_device = plan.dst.device;
  node.memcpy_.src_device = plan.src.device;
  return node;
}

absl::StatusOr<NodeParams> NodeParams::Memcpy1D(void* dst, const void* src,
                                                size_t count, int kind) {
  NodeParams node;
  node.type_ = mcGraphNodeTypeMemcpy;
  // [api.graph.memcpy-node.bad-kind-invalid-direction]
  // [api.graph.memcpy-node.null-pointer-invalid-value]
  MX_ASSIGN_OR_RETURN(CopyPlan plan,
                      PlanLinearCopy(dst, src, count, kind, "memcpy node"));
  mcMemcpy3DParms& copy = node.memcpy_.copy;
  copy = mcMemcpy3DParms{};
  copy.srcPtr = make_mcPitchedPtr(const_cast<void*>(src), count, count, 1);
  copy.dstPtr = make_mcPitchedPtr(dst, count, count, 1);
  copy.extent = make_mcExtent(count, 1, 1);
  copy.kind = static_cast<mcMemcpyKind>(kind);
  node.memcpy_.one_dimensional = true;
  node.memcpy_.dst_device = plan.dst.device;
  node.memcpy_.src_device = plan.src.device;
  return node;
}

absl::StatusOr<SetPlan> PlanMemsetNode(const MemsetNodeParams& params) {
  const mcMemsetParams& set = params.set;
  const size_t element = set.elementSize;
  if (element != 1 && element != 2 && element != 4) {
    // [api.graph.memset-node.element-size-invalid-value]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("memset node: element size %u is not 1, "
                                    "2 or 4",
                                    element));
  }
  MemoryBox box;
  if (__builtin_mul_overflow(set.width, element, &box.width)) {
    return McStatus(mcErrorInvalidValue, "memset node: the width overflows");
  }
  box.height = set.height;
  if (box.height > 1 && set.pitch < box.width) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("memset node: the pitch %u is less than "
                                    "the %u bytes of a row",
                                    set.pitch, box.width));
  }
  const uint32_t mask = element == 4 ? 0xffffffffu : (1u << (8 * element)) - 1;
  // [api.graph.memset-node.bad-destination-invalid-value]
  return PlanSet(set.dst, box.height > 1 ? set.pitch : box.width, 0, box,
                 set.value & mask, element, "memset node");
}

absl::StatusOr<NodeParams> NodeParams::Memset(const mcMemsetParams* params) {
  if (params == nullptr) return NullParams("memset");
  NodeParams node;
  node.type_ = mcGraphNodeTypeMemset;
  node.memset_.set = *params;
  MX_ASSIGN_OR_RETURN(SetPlan plan, PlanMemsetNode(node.memset_));
  if (plan.box.empty() && params->dst == nullptr) {
    return McStatus(mcErrorInvalidValue,
                    "memset node: the destination is null");
  }
  node.memset_.device = plan.dst.device;
  return node;
}

absl::StatusOr<NodeParams> NodeParams::Host(const mcHostNodeParams* params) {
  if (params == nullptr) return NullParams("host");
  if (params->fn == nullptr) {
    // [api.graph.host-node.null-function-invalid-value]
    return McStatus(mcErrorInvalidValue, "the host node's function is null");
  }
  NodeParams node;
  node.type_ = mcGraphNodeTypeHost;
  node.host_ = *params;
  return node;
}

NodeParams NodeParams::ChildGraph(std::shared_ptr<MCgraph_st> graph) {
  NodeParams node;
  node.type_ = mcGraphNodeTypeGraph;
  graph->owned_by_node = true;
  node.child_ = std::move(graph);
  return node;
}

NodeParams NodeParams::Empty() {
  NodeParams node;
  node.type_ = mcGraphNodeTypeEmpty;
  return node;
}

absl::StatusOr<NodeParams> NodeParams::EventRecord(mcEvent_t event) {
  MX_ASSIGN_OR_RETURN(mcEvent_t checked, CheckEvent(event));
  NodeParams node;
  node.type_ = mcGraphNodeTypeEventRecord;
  node.event_ = checked;
  return node;
}

absl::StatusOr<NodeParams> NodeParams::EventWait(mcEvent_t event) {
  MX_ASSIGN_OR_RETURN(mcEvent_t checked, CheckEvent(event));
  NodeParams node;
  node.type_ = mcGraphNodeTypeWaitEvent;
  node.event_ = checked;
  return node;
}

absl::StatusOr<NodeParams> NodeParams::MemAlloc(mcMemAllocNodeParams* params) {
  if (params == nullptr) return NullParams("memory allocation");
  const mcMemPoolProps& props = params->poolProps;
  if (props.allocType != mcMemAllocationTypePinned ||
      props.location.type != mcMemLocationTypeDevice) {
    return McStatus(mcErrorInvalidValue,
                    "memory allocation node: the pool properties must ask "
                    "for pinned memory of a device");
  }
  // A location that names no device is a property mcMemPoolCreate refuses
  // too: mcErrorInvalidValue, not mcErrorInvalidDevice
  // [api.pool.create.bad-location-id-is-invalid-value]
  // [api.graph.mem-alloc-node.allocates].
  if (!DeviceTable::Get().DeviceAt(props.location.id).ok()) {
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("memory allocation node: location id %d "
                                    "is not a device",
                                    props.location.id));
  }
  if (params->bytesize == 0) {
    return McStatus(mcErrorInvalidValue,
                    "memory allocation node: the size is 0");
  }
  if (params->accessDescCount > 0 && params->accessDescs == nullptr) {
    return McStatus(mcErrorInvalidValue,
                    "memory allocation node: the access descriptors are "
                    "null but their count is not 0");
  }
  auto access = std::make_shared<std::vector<mcMemAccessDesc>>(
      params->accessDescs, params->accessDescs + params->accessDescCount);
  for (const mcMemAccessDesc& desc : *access) {
    if (desc.location.type != mcMemLocationTypeDevice ||
        !DeviceTable::Get().DeviceAt(desc.location.id).ok()) {
      return McStatus(mcErrorInvalidValue,
                      "memory allocation node: an access descriptor names "
                      "no device");
    }
  }
  NodeParams node;
  node.type_ = mcGraphNodeTypeMemAlloc;
  MX_ASSIGN_OR_RETURN(
      node.allocation_,
      GraphAllocation::Create(props.location.id, params->bytesize));
  node.pool_props_ = props;
  node.access_ = std::move(access);
  params->dptr = node.allocation_->address();
  return node;
}

mcMemAllocNodeParams NodeParams::mem_alloc() const {
  mcMemAllocNodeParams params{};
  params.poolProps = pool_props_;
  if (access_ != nullptr && !access_->empty()) {
    params.accessDescs = access_->data();
    params.accessDescCount = access_->size();
  }
  if (allocation_ != nullptr) {
    params.bytesize = allocation_->size();
    params.dptr = allocation_->address();
  }
  return params;
}

absl::StatusOr<NodeParams> NodeParams::MemFree(void* dptr) {
  if (dptr == nullptr) {
    return McStatus(mcErrorInvalidValue, "memory free node: dptr is null");
  }
  const bool graph_allocation = GraphMemory::Get().Find(dptr) != nullptr;
  absl::StatusOr<Allocation> found = MemoryManager::Get().FindStart(
      dptr, {MemoryKind::kDevice}, "memory free node");
  const bool stream_ordered =
      found.ok() && found->origin == DeviceOrigin::kStreamOrdered;
  if (!graph_allocation && !stream_ordered) {
    // [api.graph.mem-free-node.frees]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("memory free node: %p starts no graph "
                                    "or stream-ordered allocation",
                                    dptr));
  }
  NodeParams node;
  node.type_ = mcGraphNodeTypeMemFree;
  node.freed_ = dptr;
  return node;
}

const char* NodeParams::type_name() const {
  switch (type_) {
    case mcGraphNodeTypeKernel:
      return "kernel";
    case mcGraphNodeTypeMemcpy:
      return "memcpy";
    case mcGraphNodeTypeMemset:
      return "memset";
    case mcGraphNodeTypeHost:
      return "host";
    case mcGraphNodeTypeGraph:
      return "child graph";
    case mcGraphNodeTypeEmpty:
      return "empty";
    case mcGraphNodeTypeWaitEvent:
      return "event wait";
    case mcGraphNodeTypeEventRecord:
      return "event record";
    case mcGraphNodeTypeMemAlloc:
      return "memory allocation";
    case mcGraphNodeTypeMemFree:
      return "memory free";
    default:
      return "unknown";
  }
}

}  // namespace mxcts::runtime
