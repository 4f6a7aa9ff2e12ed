// Copyright mxcts authors.
//
// Conformance: the per-node setters of executable graphs
// (mcGraphExec*NodeSetParams, mcGraphExecEvent*NodeSetEvent;
// docs/spec/api-graph.md, "Updating executable graphs"). Each setter
// changes its node in the executable graph only, for launches made after
// the call: a launch enqueued before it keeps the old parameters, and the
// graph keeps its own (as a fresh instantiation shows). Each setter refuses
// every node of another kind, nodes not in the executable graph, bad
// parameters and changes the update rules forbid, leaving the executable
// graph as it was.
//
// The target also runs as _deferred and _shuffle (TIMELINE_VARIANTS), where
// a launch enqueued before a setter runs after it.

#include <mc_runtime.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "conformance/api/graph/exec/exec_testing.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Adds `amount` to *cell.
__global__ void AddTo(int* cell, int amount) { atomicAdd(cell, amount); }

struct HostAdd {
  int* cell;
  int amount;
};
void RunHostAdd(void* data) {
  const HostAdd* add = static_cast<const HostAdd*>(data);
  *add->cell += add->amount;
}

// The setters.
enum class Setter {
  kKernel,
  kMemcpy1D,
  kMemcpy3D,
  kMemset,
  kHost,
  kChildGraph,
  kEventRecord,
  kEventWait,
};
constexpr Setter kAllSetters[] = {Setter::kKernel,      Setter::kMemcpy1D,
                                  Setter::kMemcpy3D,    Setter::kMemset,
                                  Setter::kHost,        Setter::kChildGraph,
                                  Setter::kEventRecord, Setter::kEventWait};

const char* SetterName(Setter setter) {
  switch (setter) {
    case Setter::kKernel:
      return "Kernel";
    case Setter::kMemcpy1D:
      return "Memcpy1D";
    case Setter::kMemcpy3D:
      return "Memcpy3D";
    case Setter::kMemset:
      return "Memset";
    case Setter::kHost:
      return "Host";
    case Setter::kChildGraph:
      return "ChildGraph";
    case Setter::kEventRecord:
      return "EventRecord";
    case Setter::kEventWait:
      return "EventWait";
  }
  return "Unknown";
}

// The kind of node a setter takes.
mcGraphNodeType KindOf(Setter setter) {
  switch (setter) {
    case Setter::kKernel:
      return mcGraphNodeTypeKernel;
    case Setter::kMemcpy1D:
    case Setter::kMemcpy3D:
      return mcGraphNodeTypeMemcpy;
    case Setter::kMemset:
      return mcGraphNodeTypeMemset;
    case Setter::kHost:
      return mcGraphNodeTypeHost;
    case Setter::kChildGraph:
      return mcGraphNodeTypeGraph;
    case Setter::kEventRecord:
      return mcGraphNodeTypeEventRecord;
    case Setter::kEventWait:
      return mcGraphNodeTypeWaitEvent;
  }
  return mcGraphNodeTypeCount;
}

// The cells the graph's nodes write.
enum Cell { kKernelCell, kCopyCell, kSetCell, kHostCell, kChildCell, kCells };

