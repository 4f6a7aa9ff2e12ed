// Copyright mxcts authors.
//
// mcr/detail/runtime_api_graph.h: the part of mc_runtime_api.h that declares
// graphs: building them node by node or by capturing stream work,
// instantiating them into executable graphs, launching, updating and
// enabling nodes, and the DOT debug output. Include mc_runtime_api.h (or
// mc_runtime.h), not this header: it relies on the definitions made there.
//
// A graph is a description: adding a node runs nothing. An executable graph
// is a snapshot of a graph taken by mcGraphInstantiate; launching it into a
// stream is one piece of that stream's work, during which every node runs
// once, each after the nodes it depends on.
//
//   mcGraph_t graph;
//   mcGraphCreate(&graph, 0);
//   mcGraphNode_t copy, kernel;
//   mcGraphAddMemcpyNode1D(&copy, graph, NULL, 0, d_in, h_in, n,
//                          mcMemcpyHostToDevice);
//   mcKernelNodeParams k = {(void*)Scale, dim3(n / 256), dim3(256), 0, args,
//                           NULL};
//   mcGraphAddKernelNode(&kernel, graph, &copy, 1, &k);
//   mcGraphExec_t exec;
//   mcGraphInstantiate(&exec, graph, NULL, NULL, 0);
//   for (int i = 0; i < 1000; ++i) mcGraphLaunch(exec, stream);
//   mcStreamSynchronize(stream);
//
// Graph objects are not thread safe: calls that use one graph or executable
// graph from several threads, one of them changing it, must be serialized
// by the program [api.graph.thread-safety.not-thread-safe].

#ifndef MCR_DETAIL_RUNTIME_API_GRAPH_H_
#define MCR_DETAIL_RUNTIME_API_GRAPH_H_

