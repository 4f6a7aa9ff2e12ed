// Copyright mxcts authors.
//
// Conformance: mcGraphExecUpdate (docs/spec/api-graph.md, "Updating
// executable graphs"): a graph of the same topology gives the executable
// graph its parameters, for every kind of node; a graph of another topology,
// another node kind or a parameter change the rules refuse leaves the
// executable graph as it was, with the reason and the node concerned. Each
// failing update also carries an allowed change beside the refused one, so
// that a partial update would show.
//
// The target also runs as _deferred and _shuffle (TIMELINE_VARIANTS): an
// update after a launch must not reach that launch.

#include <mc_runtime.h>

#include <functional>
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
// Subtracts `amount` from *cell.
__global__ void SubtractFrom(int* cell, int amount) { atomicSub(cell, amount); }

// Adds the int at `data` to `*sum` (a host node).
struct HostAdd {
  int* sum;
  int amount;
};
void RunHostAdd(void* data) {
  const HostAdd* add = static_cast<const HostAdd*>(data);
  *add->sum += add->amount;
}
void RunHostAddTwice(void* data) {
  const HostAdd* add = static_cast<const HostAdd*>(data);
  *add->sum += 2 * add->amount;
}

// The device of the parameter current, a non-blocking stream on it and
// managed cells holding 0.
class UpdateTest : public testing::Test {
 protected:
  virtual int device() const = 0;
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device() + 1);
    on_ = std::make_unique<ScopedDevice>(device());
    ASSERT_TRUE(on_->ok());
    ASSERT_EQ(mcStreamCreateWithFlags(&stream_, mcStreamNonBlocking),
              mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cells_, 4 * sizeof(int)), mcSuccess);
    for (int i = 0; i < 4; ++i) cells_[i] = 0;
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (cells_ != nullptr) mcFree(cells_);
    if (stream_ != nullptr) mcStreamDestroy(stream_);
  }
  int* cell(int i = 0) const { return cells_ + i; }

  // mcGraphExecUpdate(exec, changed), which must succeed: the result says
  // so and no node is named.
  static void ExpectUpdated(mcGraphExec_t exec, mcGraph_t changed) {
    mcGraphNode_t error_node = nullptr;
    mcGraphExecUpdateResult result = mcGraphExecUpdateError;
    ASSERT_EQ(mcGraphExecUpdate(exec, changed, &error_node, &result),
              mcSuccess);
    EXPECT_EQ(result, mcGraphExecUpdateSuccess);
    EXPECT_EQ(error_node, nullptr);
  }
  // mcGraphExecUpdate(exec, changed), which must be refused naming
  // `offending` (unless null); returns the update's result.
  static mcGraphExecUpdateResult ExpectRefused(mcGraphExec_t exec,
                                               mcGraph_t changed,
                                               mcGraphNode_t offending) {
    mcGraphNode_t error_node = nullptr;
    mcGraphExecUpdateResult result = mcGraphExecUpdateSuccess;
    EXPECT_EQ(mcGraphExecUpdate(exec, changed, &error_node, &result),
              mcErrorGraphExecUpdateFailure);
    if (offending != nullptr) {
      EXPECT_EQ(error_node, offending);
    }
    return result;
  }

  // Launches `exec` once and waits.
  void Run(mcGraphExec_t exec) {
    ASSERT_EQ(mcGraphLaunch(exec, stream_), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  }
  // A graph: an empty root, then AddTo(cell 0, amount), then a host node
  // adding `host_amount` to cell 1.
  void BuildBase(mcGraph_t graph, int amount, HostAdd* host_add,
                 std::vector<mcGraphNode_t>* nodes) {
    nodes->assign(3, nullptr);
    ASSERT_EQ(AddEmpty(&(*nodes)[0], graph, {}), mcSuccess);
    KernelCall add(AddTo, dim3(1), dim3(1), cell(0), amount);
    ASSERT_EQ(add.Add(&(*nodes)[1], graph, {(*nodes)[0]}), mcSuccess);
    ASSERT_EQ(AddHost(&(*nodes)[2], graph, {(*nodes)[1]},
                      mcHostNodeParams{RunHostAdd, host_add}),
              mcSuccess);
  }

  std::unique_ptr<ScopedDevice> on_;
  mcStream_t stream_ = nullptr;
  int* cells_ = nullptr;
};