// A graph with one node of each kind, in a chain: a kernel adds 1 to the
// kernel cell; a copy copies 11 to the copy cell; a set writes 3 to a
// device int, which a second copy copies to the set cell; a host node adds
// 1 to the host cell; a child graph's kernel adds 1 to the child cell; an
// empty node; a wait for an event never recorded; a record of an event.
// The executable graph instantiated from it; a non-blocking stream; and
// the new parameters each setter gives.
class NodeSetTest : public testing::Test {
 protected:
  virtual int device() const = 0;

  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device() + 1);
    on_ = std::make_unique<ScopedDevice>(device());
    ASSERT_TRUE(on_->ok());
    ASSERT_EQ(mcStreamCreateWithFlags(&stream_, mcStreamNonBlocking),
              mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cells_, (kCells + 2) * sizeof(int)), mcSuccess);
    for (int i = 0; i < kCells; ++i) cells_[i] = 0;
    old_source_ = cells_ + kCells;
    new_source_ = cells_ + kCells + 1;
    *old_source_ = 11;
    *new_source_ = 22;
    ASSERT_EQ(mcMalloc(&device_int_, sizeof(int)), mcSuccess);
    for (mcEvent_t* e :
         {&base_, &old_record_, &new_record_, &old_wait_, &new_wait_}) {
      ASSERT_EQ(mcEventCreate(e), mcSuccess);
    }
    ASSERT_EQ(mcEventRecord(base_, stream_), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
    old_host_ = HostAdd{cells_ + kHostCell, 1};
    new_host_ = HostAdd{cells_ + kHostCell, 50};

    ASSERT_EQ(graph_.status(), mcSuccess);
    mcGraph_t g = graph_.get();
    KernelCall add(AddTo, dim3(1), dim3(1), cells_ + kKernelCell, 1);
    ASSERT_EQ(add.Add(&kernel_, g, {}), mcSuccess);
    ASSERT_EQ(AddCopy(&copy_, g, {kernel_}, cells_ + kCopyCell, old_source_,
                      sizeof(int), mcMemcpyDefault),
              mcSuccess);
    ASSERT_EQ(AddMemset(&set_, g, {copy_}, Memset32(device_int_, 3, 1)),
              mcSuccess);
    ASSERT_EQ(AddCopy(&set_copy_, g, {set_}, cells_ + kSetCell, device_int_,
                      sizeof(int), mcMemcpyDefault),
              mcSuccess);
    ASSERT_EQ(AddHost(&host_, g, {set_copy_}, {RunHostAdd, &old_host_}),
              mcSuccess);
    ASSERT_EQ(MakeChild(1, old_child_.get()), mcSuccess);
    ASSERT_EQ(MakeChild(100, new_child_.get()), mcSuccess);
    ASSERT_EQ(AddChild(&child_, g, {host_}, old_child_.get()), mcSuccess);
    ASSERT_EQ(AddEmpty(&empty_, g, {child_}), mcSuccess);
    ASSERT_EQ(AddWait(&wait_, g, {empty_}, old_wait_), mcSuccess);
    ASSERT_EQ(AddRecord(&record_, g, {wait_}, old_record_), mcSuccess);
    ASSERT_EQ(mcGraphInstantiate(exec_.out(), g, nullptr, nullptr, 0),
              mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    for (mcEvent_t e :
         {base_, old_record_, new_record_, old_wait_, new_wait_}) {
      if (e != nullptr) mcEventDestroy(e);
    }
    if (device_int_ != nullptr) mcFree(device_int_);
    if (cells_ != nullptr) mcFree(cells_);
    if (stream_ != nullptr) mcStreamDestroy(stream_);
  }

  // A child graph whose one kernel adds `amount` to the child cell.
  mcError_t MakeChild(int amount, mcGraph_t child) {
    KernelCall add(AddTo, dim3(1), dim3(1), cells_ + kChildCell, amount);
    mcGraphNode_t node;
    return add.Add(&node, child, {});
  }

  mcGraphNode_t NodeOf(mcGraphNodeType type) const {
    switch (type) {
      case mcGraphNodeTypeKernel:
        return kernel_;
      case mcGraphNodeTypeMemcpy:
        return copy_;
      case mcGraphNodeTypeMemset:
        return set_;
      case mcGraphNodeTypeHost:
        return host_;
      case mcGraphNodeTypeGraph:
        return child_;
      case mcGraphNodeTypeEmpty:
        return empty_;
      case mcGraphNodeTypeWaitEvent:
        return wait_;
      case mcGraphNodeTypeEventRecord:
        return record_;
      default:
        return nullptr;
    }
  }

  // Calls `setter` on `node` of `exec` with the setter's new parameters.
  mcError_t Apply(Setter setter, mcGraphExec_t exec, mcGraphNode_t node) {
    switch (setter) {
      case Setter::kKernel: {
        KernelCall add(AddTo, dim3(1), dim3(1), cells_ + kKernelCell, 100);
        return mcGraphExecKernelNodeSetParams(exec, node, add.params());
      }
      case Setter::kMemcpy1D:
        return mcGraphExecMemcpyNodeSetParams1D(exec, node, cells_ + kCopyCell,
                                                new_source_, sizeof(int),
                                                mcMemcpyDefault);
      case Setter::kMemcpy3D: {
        mcMemcpy3DParms params =
            Copy3D(cells_ + kCopyCell, new_source_, sizeof(int));
        return mcGraphExecMemcpyNodeSetParams(exec, node, &params);
      }
      case Setter::kMemset: {
        mcMemsetParams params = Memset32(device_int_, 7, 1);
        return mcGraphExecMemsetNodeSetParams(exec, node, &params);
      }
      case Setter::kHost: {
        mcHostNodeParams params{RunHostAdd, &new_host_};
        return mcGraphExecHostNodeSetParams(exec, node, &params);
      }
      case Setter::kChildGraph:
        return mcGraphExecChildGraphNodeSetParams(exec, node, new_child_.get());
      case Setter::kEventRecord:
        return mcGraphExecEventRecordNodeSetEvent(exec, node, new_record_);
      case Setter::kEventWait:
        return mcGraphExecEventWaitNodeSetEvent(exec, node, new_wait_);
    }
    return mcErrorUnknown;
  }

  // The cells one launch leaves, starting from zeros, with the old
  // parameters everywhere or the setter's new parameters at its node.
  std::vector<int> Expected(bool changed, Setter setter) const {
    std::vector<int> cells = {1, 11, 3, 1, 1};
    if (!changed) return cells;
    switch (setter) {
      case Setter::kKernel:
        cells[kKernelCell] = 100;
        break;
      case Setter::kMemcpy1D:
      case Setter::kMemcpy3D:
        cells[kCopyCell] = 22;
        break;
      case Setter::kMemset:
        cells[kSetCell] = 7;
        break;
      case Setter::kHost:
        cells[kHostCell] = 50;
        break;
      case Setter::kChildGraph:
        cells[kChildCell] = 100;
        break;
      default:
        break;
    }
    return cells;
  }
  std::vector<int> Cells() const { return {cells_, cells_ + kCells}; }
  void ClearCells() {
    for (int i = 0; i < kCells; ++i) cells_[i] = 0;
  }
  // Launches `exec` once from zeroed cells and returns the cells.
  std::vector<int> RunOnce(mcGraphExec_t exec) {
    ClearCells();
    EXPECT_EQ(mcGraphLaunch(exec, stream_), mcSuccess);
    EXPECT_EQ(mcStreamSynchronize(stream_), mcSuccess);
    return Cells();
  }
  // Whether `event` has been recorded (mcEventElapsedTime from an event
  // recorded at setup refuses a never-recorded one).
  bool WasRecorded(mcEvent_t event) {
    float ms = 0;
    return mcEventElapsedTime(&ms, base_, event) !=
           mcErrorInvalidResourceHandle;
  }

  std::unique_ptr<ScopedDevice> on_;
  mcStream_t stream_ = nullptr;
  int* cells_ = nullptr;
  int* old_source_ = nullptr;
  int* new_source_ = nullptr;
  int* device_int_ = nullptr;
  mcEvent_t base_ = nullptr, old_record_ = nullptr, new_record_ = nullptr,
            old_wait_ = nullptr, new_wait_ = nullptr;
  HostAdd old_host_{}, new_host_{};
  ScopedGraph graph_, old_child_, new_child_;
  mcGraphNode_t kernel_ = nullptr, copy_ = nullptr, set_ = nullptr,
                set_copy_ = nullptr, host_ = nullptr, child_ = nullptr,
                empty_ = nullptr, wait_ = nullptr, record_ = nullptr;
  ScopedExec exec_;
};