#ifdef __cplusplus
extern "C" {
#endif

// --------------------------------------------------------------------------
// Graphs [api.graph.create] [api.graph.destroy] [api.graph.clone]
// --------------------------------------------------------------------------

// Creates an empty graph. Errors: mcErrorInvalidValue if `graph` is null or
// `flags` is not 0. [api.graph.create.returns-empty-graph]
mcError_t mcGraphCreate(mcGraph_t* graph, unsigned int flags);

// Destroys `graph` and its nodes; executable graphs instantiated from it
// stay valid. Errors: mcErrorInvalidValue if `graph` is null or not a live
// graph. [api.graph.destroy.releases-graph-and-nodes]
mcError_t mcGraphDestroy(mcGraph_t graph);

// Stores in `*clone` a new graph with copies of `original`'s nodes, edges
// and parameters. Errors: mcErrorInvalidValue if an argument is null or
// `original` is not a live graph. [api.graph.clone.independent-copy]
mcError_t mcGraphClone(mcGraph_t* clone, mcGraph_t original);

// Stores in `*clonedNode` the node of `clonedGraph` (made by mcGraphClone
// from the graph of `originalNode`) that copies `originalNode`. Errors:
// mcErrorInvalidValue if an argument is null or `clonedGraph` is not a
// clone of that graph.
mcError_t mcGraphNodeFindInClone(mcGraphNode_t* clonedNode,
                                 mcGraphNode_t originalNode,
                                 mcGraph_t clonedGraph);

// --------------------------------------------------------------------------
// Adding nodes [api.graph.node]
//
// Every mcGraphAdd*Node stores the new node in `*node` and makes it depend
// on the `numDependencies` nodes of `dependencies` (one edge from each).
// Common errors: mcErrorInvalidValue if `node` or `graph` is null, `graph`
// is not a live graph, `dependencies` is null with a nonzero count, a
// dependency is not a node of `graph`, or a dependency is listed twice
// [api.graph.node.dependency-from-other-graph-invalid-value]
// [api.graph.node.duplicate-dependency-invalid-value]. Parameters are
// copied when the node is added [api.graph.node.parameters-copied-at-add];
// a failing call adds nothing.
// --------------------------------------------------------------------------

// A kernel node. Errors: mcErrorInvalidValue if `params` is null or the
// kernel's arguments are missing; mcErrorInvalidDeviceFunction if `func` is
// not a kernel with code for the current device; mcErrorInvalidConfiguration
// if the configuration does not fit the current device, which runs the node.
// [api.graph.kernel-node.runs-kernel]
mcError_t mcGraphAddKernelNode(mcGraphNode_t* node, mcGraph_t graph,
                               const mcGraphNode_t* dependencies,
                               size_t numDependencies,
                               const mcKernelNodeParams* params);

// A copy node described as mcMemcpy3D describes a copy. Errors: those of
// mcMemcpy3D's checks (mcErrorInvalidValue, mcErrorInvalidMemcpyDirection).
// [api.graph.memcpy-node.copies]
mcError_t mcGraphAddMemcpyNode(mcGraphNode_t* node, mcGraph_t graph,
                               const mcGraphNode_t* dependencies,
                               size_t numDependencies,
                               const mcMemcpy3DParms* params);

// A copy node of `count` contiguous bytes, as mcMemcpyAsync copies.
// Errors: those of mcMemcpy's checks.
// [api.graph.memcpy-node.one-dimensional-form]
mcError_t mcGraphAddMemcpyNode1D(mcGraphNode_t* node, mcGraph_t graph,
                                 const mcGraphNode_t* dependencies,
                                 size_t numDependencies, void* dst,
                                 const void* src, size_t count,
                                 mcMemcpyKind kind);

// A copy node to the device variable `symbol` at `offset`, as
// mcMemcpyToSymbol copies. Errors: mcErrorInvalidSymbol for an unknown
// symbol; those of mcMemcpyToSymbol.
mcError_t mcGraphAddMemcpyNodeToSymbol(mcGraphNode_t* node, mcGraph_t graph,
                                       const mcGraphNode_t* dependencies,
                                       size_t numDependencies,
                                       const void* symbol, const void* src,
                                       size_t count, size_t offset,
                                       mcMemcpyKind kind);

// A copy node from the device variable `symbol` at `offset`, as
// mcMemcpyFromSymbol copies. Errors: as mcGraphAddMemcpyNodeToSymbol.
mcError_t mcGraphAddMemcpyNodeFromSymbol(mcGraphNode_t* node, mcGraph_t graph,
                                         const mcGraphNode_t* dependencies,
                                         size_t numDependencies, void* dst,
                                         const void* symbol, size_t count,
                                         size_t offset, mcMemcpyKind kind);

// A set node. Errors: mcErrorInvalidValue if `params` is null, its element
// size is not 1, 2 or 4, or its rows do not lie in device, managed or
// page-locked memory. [api.graph.memset-node.sets]
mcError_t mcGraphAddMemsetNode(mcGraphNode_t* node, mcGraph_t graph,
                               const mcGraphNode_t* dependencies,
                               size_t numDependencies,
                               const mcMemsetParams* params);

// A host function node. Errors: mcErrorInvalidValue if `params` or its
// function is null. The function must not call the runtime
// [api.graph.host-node.runtime-calls-forbidden].
// [api.graph.host-node.calls-function]
mcError_t mcGraphAddHostNode(mcGraphNode_t* node, mcGraph_t graph,
                             const mcGraphNode_t* dependencies,
                             size_t numDependencies,
                             const mcHostNodeParams* params);

// A node that runs a copy of `childGraph` (copied now). Errors:
// mcErrorInvalidValue if `childGraph` is null or not a live graph, or holds
// memory allocation or free nodes. [api.graph.child-graph-node.embeds-copy]
mcError_t mcGraphAddChildGraphNode(mcGraphNode_t* node, mcGraph_t graph,
                                   const mcGraphNode_t* dependencies,
                                   size_t numDependencies,
                                   mcGraph_t childGraph);

// A node that does nothing: a point to join and fork dependencies.
// [api.graph.empty-node.no-operation]
mcError_t mcGraphAddEmptyNode(mcGraphNode_t* node, mcGraph_t graph,
                              const mcGraphNode_t* dependencies,
                              size_t numDependencies);

// A node that records `event` when its dependencies are done. Errors:
// mcErrorInvalidValue if `event` is null; mcErrorInvalidResourceHandle if it
// is not a live event. [api.graph.event-record-node.records]
mcError_t mcGraphAddEventRecordNode(mcGraphNode_t* node, mcGraph_t graph,
                                    const mcGraphNode_t* dependencies,
                                    size_t numDependencies, mcEvent_t event);

// A node that waits for the last record of `event` made before the graph's
// launch. Errors: as mcGraphAddEventRecordNode.
// [api.graph.event-wait-node.waits]
mcError_t mcGraphAddEventWaitNode(mcGraphNode_t* node, mcGraph_t graph,
                                  const mcGraphNode_t* dependencies,
                                  size_t numDependencies, mcEvent_t event);

// A node that allocates `params->bytesize` bytes of device memory on the
// device `params->poolProps.location` names when it runs; the address is
// stored in `params->dptr` now and stays the same for every launch. The
// memory is usable by nodes that depend on this one, until a free node, or
// after the launch until mcFree/mcFreeAsync frees it. Errors:
// mcErrorInvalidValue for null `params`, a zero size, or pool properties
// mcMemPoolCreate would refuse; mcErrorMemoryAllocation if the device has
// no room. [api.graph.mem-alloc-node.allocates]
mcError_t mcGraphAddMemAllocNode(mcGraphNode_t* node, mcGraph_t graph,
                                 const mcGraphNode_t* dependencies,
                                 size_t numDependencies,
                                 mcMemAllocNodeParams* params);

// A node that frees `dptr`: the address of a memory allocation node of this
// graph that this node depends on (directly or not), of a graph allocation
// another graph leaves allocated, or of a stream-ordered allocation
// (mcMallocAsync). Errors: mcErrorInvalidValue for another address, or an
// address this graph frees already. [api.graph.mem-free-node.frees]
mcError_t mcGraphAddMemFreeNode(mcGraphNode_t* node, mcGraph_t graph,
                                const mcGraphNode_t* dependencies,
                                size_t numDependencies, void* dptr);

// --------------------------------------------------------------------------
// Node parameters [api.graph.node-params]
//
// A Get stores the node's parameters; a Set replaces them in the graph (not
// in executable graphs already instantiated from it). Errors:
// mcErrorInvalidValue if an argument is null, `node` is not a live node, or
// `node` is of another kind
// [api.graph.node-params.wrong-node-type-invalid-value]; a Set also fails as
// the matching Add would for bad parameters, leaving the node unchanged.
// --------------------------------------------------------------------------

mcError_t mcGraphKernelNodeGetParams(mcGraphNode_t node,
                                     mcKernelNodeParams* params);
mcError_t mcGraphKernelNodeSetParams(mcGraphNode_t node,
                                     const mcKernelNodeParams* params);
mcError_t mcGraphMemcpyNodeGetParams(mcGraphNode_t node,
                                     mcMemcpy3DParms* params);
mcError_t mcGraphMemcpyNodeSetParams(mcGraphNode_t node,
                                     const mcMemcpy3DParms* params);
mcError_t mcGraphMemcpyNodeSetParams1D(mcGraphNode_t node, void* dst,
                                       const void* src, size_t count,
                                       mcMemcpyKind kind);
mcError_t mcGraphMemsetNodeGetParams(mcGraphNode_t node,
                                     mcMemsetParams* params);
mcError_t mcGraphMemsetNodeSetParams(mcGraphNode_t node,
                                     const mcMemsetParams* params);

// --------------------------------------------------------------------------
// Kernel node attributes
// [api.graph.kernel-node-attribute.set-then-get-round-trips]
//
// A kernel node's attributes outlive its parameters: mcGraphKernelNodeSetParams
// keeps them, and clones and executable graphs copy them. The attributes are
// mcKernelNodeAttributeCooperative (`cooperative` nonzero: the node's grid
// runs as mcLaunchCooperativeKernel runs it, checked to fit the device at
// once), mcKernelNodeAttributePriority (a hint, clamped to the device's
// stream priority range) and mcKernelNodeAttributeAccessPolicyWindow (a
// cache hint checked as the stream attribute is). Errors:
// mcErrorInvalidValue if `value` is null, `node` is no live kernel node or
// `attr` is none of those (or the access policy window is invalid);
// mcErrorCooperativeLaunchTooLarge when cooperative is set on a node whose
// grid cannot be resident at once, leaving the node unchanged.
//
//   mcKernelNodeAttrValue v = {};
//   v.cooperative = 1;
//   mcGraphKernelNodeSetAttribute(node, mcKernelNodeAttributeCooperative, &v);
// --------------------------------------------------------------------------

mcError_t mcGraphKernelNodeSetAttribute(mcGraphNode_t node,
                                        mcKernelNodeAttrID attr,
                                        const mcKernelNodeAttrValue* value);
mcError_t mcGraphKernelNodeGetAttribute(mcGraphNode_t node,
                                        mcKernelNodeAttrID attr,
                                        mcKernelNodeAttrValue* value);
// Gives `dst` every attribute of `src`; both must be kernel nodes. Errors as
// above (cooperative checked against `dst`'s grid).
mcError_t mcGraphKernelNodeCopyAttributes(mcGraphNode_t dst, mcGraphNode_t src);
mcError_t mcGraphHostNodeGetParams(mcGraphNode_t node,
                                   mcHostNodeParams* params);
mcError_t mcGraphHostNodeSetParams(mcGraphNode_t node,
                                   const mcHostNodeParams* params);
// Stores the graph a child graph node runs (owned by the node: it must not
// be destroyed). [api.graph.child-graph-node.embeds-copy]
mcError_t mcGraphChildGraphNodeGetGraph(mcGraphNode_t node, mcGraph_t* graph);
mcError_t mcGraphEventRecordNodeGetEvent(mcGraphNode_t node, mcEvent_t* event);
mcError_t mcGraphEventRecordNodeSetEvent(mcGraphNode_t node, mcEvent_t event);
mcError_t mcGraphEventWaitNodeGetEvent(mcGraphNode_t node, mcEvent_t* event);
mcError_t mcGraphEventWaitNodeSetEvent(mcGraphNode_t node, mcEvent_t event);
mcError_t mcGraphMemAllocNodeGetParams(mcGraphNode_t node,
                                       mcMemAllocNodeParams* params);
// Stores the address a memory free node frees in `*(void**)dptr`.
mcError_t mcGraphMemFreeNodeGetParams(mcGraphNode_t node, void* dptr);

// --------------------------------------------------------------------------
// Edges and queries [api.graph.add-dependencies] [api.graph.get-nodes]
//
// Node arrays are filled in the order nodes were added (the reference's
// choice; programs should not rely on the order); a query given a
// null array stores only the count, and given an array stores at most
// `*count` entries (null for the rest when there are fewer) and the count
// of entries written.
// --------------------------------------------------------------------------

// Adds the edges from[i] -> to[i] for i < numDependencies. Errors:
// mcErrorInvalidValue for null arrays with a nonzero count, a node of
// another graph, an edge that exists, a node made to depend on itself, or
// an edge that closes a cycle; a failing call adds no edge.
// [api.graph.add-dependencies.adds-edges]
mcError_t mcGraphAddDependencies(mcGraph_t graph, const mcGraphNode_t* from,
                                 const mcGraphNode_t* to,
                                 size_t numDependencies);

// Removes the edges from[i] -> to[i]. Errors: mcErrorInvalidValue if one
// does not exist (none is removed then).
// [api.graph.remove-dependencies.removes-edges]
mcError_t mcGraphRemoveDependencies(mcGraph_t graph, const mcGraphNode_t* from,
                                    const mcGraphNode_t* to,
                                    size_t numDependencies);

// The nodes of `graph`. [api.graph.get-nodes.count-and-fill]
mcError_t mcGraphGetNodes(mcGraph_t graph, mcGraphNode_t* nodes,
                          size_t* numNodes);
// The nodes of `graph` that depend on no node.
// [api.graph.get-root-nodes.roots-only]
mcError_t mcGraphGetRootNodes(mcGraph_t graph, mcGraphNode_t* rootNodes,
                              size_t* numRootNodes);
// The edges of `graph` as from[i] -> to[i]; `from` and `to` are both null
// or both not. [api.graph.get-edges.count-and-fill]
mcError_t mcGraphGetEdges(mcGraph_t graph, mcGraphNode_t* from,
                          mcGraphNode_t* to, size_t* numEdges);
// The kind of `node`. [api.graph.node-get-type.reports-kind]
mcError_t mcGraphNodeGetType(mcGraphNode_t node, mcGraphNodeType* type);
// The nodes `node` depends on.
// [api.graph.node-get-dependencies.lists-predecessors]
mcError_t mcGraphNodeGetDependencies(mcGraphNode_t node,
                                     mcGraphNode_t* dependencies,
                                     size_t* numDependencies);
// The nodes that depend on `node`.
mcError_t mcGraphNodeGetDependentNodes(mcGraphNode_t node,
                                       mcGraphNode_t* dependentNodes,
                                       size_t* numDependentNodes);
// Removes `node` and its edges from its graph.
// [api.graph.destroy-node.removes-node-and-edges]
mcError_t mcGraphDestroyNode(mcGraphNode_t node);

// --------------------------------------------------------------------------
// Executable graphs [api.graph.instantiate] [api.graph.launch]
// --------------------------------------------------------------------------

// Instantiates `graph` into `*exec`. On failure, stores the offending node
// in `*errorNode` (if not null) and a message of at most `bufferSize` bytes,
// NUL included, in `logBuffer` (if not null). Errors: mcErrorInvalidValue
// for null `exec` or `graph`, or a graph with a cycle; the error of a node
// whose parameters no longer hold (freed memory, for example).
// [api.graph.instantiate.creates-exec]
// [api.graph.instantiate.cycle-invalid-value]
mcError_t mcGraphInstantiate(mcGraphExec_t* exec, mcGraph_t graph,
                             mcGraphNode_t* errorNode, char* logBuffer,
                             size_t bufferSize);

// Instantiates with `flags` (mcGraphInstantiateFlags):
// AutoFreeOnLaunch frees the graph's unfreed allocations when it is
// launched again; Upload is accepted and uploads nothing (the reference has
// nothing to upload); UseNodePriority is accepted. Errors: those of
// mcGraphInstantiate; mcErrorInvalidValue for other bits, or
// DeviceLaunch (graphs cannot be launched from the device).
// [api.graph.instantiate.with-flags]
mcError_t mcGraphInstantiateWithFlags(mcGraphExec_t* exec, mcGraph_t graph,
                                      unsigned long long flags);

// Makes `exec` ready to launch in `stream`, ordered in it; the reference has
// nothing to prepare, so this is an empty piece of stream work. Errors:
// mcErrorInvalidValue for a null or dead `exec`; those of the stream.
mcError_t mcGraphUpload(mcGraphExec_t exec, mcStream_t stream);

// Launches `exec` into `stream` as one piece of its work: every enabled
// node runs once, after the nodes it depends on; launches of one `exec`
// run one after the other, whatever their streams. Errors:
// mcErrorInvalidValue for a null or dead `exec`;
// mcErrorInvalidResourceHandle for a bad stream.
// [api.graph.launch.runs-all-nodes-respecting-edges]
// [api.graph.launch.same-exec-launches-serialize]
mcError_t mcGraphLaunch(mcGraphExec_t exec, mcStream_t stream);

// Destroys `exec`; launches already enqueued still run.
// [api.graph.exec-destroy.releases]
mcError_t mcGraphExecDestroy(mcGraphExec_t exec);

// --------------------------------------------------------------------------
// Updating executable graphs [api.graph.exec-update] [api.graph.exec-node-set]
// --------------------------------------------------------------------------

// Copies the parameters of `graph`'s nodes into `exec` when `graph` has the
// topology of the graph `exec` was instantiated from (same nodes of the same
// kinds in the same order, same edges) and every change is allowed. On
// failure returns mcErrorGraphExecUpdateFailure, stores the reason in
// `*updateResult` and the node concerned in `*errorNode` (null when none),
// and leaves `exec` as it was. [api.graph.exec-update.same-topology-succeeds]
mcError_t mcGraphExecUpdate(mcGraphExec_t exec, mcGraph_t graph,
                            mcGraphNode_t* errorNode,
                            mcGraphExecUpdateResult* updateResult);

// Replace the parameters of `node` (a node of the graph `exec` was
// instantiated from) in `exec` only, for launches made after the call.
// Errors: mcErrorInvalidValue if `node` is not in `exec` or of another kind;
// the errors of the matching Add for bad parameters; a change the update
// rules refuse (another device, kind or shape of copy, a kernel that
// starts using dynamic parallelism) returns mcErrorInvalidValue, or
// mcErrorGraphExecUpdateFailure for a child graph of another topology.
// [api.graph.exec-node-set.updates-one-node]
mcError_t mcGraphExecKernelNodeSetParams(mcGraphExec_t exec, mcGraphNode_t node,
                                         const mcKernelNodeParams* params);
mcError_t mcGraphExecMemcpyNodeSetParams(mcGraphExec_t exec, mcGraphNode_t node,
                                         const mcMemcpy3DParms* params);
mcError_t mcGraphExecMemcpyNodeSetParams1D(mcGraphExec_t exec,
                                           mcGraphNode_t node, void* dst,
                                           const void* src, size_t count,
                                           mcMemcpyKind kind);
mcError_t mcGraphExecMemsetNodeSetParams(mcGraphExec_t exec, mcGraphNode_t node,
                                         const mcMemsetParams* params);
mcError_t mcGraphExecHostNodeSetParams(mcGraphExec_t exec, mcGraphNode_t node,
                                       const mcHostNodeParams* params);
mcError_t mcGraphExecChildGraphNodeSetParams(mcGraphExec_t exec,
                                             mcGraphNode_t node,
                                             mcGraph_t childGraph);
mcError_t mcGraphExecEventRecordNodeSetEvent(mcGraphExec_t exec,
                                             mcGraphNode_t node,
                                             mcEvent_t event);
mcError_t mcGraphExecEventWaitNodeSetEvent(mcGraphExec_t exec,
                                           mcGraphNode_t node, mcEvent_t event);

// Enables (`isEnabled` nonzero) or disables a kernel, memcpy or memset node
// in `exec`: a disabled node runs as an empty node; its parameters stay and
// updates still apply. Errors: mcErrorInvalidValue for another kind of node
// or a node not in `exec`. [api.graph.enable.disabled-node-acts-as-empty]
mcError_t mcGraphNodeSetEnabled(mcGraphExec_t exec, mcGraphNode_t node,
                                unsigned int isEnabled);
// Stores 1 if `node` is enabled in `exec`, else 0.
// [api.graph.enable.get-enabled]
mcError_t mcGraphNodeGetEnabled(mcGraphExec_t exec, mcGraphNode_t node,
                                unsigned int* isEnabled);

// --------------------------------------------------------------------------
// Debug output [api.graph.debug-dot]
// --------------------------------------------------------------------------

// Writes `graph` to the file `path` in the DOT language: one DOT node per
// node (its kind, and the parameters `flags` asks for) and one DOT edge per
// dependency. Errors: mcErrorInvalidValue for a null or dead graph or a
// null path; mcErrorOperatingSystem if the file cannot be written.
// [api.graph.debug-dot.writes-file]
mcError_t mcGraphDebugDotPrint(mcGraph_t graph, const char* path,
                               unsigned int flags);

// --------------------------------------------------------------------------
// Stream capture [api.graph.capture]
//
// Between mcStreamBeginCapture and mcStreamEndCapture, work enqueued into
// the stream (and into streams it forks to through events) is recorded as
// the nodes of a graph instead of running.
// --------------------------------------------------------------------------

// Starts capturing `stream` in `mode`. Errors: mcErrorInvalidValue for
// another mode; mcErrorStreamCaptureUnsupported for the legacy default
// stream; mcErrorIllegalState if `stream` is capturing.
// [api.graph.capture.records-instead-of-executing]
mcError_t mcStreamBeginCapture(mcStream_t stream, mcStreamCaptureMode mode);

// Ends the capture `stream` began and stores its graph in `*graph`. Errors:
// mcErrorInvalidValue for null `graph`; mcErrorIllegalState if `stream` is
// not capturing; mcErrorStreamCaptureWrongThread from another thread
// (global and thread-local modes); mcErrorStreamCaptureUnmatched if
// `stream` joined the capture without beginning it (the capture is then
// invalidated: its origin's end reports it); mcErrorStreamCaptureUnjoined
// if a forked stream was not joined back, or
// mcErrorStreamCaptureInvalidated if the capture was invalidated, both of
// which end the capture. `*graph` is null after any error.
mcError_t mcStreamEndCapture(mcStream_t stream, mcGraph_t* graph);

// Stores whether `stream` is capturing. Errors: mcErrorInvalidValue for a
// null `status`; mcErrorStreamCaptureImplicit for the legacy default stream
// while a blocking stream of its device captures.
// [api.graph.capture.is-capturing-status]
mcError_t mcStreamIsCapturing(mcStream_t stream, mcStreamCaptureStatus* status);

// Stores the capture status of `stream` and, while it captures, the
// capture's identifier (unique in the process) in `*id` if `id` is not null.
// Errors: as mcStreamIsCapturing. [api.graph.capture.get-info]
mcError_t mcStreamGetCaptureInfo(mcStream_t stream,
                                 mcStreamCaptureStatus* status,
                                 unsigned long long* id);

// As mcStreamGetCaptureInfo, also storing (when the pointers are not null
// and the stream captures) the graph being built and the nodes the next
// captured work in `stream` will depend on (an array owned by the runtime,
// valid until the next work or capture call on the stream).
mcError_t mcStreamGetCaptureInfo_v2(mcStream_t stream,
                                    mcStreamCaptureStatus* status,
                                    unsigned long long* id, mcGraph_t* graph,
                                    const mcGraphNode_t** dependencies,
                                    size_t* numDependencies);

// Adds `nodes` to (mcStreamAddCaptureDependencies) or replaces with them
// (mcStreamSetCaptureDependencies) the nodes the next captured work in
// `stream` depends on. Errors: mcErrorIllegalState if `stream` is not
// capturing; mcErrorInvalidValue for other flags, null `nodes` with a
// nonzero count, or a node not in the capture's graph.
// [api.graph.capture.update-dependencies]
mcError_t mcStreamUpdateCaptureDependencies(mcStream_t stream,
                                            mcGraphNode_t* nodes,
                                            size_t numDependencies,
                                            unsigned int flags);

// Sets the calling thread's capture interaction mode to `*mode` and stores
// the previous one in `*mode`. Errors: mcErrorInvalidValue for a null
// `mode` or another value. [api.graph.capture.exchange-mode]
mcError_t mcThreadExchangeStreamCaptureMode(mcStreamCaptureMode* mode);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCR_DETAIL_RUNTIME_API_GRAPH_H_