class GraphExecUpdate : public UpdateTest,
                        public testing::WithParamInterface<int> {
 protected:
  int device() const override { return GetParam(); }
};

TEST_P(GraphExecUpdate, KernelArgumentsOfSameTopologyApply) {
  MX_SPEC("api.graph.exec-update.same-topology-succeeds");
  HostAdd host_add{cell(1), 1};
  ScopedGraph original, changed;
  std::vector<mcGraphNode_t> a, b;
  BuildBase(original.get(), 1, &host_add, &a);
  BuildBase(changed.get(), 10, &host_add, &b);
  ScopedExec exec(original.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  Run(exec.get());
  EXPECT_EQ(*cell(0), 1);
  mcGraphNode_t error_node = a[0];
  mcGraphExecUpdateResult result = mcGraphExecUpdateError;
  ASSERT_EQ(mcGraphExecUpdate(exec.get(), changed.get(), &error_node, &result),
            mcSuccess);
  EXPECT_EQ(result, mcGraphExecUpdateSuccess);
  EXPECT_EQ(error_node, nullptr);
  Run(exec.get());
  EXPECT_EQ(*cell(0), 11);
  EXPECT_EQ(*cell(1), 2);
  // The graph the executable graph came from is unchanged.
  mcKernelNodeParams params{};
  ASSERT_EQ(mcGraphKernelNodeGetParams(a[1], &params), mcSuccess);
  EXPECT_EQ(*static_cast<int*>(params.kernelParams[1]), 1);
}

TEST_P(GraphExecUpdate, ReachesOnlyLaterLaunches) {
  MX_SPEC("api.graph.exec-update.same-topology-succeeds",
          "api.graph.launch.repeatable");
  HostAdd host_add{cell(1), 1};
  ScopedGraph original, changed;
  std::vector<mcGraphNode_t> a, b;
  BuildBase(original.get(), 1, &host_add, &a);
  BuildBase(changed.get(), 100, &host_add, &b);
  ScopedExec exec(original.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  int milliseconds = 10;
  ASSERT_EQ(mcLaunchHostFunc(stream_, SleepFor, &milliseconds), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream_), mcSuccess);
  ExpectUpdated(exec.get(), changed.get());
  ASSERT_EQ(mcGraphLaunch(exec.get(), stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(*cell(0), 101);
}

TEST_P(GraphExecUpdate, KernelFunctionAndConfigurationMayChange) {
  MX_SPEC("api.graph.exec-update.same-topology-succeeds");
  ScopedGraph original, changed;
  mcGraphNode_t a, b;
  KernelCall add(AddTo, dim3(1), dim3(1), cell(0), 5);
  ASSERT_EQ(add.Add(&a, original.get(), {}), mcSuccess);
  KernelCall subtract(SubtractFrom, dim3(2), dim3(3), cell(0), 1);
  ASSERT_EQ(subtract.Add(&b, changed.get(), {}), mcSuccess);
  ScopedExec exec(original.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  ExpectUpdated(exec.get(), changed.get());
  Run(exec.get());
  EXPECT_EQ(*cell(0), -6) << "2 blocks of 3 threads each subtract 1";
}

TEST_P(GraphExecUpdate, CopySetAndHostParametersApply) {
  MX_SPEC("api.graph.exec-update.same-topology-succeeds",
          "api.graph.exec-update.host-and-event-nodes-unrestricted");
  int* device_data = nullptr;
  ASSERT_EQ(mcMalloc(&device_data, 4 * sizeof(int)), mcSuccess);
  HostAdd first{cell(2), 1};
  HostAdd second{cell(3), 7};
  auto build = [&](mcGraph_t graph, int set_value, int* set_at, int* copy_to,
                   mcHostNodeParams host) {
    mcGraphNode_t set, copy, run;
    ASSERT_EQ(AddMemset(&set, graph, {}, Memset32(set_at, set_value, 1)),
              mcSuccess);
    ASSERT_EQ(AddCopy(&copy, graph, {set}, copy_to, set_at, sizeof(int),
                      mcMemcpyDeviceToDevice),
              mcSuccess);
    ASSERT_EQ(AddHost(&run, graph, {copy}, host), mcSuccess);
  };
  ScopedGraph original, changed;
  build(original.get(), 3, device_data, cell(0), {RunHostAdd, &first});
  build(changed.get(), 9, device_data + 1, cell(1), {RunHostAddTwice, &second});
  ScopedExec exec(original.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  ExpectUpdated(exec.get(), changed.get());
  Run(exec.get());
  EXPECT_EQ(*cell(0), 0);
  EXPECT_EQ(*cell(1), 9);
  EXPECT_EQ(*cell(2), 0);
  EXPECT_EQ(*cell(3), 14);
  EXPECT_EQ(mcFree(device_data), mcSuccess);
}

TEST_P(GraphExecUpdate, EventNodesMayTakeAnyEvent) {
  MX_SPEC("api.graph.exec-update.host-and-event-nodes-unrestricted",
          "api.graph.exec-update.same-topology-succeeds");
  mcEvent_t base, old_event, new_event, waited;
  ASSERT_EQ(mcEventCreate(&base), mcSuccess);
  ASSERT_EQ(mcEventCreate(&old_event), mcSuccess);
  ASSERT_EQ(mcEventCreate(&new_event), mcSuccess);
  ASSERT_EQ(mcEventCreate(&waited), mcSuccess);
  ASSERT_EQ(mcEventRecord(base, stream_), mcSuccess);
  ScopedGraph original, changed;
  mcGraphNode_t wait, record;
  ASSERT_EQ(AddWait(&wait, original.get(), {}, old_event), mcSuccess);
  ASSERT_EQ(AddRecord(&record, original.get(), {wait}, old_event), mcSuccess);
  ASSERT_EQ(AddWait(&wait, changed.get(), {}, waited), mcSuccess);
  ASSERT_EQ(AddRecord(&record, changed.get(), {wait}, new_event), mcSuccess);
  ScopedExec exec(original.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  ExpectUpdated(exec.get(), changed.get());
  Run(exec.get());
  float ms = 0;
  EXPECT_EQ(mcEventElapsedTime(&ms, base, new_event), mcSuccess);
  EXPECT_EQ(mcEventElapsedTime(&ms, base, old_event),
            mcErrorInvalidResourceHandle)
      << "the replaced event was recorded";
  for (mcEvent_t e : {base, old_event, new_event, waited}) {
    EXPECT_EQ(mcEventDestroy(e), mcSuccess);
  }
}

TEST_P(GraphExecUpdate, ChildGraphOfSameTopologyApplies) {
  MX_SPEC("api.graph.exec-update.same-topology-succeeds");
  auto build = [&](mcGraph_t graph, int amount) {
    ScopedGraph child;
    mcGraphNode_t inner, nested;
    KernelCall add(AddTo, dim3(1), dim3(1), cell(0), amount);
    ASSERT_EQ(add.Add(&inner, child.get(), {}), mcSuccess);
    ASSERT_EQ(AddChild(&nested, graph, {}, child.get()), mcSuccess);
  };
  ScopedGraph original, changed;
  build(original.get(), 1);
  build(changed.get(), 50);
  ScopedExec exec(original.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  ExpectUpdated(exec.get(), changed.get());
  Run(exec.get());
  EXPECT_EQ(*cell(0), 50);
}

TEST_P(GraphExecUpdate, FromItsOwnChangedGraph) {
  MX_SPEC("api.graph.exec-update.same-topology-succeeds",
          "api.graph.node-params.set-changes-graph-node");
  HostAdd host_add{cell(1), 1};
  ScopedGraph graph;
  std::vector<mcGraphNode_t> nodes;
  BuildBase(graph.get(), 1, &host_add, &nodes);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  KernelCall add(AddTo, dim3(1), dim3(1), cell(0), 30);
  ASSERT_EQ(mcGraphKernelNodeSetParams(nodes[1], add.params()), mcSuccess);
  Run(exec.get());
  EXPECT_EQ(*cell(0), 1) << "changing the graph changed the executable graph";
  ExpectUpdated(exec.get(), graph.get());
  Run(exec.get());
  EXPECT_EQ(*cell(0), 31);
}

// How a failing graph differs from the one the executable graph was
// instantiated from.
enum class Refused {
  kNodeAdded,
  kNodeRemoved,
  kEdgeAdded,
  kEdgeRemoved,
  kEdgeReversed,
  kNodeKindChanged,
  kChildTopologyChanged,
  kCopyKindChanged,
};

const char* RefusedName(Refused refused) {
  switch (refused) {
    case Refused::kNodeAdded:
      return "NodeAdded";
    case Refused::kNodeRemoved:
      return "NodeRemoved";
    case Refused::kEdgeAdded:
      return "EdgeAdded";
    case Refused::kEdgeRemoved:
      return "EdgeRemoved";
    case Refused::kEdgeReversed:
      return "EdgeReversed";
    case Refused::kNodeKindChanged:
      return "NodeKindChanged";
    case Refused::kChildTopologyChanged:
      return "ChildTopologyChanged";
    case Refused::kCopyKindChanged:
      return "CopyKindChanged";
  }
  return "Unknown";
}

// The result a refused update reports.
mcGraphExecUpdateResult ExpectedResult(Refused refused) {
  switch (refused) {
    case Refused::kNodeKindChanged:
      return mcGraphExecUpdateErrorNodeTypeChanged;
    case Refused::kCopyKindChanged:
      return mcGraphExecUpdateErrorParametersChanged;
    default:
      return mcGraphExecUpdateErrorTopologyChanged;
  }
}

class GraphExecUpdateRefused
    : public UpdateTest,
      public testing::WithParamInterface<std::tuple<Refused, int>> {
 protected:
  int device() const override { return std::get<1>(GetParam()); }
  Refused refused() const { return std::get<0>(GetParam()); }
  void SetUp() override {
    UpdateTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_EQ(mcMalloc(&device_data_, 2 * sizeof(int)), mcSuccess);
  }
  void TearDown() override {
    UpdateTest::TearDown();
    if (device_data_ != nullptr) mcFree(device_data_);
  }
  // The graph the executable graph comes from (`changed` false) or the
  // refused one: kernel A adds `amount` to cell 0, then two empty nodes B
  // and C, then a child graph D whose kernel adds 1 to cell 2, then a copy
  // E from device data to cell 3. `*offending` is the node of the refused
  // graph the update concerns, where there is one.
  void Build(mcGraph_t graph, bool changed, mcGraphNode_t* offending) {
    const Refused how = refused();
    const int amount = changed ? 10 : 1;
    mcGraphNode_t a, b, c, d, e;
    KernelCall add(AddTo, dim3(1), dim3(1), cell(0), amount);
    ASSERT_EQ(add.Add(&a, graph, {}), mcSuccess);
    if (changed && how == Refused::kNodeKindChanged) {
      ASSERT_EQ(AddMemset(&b, graph, {a}, Memset32(device_data_, 0, 1)),
                mcSuccess);
      *offending = b;
    } else {
      ASSERT_EQ(AddEmpty(&b, graph, {a}), mcSuccess);
    }
    if (changed && how == Refused::kNodeRemoved) {
      c = nullptr;
    } else if (changed && how == Refused::kEdgeRemoved) {
      ASSERT_EQ(AddEmpty(&c, graph, {}), mcSuccess);
    } else if (changed && how == Refused::kEdgeReversed) {
      ASSERT_EQ(AddEmpty(&c, graph, {}), mcSuccess);
      ASSERT_EQ(mcGraphRemoveDependencies(graph, &a, &b, 1), mcSuccess);
      ASSERT_EQ(mcGraphAddDependencies(graph, &b, &a, 1), mcSuccess);
      ASSERT_EQ(mcGraphAddDependencies(graph, &a, &c, 1), mcSuccess);
    } else {
      ASSERT_EQ(AddEmpty(&c, graph, {a}), mcSuccess);
    }
    ScopedGraph child;
    mcGraphNode_t inner;
    KernelCall add_one(AddTo, dim3(1), dim3(1), cell(2), 1);
    ASSERT_EQ(add_one.Add(&inner, child.get(), {}), mcSuccess);
    if (changed && how == Refused::kChildTopologyChanged) {
      mcGraphNode_t more;
      ASSERT_EQ(AddEmpty(&more, child.get(), {inner}), mcSuccess);
    }
    if (c == nullptr) {
      ASSERT_EQ(AddChild(&d, graph, {b}, child.get()), mcSuccess);
    } else {
      ASSERT_EQ(AddChild(&d, graph, {b, c}, child.get()), mcSuccess);
    }
    if (changed && how == Refused::kChildTopologyChanged) *offending = d;
    const mcMemcpyKind kind = changed && how == Refused::kCopyKindChanged
                                  ? mcMemcpyDeviceToHost
                                  : mcMemcpyDeviceToDevice;
    ASSERT_EQ(
        AddCopy(&e, graph, {d}, cell(3), device_data_ + 1, sizeof(int), kind),
        mcSuccess);
    if (changed && how == Refused::kCopyKindChanged) *offending = e;
    if (changed && how == Refused::kEdgeAdded) {
      ASSERT_EQ(mcGraphAddDependencies(graph, &a, &e, 1), mcSuccess);
    }
    if (changed && how == Refused::kNodeAdded) {
      mcGraphNode_t extra;
      ASSERT_EQ(AddEmpty(&extra, graph, {e}), mcSuccess);
    }
  }

  int* device_data_ = nullptr;
};

TEST_P(GraphExecUpdateRefused, ReportsTheReasonAndLeavesExecAsItWas) {
  MX_SPEC("api.graph.exec-update.topology-change-fails",
          "api.graph.exec-update.failure-result-codes",
          "api.graph.exec-update.copy-restrictions",
          "api.graph.exec-node-set.child-graph-same-topology");
  ASSERT_EQ(mcMemset(device_data_, 0, 2 * sizeof(int)), mcSuccess);
  ScopedGraph original, changed;
  mcGraphNode_t unused = nullptr, offending = nullptr;
  Build(original.get(), false, &unused);
  Build(changed.get(), true, &offending);
  ScopedExec exec(original.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  const size_t nodes_before = Nodes(changed.get()).size();
  EXPECT_EQ(ExpectRefused(exec.get(), changed.get(), offending),
            ExpectedResult(refused()));
  EXPECT_EQ(Nodes(changed.get()).size(), nodes_before);
  // The executable graph kept its parameters (the kernel still adds 1, not
  // the 10 of the refused graph) and still launches.
  Run(exec.get());
  EXPECT_EQ(*cell(0), 1);
  EXPECT_EQ(*cell(2), 1);
  // Control: a graph of the same topology built the same way is accepted.
  ScopedGraph same;
  mcGraphNode_t none = nullptr;
  Build(same.get(), false, &none);
  ExpectUpdated(exec.get(), same.get());
}

INSTANTIATE_TEST_SUITE_P(
    WaysAndDevices, GraphExecUpdateRefused,
    testing::Combine(testing::Values(Refused::kNodeAdded, Refused::kNodeRemoved,
                                     Refused::kEdgeAdded, Refused::kEdgeRemoved,
                                     Refused::kEdgeReversed,
                                     Refused::kNodeKindChanged,
                                     Refused::kChildTopologyChanged,
                                     Refused::kCopyKindChanged),
                     testing::Values(0, 1)),
    [](const testing::TestParamInfo<std::tuple<Refused, int>>& info) {
      return std::string(RefusedName(std::get<0>(info.param))) + "_Device" +
             std::to_string(std::get<1>(info.param));
    });

// Copies and sets moved to another device's memory are refused.
enum class MovedNode { kCopy, kSet };

class MovedToAnotherDevice
    : public UpdateTest,
      public testing::WithParamInterface<std::tuple<MovedNode, int>> {
 protected:
  int device() const override { return std::get<1>(GetParam()); }
  bool copy() const { return std::get<0>(GetParam()) == MovedNode::kCopy; }
  // A copy of cell 1 to `target`, or a set of `target` to `value`.
  mcError_t AddMoved(mcGraphNode_t* node, mcGraph_t graph, int* target,
                     int value) {
    if (copy()) {
      return AddCopy(node, graph, {}, target, cell(1), sizeof(int),
                     mcMemcpyDefault);
    }
    return AddMemset(node, graph, {}, Memset32(target, value, 1));
  }
};

TEST_P(MovedToAnotherDevice, UpdateIsRefused) {
  MX_SPEC("api.graph.exec-update.copy-restrictions",
          "api.graph.exec-update.failure-result-codes");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  int* here = nullptr;
  int* there = nullptr;
  ASSERT_EQ(mcMalloc(&here, sizeof(int)), mcSuccess);
  {
    ScopedDevice other(1 - device());
    ASSERT_EQ(mcMalloc(&there, sizeof(int)), mcSuccess);
  }
  *cell(1) = 42;
  ScopedGraph original, changed;
  mcGraphNode_t a, b;
  ASSERT_EQ(AddMoved(&a, original.get(), here, 5), mcSuccess);
  ASSERT_EQ(AddMoved(&b, changed.get(), there, 6), mcSuccess);
  ScopedExec exec(original.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  EXPECT_EQ(ExpectRefused(exec.get(), changed.get(), b),
            mcGraphExecUpdateErrorParametersChanged);
  Run(exec.get());
  int value = 0;
  ASSERT_EQ(mcMemcpy(&value, here, sizeof(int), mcMemcpyDefault), mcSuccess);
  EXPECT_EQ(value, copy() ? 42 : 5) << "the original node ran";
  EXPECT_EQ(mcFree(here), mcSuccess);
  EXPECT_EQ(mcFree(there), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    NodesAndDevices, MovedToAnotherDevice,
    testing::Combine(testing::Values(MovedNode::kCopy, MovedNode::kSet),
                     testing::Values(0, 1)),
    [](const testing::TestParamInfo<std::tuple<MovedNode, int>>& info) {
      return std::string(std::get<0>(info.param) == MovedNode::kCopy ? "Copy"
                                                                     : "Set") +
             "_Device" + std::to_string(std::get<1>(info.param));
    });

TEST_P(GraphExecUpdate, KernelMovedToAnotherDeviceIsRefused) {
  // The kernel of the new graph runs on the other device (the device
  // current when a kernel node is added runs it).
  MX_SPEC("api.graph.exec-update.failure-result-codes");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  ScopedGraph original, changed;
  mcGraphNode_t a, b;
  KernelCall add(AddTo, dim3(1), dim3(1), cell(0), 1);
  ASSERT_EQ(add.Add(&a, original.get(), {}), mcSuccess);
  {
    ScopedDevice other(1 - device());
    ASSERT_TRUE(other.ok());
    KernelCall add_more(AddTo, dim3(1), dim3(1), cell(0), 10);
    ASSERT_EQ(add_more.Add(&b, changed.get(), {}), mcSuccess);
  }
  ScopedExec exec(original.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  const mcGraphExecUpdateResult result =
      ExpectRefused(exec.get(), changed.get(), b);
  // A kernel change that is not allowed: the chapter names three results
  // for it.
  EXPECT_TRUE(result == mcGraphExecUpdateErrorParametersChanged ||
              result == mcGraphExecUpdateErrorFunctionChanged ||
              result == mcGraphExecUpdateErrorUnsupportedFunctionChange)
      << result;
  Run(exec.get());
  EXPECT_EQ(*cell(0), 1);
  // The per-node form refuses the same change: parameters set while the
  // other device is current name a kernel that runs there.
  KernelCall add_more(AddTo, dim3(1), dim3(1), cell(0), 10);
  {
    ScopedDevice other(1 - device());
    ASSERT_TRUE(other.ok());
    EXPECT_EQ(mcGraphExecKernelNodeSetParams(exec.get(), a, add_more.params()),
              mcErrorInvalidValue);
  }
  Run(exec.get());
  EXPECT_EQ(*cell(0), 2);
  // Control: on the node's own device the same parameters are accepted.
  EXPECT_EQ(mcGraphExecKernelNodeSetParams(exec.get(), a, add_more.params()),
            mcSuccess);
  Run(exec.get());
  EXPECT_EQ(*cell(0), 12);
}

TEST_P(GraphExecUpdate, CopyOfFreedMemoryFailsAndNamesTheNode) {
  MX_SPEC("api.graph.exec-update.failure-result-codes");
  int* kept = nullptr;
  int* freed = nullptr;
  ASSERT_EQ(mcMalloc(&kept, sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMalloc(&freed, sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMemset(kept, 0, sizeof(int)), mcSuccess);
  *cell(1) = 8;
  ScopedGraph original, changed;
  mcGraphNode_t a, b, k1, k2;
  KernelCall add(AddTo, dim3(1), dim3(1), cell(0), 1);
  ASSERT_EQ(add.Add(&k1, original.get(), {}), mcSuccess);
  ASSERT_EQ(AddCopy(&a, original.get(), {k1}, kept, cell(1), sizeof(int),
                    mcMemcpyHostToDevice),
            mcSuccess);
  KernelCall add_more(AddTo, dim3(1), dim3(1), cell(0), 10);
  ASSERT_EQ(add_more.Add(&k2, changed.get(), {}), mcSuccess);
  ASSERT_EQ(AddCopy(&b, changed.get(), {k2}, freed, cell(1), sizeof(int),
                    mcMemcpyHostToDevice),
            mcSuccess);
  ASSERT_EQ(mcFree(freed), mcSuccess);
  ScopedExec exec(original.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  const mcGraphExecUpdateResult result =
      ExpectRefused(exec.get(), changed.get(), b);
  EXPECT_NE(result, mcGraphExecUpdateSuccess);
  // Nothing of the refused graph reached the executable graph, not even
  // the kernel's allowed change before the copy.
  Run(exec.get());
  EXPECT_EQ(*cell(0), 1);
  int value = 0;
  ASSERT_EQ(mcMemcpy(&value, kept, sizeof(int), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(value, 8);
  EXPECT_EQ(mcFree(kept), mcSuccess);
}

TEST_P(GraphExecUpdate, ErrorNodeOutputMayBeNull) {
  MX_SPEC("api.graph.exec-update.same-topology-succeeds");
  HostAdd host_add{cell(1), 1};
  ScopedGraph original, changed;
  std::vector<mcGraphNode_t> a, b;
  BuildBase(original.get(), 1, &host_add, &a);
  BuildBase(changed.get(), 10, &host_add, &b);
  ScopedExec exec(original.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  mcGraphExecUpdateResult result = mcGraphExecUpdateError;
  EXPECT_EQ(mcGraphExecUpdate(exec.get(), changed.get(), nullptr, &result),
            mcSuccess);
  EXPECT_EQ(result, mcGraphExecUpdateSuccess);
  Run(exec.get());
  EXPECT_EQ(*cell(0), 10);
}

INSTANTIATE_TEST_SUITE_P(Devices, GraphExecUpdate, testing::Values(0, 1),
                         [](const testing::TestParamInfo<int>& info) {
                           return "Device" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace mxcts::conformance