// A setter on each device.
class NodeSet : public NodeSetTest,
                public testing::WithParamInterface<std::tuple<Setter, int>> {
 protected:
  int device() const override { return std::get<1>(GetParam()); }
  Setter setter() const { return std::get<0>(GetParam()); }
};

TEST_P(NodeSet, AppliesToLaunchesMadeAfterTheCall) {
  MX_SPEC("api.graph.exec-node-set.updates-one-node",
          "api.graph.exec-update.host-and-event-nodes-unrestricted");
  struct Snapshot {
    const int* cells;
    std::vector<int> seen;
  } snapshot{cells_, {}};
  auto take = [](void* data) {
    Snapshot* s = static_cast<Snapshot*>(data);
    s->seen.assign(s->cells, s->cells + kCells);
  };
  int milliseconds = 10;
  ASSERT_EQ(mcLaunchHostFunc(stream_, SleepFor, &milliseconds), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec_.get(), stream_), mcSuccess);
  ASSERT_EQ(mcLaunchHostFunc(stream_, take, &snapshot), mcSuccess);
  ASSERT_EQ(Apply(setter(), exec_.get(), NodeOf(KindOf(setter()))), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(snapshot.seen, Expected(false, setter()))
      << "the launch enqueued before the call used the new parameters";
  EXPECT_FALSE(WasRecorded(new_record_));
  EXPECT_EQ(RunOnce(exec_.get()), Expected(true, setter()));
  EXPECT_EQ(RunOnce(exec_.get()), Expected(true, setter())) << "second launch";
  if (setter() == Setter::kEventRecord) {
    EXPECT_TRUE(WasRecorded(new_record_));
  }
}

TEST_P(NodeSet, LeavesTheGraphAsItWas) {
  MX_SPEC("api.graph.exec-node-set.updates-one-node");
  ASSERT_EQ(Apply(setter(), exec_.get(), NodeOf(KindOf(setter()))), mcSuccess);
  ScopedExec fresh(graph_.get());
  ASSERT_EQ(fresh.status(), mcSuccess);
  EXPECT_EQ(RunOnce(fresh.get()), Expected(false, setter()));
  EXPECT_FALSE(WasRecorded(new_record_));
  EXPECT_TRUE(WasRecorded(old_record_));
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcGraphEventRecordNodeGetEvent(record_, &event), mcSuccess);
  EXPECT_EQ(event, old_record_);
  ASSERT_EQ(mcGraphEventWaitNodeGetEvent(wait_, &event), mcSuccess);
  EXPECT_EQ(event, old_wait_);
  mcHostNodeParams host{};
  ASSERT_EQ(mcGraphHostNodeGetParams(host_, &host), mcSuccess);
  EXPECT_EQ(host.userData, &old_host_);
  mcMemsetParams set{};
  ASSERT_EQ(mcGraphMemsetNodeGetParams(set_, &set), mcSuccess);
  EXPECT_EQ(set.value, 3u);
  // Control: the executable graph has the change.
  EXPECT_EQ(RunOnce(exec_.get()), Expected(true, setter()));
}

TEST_P(NodeSet, RefusesANodeAddedAfterInstantiation) {
  MX_SPEC("api.graph.exec-node-set.node-not-in-exec-invalid-value");
  // A node of the setter's kind, added to the graph after instantiation.
  mcGraphNode_t late = nullptr;
  switch (KindOf(setter())) {
    case mcGraphNodeTypeKernel: {
      KernelCall add(AddTo, dim3(1), dim3(1), cells_ + kKernelCell, 1);
      ASSERT_EQ(add.Add(&late, graph_.get(), {}), mcSuccess);
      break;
    }
    case mcGraphNodeTypeMemcpy:
      ASSERT_EQ(AddCopy(&late, graph_.get(), {}, cells_ + kCopyCell,
                        old_source_, sizeof(int)),
                mcSuccess);
      break;
    case mcGraphNodeTypeMemset:
      ASSERT_EQ(AddMemset(&late, graph_.get(), {}, Memset32(device_int_, 3, 1)),
                mcSuccess);
      break;
    case mcGraphNodeTypeHost:
      ASSERT_EQ(AddHost(&late, graph_.get(), {}, {RunHostAdd, &old_host_}),
                mcSuccess);
      break;
    case mcGraphNodeTypeGraph:
      ASSERT_EQ(AddChild(&late, graph_.get(), {}, old_child_.get()), mcSuccess);
      break;
    case mcGraphNodeTypeEventRecord:
      ASSERT_EQ(AddRecord(&late, graph_.get(), {}, old_record_), mcSuccess);
      break;
    case mcGraphNodeTypeWaitEvent:
      ASSERT_EQ(AddWait(&late, graph_.get(), {}, old_wait_), mcSuccess);
      break;
    default:
      FAIL();
  }
  EXPECT_EQ(Apply(setter(), exec_.get(), late), mcErrorInvalidValue);
  EXPECT_EQ(RunOnce(exec_.get()), Expected(false, setter()));
  EXPECT_FALSE(WasRecorded(new_record_));
}

TEST_P(NodeSet, RefusesANodeOfAnotherGraph) {
  MX_SPEC("api.graph.exec-node-set.node-not-in-exec-invalid-value");
  // A clone of the graph: its nodes are not in exec_.
  mcGraph_t other_graph = nullptr;
  ASSERT_EQ(mcGraphClone(&other_graph, graph_.get()), mcSuccess);
  ScopedGraph other(other_graph);
  mcGraphNode_t same_kind_elsewhere = nullptr;
  ASSERT_EQ(mcGraphNodeFindInClone(&same_kind_elsewhere,
                                   NodeOf(KindOf(setter())), other_graph),
            mcSuccess);
  EXPECT_EQ(Apply(setter(), exec_.get(), same_kind_elsewhere),
            mcErrorInvalidValue);
  EXPECT_EQ(RunOnce(exec_.get()), Expected(false, setter()));
  // Control: the node of the graph exec_ came from is accepted.
  EXPECT_EQ(Apply(setter(), exec_.get(), NodeOf(KindOf(setter()))), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    SettersAndDevices, NodeSet,
    testing::Combine(testing::ValuesIn(kAllSetters), testing::Values(0, 1)),
    [](const testing::TestParamInfo<std::tuple<Setter, int>>& info) {
      return std::string(SetterName(std::get<0>(info.param))) + "_Device" +
             std::to_string(std::get<1>(info.param));
    });

// A setter given a node of another kind.
class NodeSetWrongKind
    : public NodeSetTest,
      public testing::WithParamInterface<std::tuple<Setter, mcGraphNodeType>> {
 protected:
  int device() const override { return 0; }
  Setter setter() const { return std::get<0>(GetParam()); }
  mcGraphNodeType target() const { return std::get<1>(GetParam()); }
};

TEST_P(NodeSetWrongKind, IsInvalidValueAndChangesNothing) {
  MX_SPEC("api.graph.exec-node-set.node-not-in-exec-invalid-value");
  ASSERT_NE(KindOf(setter()), target());
  EXPECT_EQ(Apply(setter(), exec_.get(), NodeOf(target())),
            mcErrorInvalidValue);
  EXPECT_EQ(RunOnce(exec_.get()), Expected(false, setter()));
  EXPECT_FALSE(WasRecorded(new_record_));
  // Control: the setter takes its own kind of node.
  EXPECT_EQ(Apply(setter(), exec_.get(), NodeOf(KindOf(setter()))), mcSuccess);
  EXPECT_EQ(RunOnce(exec_.get()), Expected(true, setter()));
}

std::vector<std::tuple<Setter, mcGraphNodeType>> WrongKinds() {
  std::vector<std::tuple<Setter, mcGraphNodeType>> pairs;
  for (Setter setter : kAllSetters) {
    for (mcGraphNodeType type :
         {mcGraphNodeTypeKernel, mcGraphNodeTypeMemcpy, mcGraphNodeTypeMemset,
          mcGraphNodeTypeHost, mcGraphNodeTypeGraph, mcGraphNodeTypeEmpty,
          mcGraphNodeTypeWaitEvent, mcGraphNodeTypeEventRecord}) {
      if (type != KindOf(setter)) pairs.emplace_back(setter, type);
    }
  }
  return pairs;
}

INSTANTIATE_TEST_SUITE_P(
    SettersAndNodes, NodeSetWrongKind, testing::ValuesIn(WrongKinds()),
    [](const testing::TestParamInfo<std::tuple<Setter, mcGraphNodeType>>&
           info) {
      return std::string(SetterName(std::get<0>(info.param))) + "_On" +
             NodeTypeName(std::get<1>(info.param));
    });

// Bad parameters and forbidden changes, on device 0 (and 1 for the
// device changes).
class NodeSetRefused : public NodeSetTest {
 protected:
  int device() const override { return 0; }
  // The executable graph still does what it did at instantiation.
  void ExpectUnchanged() {
    EXPECT_EQ(RunOnce(exec_.get()), Expected(false, Setter::kKernel));
    EXPECT_FALSE(WasRecorded(new_record_));
  }
};

TEST_F(NodeSetRefused, KernelNullParamsIsInvalidValue) {
  MX_SPEC("api.graph.exec-node-set.updates-one-node",
          "api.graph.kernel-node.null-params-invalid-value");
  EXPECT_EQ(mcGraphExecKernelNodeSetParams(exec_.get(), kernel_, nullptr),
            mcErrorInvalidValue);
  ExpectUnchanged();
}

TEST_F(NodeSetRefused, KernelThatIsNotAKernelIsInvalidDeviceFunction) {
  MX_SPEC("api.graph.exec-node-set.updates-one-node",
          "api.graph.kernel-node.bad-function-invalid-device-function");
  KernelCall add(AddTo, dim3(1), dim3(1), cells_ + kKernelCell, 100);
  add.mutable_params()->func = reinterpret_cast<void*>(&RunHostAdd);
  EXPECT_EQ(mcGraphExecKernelNodeSetParams(exec_.get(), kernel_, add.params()),
            mcErrorInvalidDeviceFunction);
  ExpectUnchanged();
}

TEST_F(NodeSetRefused, MemsetElementSizeThreeIsInvalidValue) {
  MX_SPEC("api.graph.exec-node-set.updates-one-node",
          "api.graph.memset-node.element-size-invalid-value");
  mcMemsetParams params = Memset32(device_int_, 7, 1);
  params.elementSize = 3;
  EXPECT_EQ(mcGraphExecMemsetNodeSetParams(exec_.get(), set_, &params),
            mcErrorInvalidValue);
  ExpectUnchanged();
}

TEST_F(NodeSetRefused, HostNullFunctionIsInvalidValue) {
  MX_SPEC("api.graph.exec-node-set.updates-one-node",
          "api.graph.host-node.null-function-invalid-value");
  mcHostNodeParams params{nullptr, &new_host_};
  EXPECT_EQ(mcGraphExecHostNodeSetParams(exec_.get(), host_, &params),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphExecHostNodeSetParams(exec_.get(), host_, nullptr),
            mcErrorInvalidValue);
  ExpectUnchanged();
}

TEST_F(NodeSetRefused, NullEventIsInvalidValue) {
  MX_SPEC("api.graph.exec-node-set.updates-one-node",
          "api.graph.event-node.null-event-invalid-value");
  EXPECT_EQ(mcGraphExecEventRecordNodeSetEvent(exec_.get(), record_, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGraphExecEventWaitNodeSetEvent(exec_.get(), wait_, nullptr),
            mcErrorInvalidValue);
  ExpectUnchanged();
}

TEST_F(NodeSetRefused, MemcpyNullDestinationIsInvalidValue) {
  MX_SPEC("api.graph.exec-node-set.updates-one-node",
          "api.graph.memcpy-node.null-pointer-invalid-value");
  EXPECT_EQ(
      mcGraphExecMemcpyNodeSetParams1D(exec_.get(), copy_, nullptr, new_source_,
                                       sizeof(int), mcMemcpyDefault),
      mcErrorInvalidValue);
  EXPECT_EQ(mcGraphExecMemcpyNodeSetParams(exec_.get(), copy_, nullptr),
            mcErrorInvalidValue);
  ExpectUnchanged();
}

TEST_F(NodeSetRefused, MemcpyKindChangeIsInvalidValue) {
  MX_SPEC("api.graph.exec-update.copy-restrictions",
          "api.graph.exec-node-set.updates-one-node");
  // set_copy_ copies device memory to managed memory as mcMemcpyDefault.
  EXPECT_EQ(mcGraphExecMemcpyNodeSetParams1D(exec_.get(), set_copy_,
                                             cells_ + kSetCell, device_int_,
                                             sizeof(int), mcMemcpyDeviceToHost),
            mcErrorInvalidValue);
  ExpectUnchanged();
  // Control: the same kind with another destination is accepted.
  EXPECT_EQ(mcGraphExecMemcpyNodeSetParams1D(
                exec_.get(), set_copy_, cells_ + kCopyCell + 0, device_int_,
                sizeof(int), mcMemcpyDefault),
            mcSuccess);
}

TEST_F(NodeSetRefused, MemcpyOntoAnotherDevicesMemoryIsInvalidValue) {
  MX_SPEC("api.graph.exec-update.copy-restrictions",
          "api.graph.exec-node-set.updates-one-node");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  int* there = nullptr;
  {
    ScopedDevice other(1);
    ASSERT_EQ(mcMalloc(&there, sizeof(int)), mcSuccess);
  }
  EXPECT_EQ(mcGraphExecMemcpyNodeSetParams1D(exec_.get(), set_copy_,
                                             cells_ + kSetCell, there,
                                             sizeof(int), mcMemcpyDefault),
            mcErrorInvalidValue);
  ExpectUnchanged();
  EXPECT_EQ(mcFree(there), mcSuccess);
}

TEST_F(NodeSetRefused, MemsetOnAnotherDevicesMemoryIsInvalidValue) {
  MX_SPEC("api.graph.exec-update.copy-restrictions",
          "api.graph.exec-node-set.updates-one-node");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  int* there = nullptr;
  {
    ScopedDevice other(1);
    ASSERT_EQ(mcMalloc(&there, sizeof(int)), mcSuccess);
  }
  mcMemsetParams params = Memset32(there, 7, 1);
  EXPECT_EQ(mcGraphExecMemsetNodeSetParams(exec_.get(), set_, &params),
            mcErrorInvalidValue);
  ExpectUnchanged();
  EXPECT_EQ(mcFree(there), mcSuccess);
}

TEST_F(NodeSetRefused, ChildGraphOfAnotherTopologyIsUpdateFailure) {
  MX_SPEC("api.graph.exec-node-set.child-graph-same-topology");
  ScopedGraph bigger;
  ASSERT_EQ(MakeChild(100, bigger.get()), mcSuccess);
  mcGraphNode_t more;
  ASSERT_EQ(AddEmpty(&more, bigger.get(), {}), mcSuccess);
  EXPECT_EQ(
      mcGraphExecChildGraphNodeSetParams(exec_.get(), child_, bigger.get()),
      mcErrorGraphExecUpdateFailure);
  ExpectUnchanged();
  // Control: a child of the same topology is accepted.
  EXPECT_EQ(
      mcGraphExecChildGraphNodeSetParams(exec_.get(), child_, new_child_.get()),
      mcSuccess);
  EXPECT_EQ(RunOnce(exec_.get()), Expected(true, Setter::kChildGraph));
}

TEST_F(NodeSetRefused, ChildGraphWithAnotherNodeKindIsUpdateFailure) {
  MX_SPEC("api.graph.exec-node-set.child-graph-same-topology");
  ScopedGraph other_kind;
  mcGraphNode_t node;
  ASSERT_EQ(AddEmpty(&node, other_kind.get(), {}), mcSuccess);
  EXPECT_EQ(
      mcGraphExecChildGraphNodeSetParams(exec_.get(), child_, other_kind.get()),
      mcErrorGraphExecUpdateFailure);
  ExpectUnchanged();
}

}  // namespace
}  // namespace mxcts::conformance
