// Copyright mxcts authors.
//
// Conformance: mcGraphNodeSetEnabled and mcGraphNodeGetEnabled
// (docs/spec/api-graph.md, "Enabling and disabling nodes"). A disabled
// kernel, copy or set node runs as an empty node: its work is skipped but
// the nodes after it still wait for the nodes before it; enabling it again
// restores it with its parameters, including those updated while it was
// disabled; updates do not change whether it is enabled. Other kinds of
// node, and nodes not in the executable graph, are refused.
//
// The target also runs as _deferred and _shuffle (TIMELINE_VARIANTS).

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

// The kinds of node that can be disabled.
constexpr mcGraphNodeType kSwitchableKinds[] = {
    mcGraphNodeTypeKernel, mcGraphNodeTypeMemcpy, mcGraphNodeTypeMemset};

// A chain head -> target -> tail on the parameter's device: head and tail
// are host nodes that take tickets 0 and 1; the target, of the parameter's
// kind, writes `value` (5 at first) to a managed cell: a kernel adds it to
// the zeroed cell, a copy copies it from a source cell, a set sets it.
class Enable : public testing::TestWithParam<std::tuple<mcGraphNodeType, int>> {
 protected:
  mcGraphNodeType kind() const { return std::get<0>(GetParam()); }
  int device() const { return std::get<1>(GetParam()); }

  void SetUp() override {
    MX_REQUIRE_CAPABILITY("graphs");
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device() + 1);
    on_ = std::make_unique<ScopedDevice>(device());
    ASSERT_TRUE(on_->ok());
    ASSERT_EQ(mcStreamCreateWithFlags(&stream_, mcStreamNonBlocking),
              mcSuccess);
    ASSERT_EQ(mcMallocManaged(&cells_, 3 * sizeof(int)), mcSuccess);
    cells_[0] = cells_[1] = cells_[2] = 0;
    board_ = std::make_unique<TicketBoard>(2);
    ASSERT_EQ(board_->status(), mcSuccess);
    ASSERT_EQ(graph_.status(), mcSuccess);
    Build(graph_.get(), 5, &target_);
    ASSERT_EQ(
        mcGraphInstantiate(exec_.out(), graph_.get(), nullptr, nullptr, 0),
        mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    board_.reset();
    if (cells_ != nullptr) mcFree(cells_);
    if (stream_ != nullptr) mcStreamDestroy(stream_);
  }

  int* cell() const { return cells_; }
  // The source cells of copies writing 5 and 9.
  int* source(int value) const { return value == 5 ? cells_ + 1 : cells_ + 2; }

  void Build(mcGraph_t graph, int value, mcGraphNode_t* target) {
    cells_[1] = 5;
    cells_[2] = 9;
    mcGraphNode_t head, tail;
    ASSERT_EQ(AddHost(&head, graph, {}, board_->HostTicket(0)), mcSuccess);
    ASSERT_EQ(AddTarget(target, graph, head, value), mcSuccess);
    ASSERT_EQ(AddHost(&tail, graph, {*target}, board_->HostTicket(1)),
              mcSuccess);
  }
  mcError_t AddTarget(mcGraphNode_t* node, mcGraph_t graph, mcGraphNode_t head,
                      int value) {
    switch (kind()) {
      case mcGraphNodeTypeKernel: {
        KernelCall add(AddTo, dim3(1), dim3(1), cell(), value);
        return add.Add(node, graph, {head});
      }
      case mcGraphNodeTypeMemcpy:
        return AddCopy(node, graph, {head}, cell(), source(value), sizeof(int),
                       mcMemcpyDefault);
      default:
        return AddMemset(node, graph, {head}, Memset32(cell(), value, 1));
    }
  }
  // Gives the target node of `exec` the parameters that write `value`.
  mcError_t SetTarget(mcGraphExec_t exec, int value) {
    switch (kind()) {
      case mcGraphNodeTypeKernel: {
        KernelCall add(AddTo, dim3(1), dim3(1), cell(), value);
        return mcGraphExecKernelNodeSetParams(exec, target_, add.params());
      }
      case mcGraphNodeTypeMemcpy:
        return mcGraphExecMemcpyNodeSetParams1D(
            exec, target_, cell(), source(value), sizeof(int), mcMemcpyDefault);
      default: {
        mcMemsetParams params = Memset32(cell(), value, 1);
        return mcGraphExecMemsetNodeSetParams(exec, target_, &params);
      }
    }
  }
  // Launches `exec` from a zeroed cell and fresh tickets; returns the cell
  // and checks that the tail ran after the head.
  int RunOnce(mcGraphExec_t exec) {
    *cell() = 0;
    board_->Reset();
    EXPECT_EQ(mcGraphLaunch(exec, stream_), mcSuccess);
    EXPECT_EQ(mcStreamSynchronize(stream_), mcSuccess);
    EXPECT_TRUE(board_->EachRanOnce()) << board_->Describe();
    EXPECT_TRUE(board_->RanBefore(0, 1)) << board_->Describe();
    return *cell();
  }
  unsigned Enabled(mcGraphExec_t exec) {
    unsigned enabled = 77;
    EXPECT_EQ(mcGraphNodeGetEnabled(exec, target_, &enabled), mcSuccess);
    return enabled;
  }

  std::unique_ptr<ScopedDevice> on_;
  mcStream_t stream_ = nullptr;
  int* cells_ = nullptr;
  std::unique_ptr<TicketBoard> board_;
  ScopedGraph graph_;
  mcGraphNode_t target_ = nullptr;
  ScopedExec exec_;
};

TEST_P(Enable, EveryNodeStartsEnabled) {
  MX_SPEC("api.graph.enable.get-enabled");
  EXPECT_EQ(Enabled(exec_.get()), 1u);
  EXPECT_EQ(RunOnce(exec_.get()), 5);
}

TEST_P(Enable, DisabledNodeRunsAsAnEmptyNode) {
  MX_SPEC("api.graph.enable.disabled-node-acts-as-empty",
          "api.graph.enable.get-enabled");
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 0), mcSuccess);
  EXPECT_EQ(Enabled(exec_.get()), 0u);
  EXPECT_EQ(RunOnce(exec_.get()), 0);
  EXPECT_EQ(RunOnce(exec_.get()), 0) << "second launch";
  // Control: enabled again, it runs.
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 1), mcSuccess);
  EXPECT_EQ(Enabled(exec_.get()), 1u);
  EXPECT_EQ(RunOnce(exec_.get()), 5);
}

TEST_P(Enable, AnyNonzeroValueEnables) {
  MX_SPEC("api.graph.enable.get-enabled",
          "api.graph.enable.disabled-node-acts-as-empty");
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 0), mcSuccess);
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 7), mcSuccess);
  EXPECT_EQ(Enabled(exec_.get()), 1u);
  EXPECT_EQ(RunOnce(exec_.get()), 5);
}

TEST_P(Enable, DisablingTwiceAndEnablingKeepsTheParameters) {
  MX_SPEC("api.graph.enable.params-preserved");
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 0), mcSuccess);
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 0), mcSuccess);
  EXPECT_EQ(RunOnce(exec_.get()), 0);
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 1), mcSuccess);
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 1), mcSuccess);
  EXPECT_EQ(RunOnce(exec_.get()), 5);
}

TEST_P(Enable, NodeUpdateWhileDisabledAppliesWhenEnabled) {
  MX_SPEC("api.graph.enable.params-preserved",
          "api.graph.exec-node-set.updates-one-node");
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 0), mcSuccess);
  ASSERT_EQ(SetTarget(exec_.get(), 9), mcSuccess);
  EXPECT_EQ(Enabled(exec_.get()), 0u) << "the update enabled the node";
  EXPECT_EQ(RunOnce(exec_.get()), 0);
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 1), mcSuccess);
  EXPECT_EQ(RunOnce(exec_.get()), 9);
}

TEST_P(Enable, WholeGraphUpdateWhileDisabledAppliesWhenEnabled) {
  MX_SPEC("api.graph.enable.params-preserved",
          "api.graph.exec-update.same-topology-succeeds");
  ScopedGraph changed;
  mcGraphNode_t changed_target;
  Build(changed.get(), 9, &changed_target);
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 0), mcSuccess);
  mcGraphNode_t error_node = nullptr;
  mcGraphExecUpdateResult result = mcGraphExecUpdateError;
  ASSERT_EQ(mcGraphExecUpdate(exec_.get(), changed.get(), &error_node, &result),
            mcSuccess);
  EXPECT_EQ(Enabled(exec_.get()), 0u) << "the update enabled the node";
  EXPECT_EQ(RunOnce(exec_.get()), 0);
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 1), mcSuccess);
  EXPECT_EQ(RunOnce(exec_.get()), 9);
}

TEST_P(Enable, UpdatesKeepAnEnabledNodeEnabled) {
  MX_SPEC("api.graph.enable.params-preserved");
  ASSERT_EQ(SetTarget(exec_.get(), 9), mcSuccess);
  EXPECT_EQ(Enabled(exec_.get()), 1u);
  EXPECT_EQ(RunOnce(exec_.get()), 9);
}

TEST_P(Enable, EnablementBelongsToOneExecutableGraph) {
  MX_SPEC("api.graph.enable.disabled-node-acts-as-empty",
          "api.graph.enable.get-enabled");
  ScopedExec other(graph_.get());
  ASSERT_EQ(other.status(), mcSuccess);
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 0), mcSuccess);
  EXPECT_EQ(Enabled(other.get()), 1u);
  EXPECT_EQ(RunOnce(other.get()), 5);
  EXPECT_EQ(RunOnce(exec_.get()), 0);
  // A new instantiation starts enabled.
  ScopedExec fresh(graph_.get());
  ASSERT_EQ(fresh.status(), mcSuccess);
  EXPECT_EQ(Enabled(fresh.get()), 1u);
}

TEST_P(Enable, LaunchEnqueuedBeforeDisablingRunsTheNode) {
  MX_SPEC("api.graph.enable.disabled-node-acts-as-empty");
  struct Snapshot {
    const int* cell;
    int seen = -1;
  } snapshot{cell()};
  auto take = [](void* data) {
    Snapshot* s = static_cast<Snapshot*>(data);
    s->seen = *s->cell;
  };
  auto zero = [](void* data) { *static_cast<int*>(data) = 0; };
  *cell() = 0;
  int milliseconds = 10;
  ASSERT_EQ(mcLaunchHostFunc(stream_, SleepFor, &milliseconds), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec_.get(), stream_), mcSuccess);
  ASSERT_EQ(mcLaunchHostFunc(stream_, take, &snapshot), mcSuccess);
  ASSERT_EQ(mcLaunchHostFunc(stream_, zero, cell()), mcSuccess);
  ASSERT_EQ(mcGraphNodeSetEnabled(exec_.get(), target_, 0), mcSuccess);
  ASSERT_EQ(mcGraphLaunch(exec_.get(), stream_), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream_), mcSuccess);
  EXPECT_EQ(snapshot.seen, 5);
  EXPECT_EQ(*cell(), 0);
}

INSTANTIATE_TEST_SUITE_P(
    KindsAndDevices, Enable,
    testing::Combine(testing::ValuesIn(kSwitchableKinds),
                     testing::Values(0, 1)),
    [](const testing::TestParamInfo<std::tuple<mcGraphNodeType, int>>& info) {
      return std::string(NodeTypeName(std::get<0>(info.param))) + "_Device" +
             std::to_string(std::get<1>(info.param));
    });

// Kinds of node that cannot be disabled.
class EnableRefused : public testing::TestWithParam<mcGraphNodeType> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("graphs"); }
};

TEST_P(EnableRefused, IsInvalidValueAndTheNodeStillRuns) {
  MX_SPEC("api.graph.enable.unsupported-node-type-invalid-value");
  int* cell = nullptr;
  ASSERT_EQ(mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  *cell = 0;
  mcEvent_t event;
  ASSERT_EQ(mcEventCreate(&event), mcSuccess);
  HostCounter counter;
  ScopedGraph child;
  KernelCall add(AddTo, dim3(1), dim3(1), cell, 1);
  mcGraphNode_t inner;
  ASSERT_EQ(add.Add(&inner, child.get(), {}), mcSuccess);
  ScopedGraph graph;
  mcGraphNode_t node = nullptr, kernel;
  switch (GetParam()) {
    case mcGraphNodeTypeHost:
      ASSERT_EQ(AddHost(&node, graph.get(), {}, counter.Increment()),
                mcSuccess);
      break;
    case mcGraphNodeTypeEmpty:
      ASSERT_EQ(AddEmpty(&node, graph.get(), {}), mcSuccess);
      break;
    case mcGraphNodeTypeGraph:
      ASSERT_EQ(AddChild(&node, graph.get(), {}, child.get()), mcSuccess);
      break;
    case mcGraphNodeTypeEventRecord:
      ASSERT_EQ(AddRecord(&node, graph.get(), {}, event), mcSuccess);
      break;
    case mcGraphNodeTypeWaitEvent:
      ASSERT_EQ(AddWait(&node, graph.get(), {}, event), mcSuccess);
      break;
    default:
      FAIL();
  }
  ASSERT_EQ(add.Add(&kernel, graph.get(), {node}), mcSuccess);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  EXPECT_EQ(mcGraphNodeSetEnabled(exec.get(), node, 0), mcErrorInvalidValue);
  unsigned enabled = 77;
  EXPECT_EQ(mcGraphNodeGetEnabled(exec.get(), node, &enabled),
            mcErrorInvalidValue);
  EXPECT_EQ(enabled, 77u);
  ASSERT_EQ(mcGraphLaunch(exec.get(), nullptr), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(nullptr), mcSuccess);
  EXPECT_EQ(*cell, GetParam() == mcGraphNodeTypeGraph ? 2 : 1);
  if (GetParam() == mcGraphNodeTypeHost) {
    EXPECT_EQ(counter.value(), 1);
  }
  // Control: the kernel node after it can be disabled.
  EXPECT_EQ(mcGraphNodeSetEnabled(exec.get(), kernel, 0), mcSuccess);
  EXPECT_EQ(mcGraphNodeGetEnabled(exec.get(), kernel, &enabled), mcSuccess);
  EXPECT_EQ(enabled, 0u);
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
  EXPECT_EQ(mcFree(cell), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, EnableRefused,
    testing::Values(mcGraphNodeTypeHost, mcGraphNodeTypeEmpty,
                    mcGraphNodeTypeGraph, mcGraphNodeTypeEventRecord,
                    mcGraphNodeTypeWaitEvent),
    [](const testing::TestParamInfo<mcGraphNodeType>& info) {
      return std::string(NodeTypeName(info.param));
    });

// Nodes not in the executable graph.
class EnableNotInExec : public testing::Test {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("graphs"); }
};

TEST_F(EnableNotInExec, NodeAddedAfterInstantiationIsInvalidValue) {
  MX_SPEC("api.graph.enable.unsupported-node-type-invalid-value");
  int* cell = nullptr;
  ASSERT_EQ(mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  *cell = 0;
  ScopedGraph graph;
  KernelCall add(AddTo, dim3(1), dim3(1), cell, 1);
  mcGraphNode_t first, late;
  ASSERT_EQ(add.Add(&first, graph.get(), {}), mcSuccess);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  ASSERT_EQ(add.Add(&late, graph.get(), {}), mcSuccess);
  EXPECT_EQ(mcGraphNodeSetEnabled(exec.get(), late, 0), mcErrorInvalidValue);
  unsigned enabled = 77;
  EXPECT_EQ(mcGraphNodeGetEnabled(exec.get(), late, &enabled),
            mcErrorInvalidValue);
  EXPECT_EQ(enabled, 77u);
  // The executable graph is as it was: its one node runs.
  ASSERT_EQ(mcGraphLaunch(exec.get(), nullptr), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(nullptr), mcSuccess);
  EXPECT_EQ(*cell, 1);
  EXPECT_EQ(mcGraphNodeGetEnabled(exec.get(), first, &enabled), mcSuccess);
  EXPECT_EQ(enabled, 1u);
  EXPECT_EQ(mcFree(cell), mcSuccess);
}

TEST_F(EnableNotInExec, NodeOfAnotherGraphIsInvalidValue) {
  MX_SPEC("api.graph.enable.unsupported-node-type-invalid-value");
  int* cell = nullptr;
  ASSERT_EQ(mcMallocManaged(&cell, sizeof(int)), mcSuccess);
  ScopedGraph graph, other;
  KernelCall add(AddTo, dim3(1), dim3(1), cell, 1);
  mcGraphNode_t mine, foreign;
  ASSERT_EQ(add.Add(&mine, graph.get(), {}), mcSuccess);
  ASSERT_EQ(add.Add(&foreign, other.get(), {}), mcSuccess);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  EXPECT_EQ(mcGraphNodeSetEnabled(exec.get(), foreign, 0), mcErrorInvalidValue);
  unsigned enabled = 77;
  EXPECT_EQ(mcGraphNodeGetEnabled(exec.get(), foreign, &enabled),
            mcErrorInvalidValue);
  EXPECT_EQ(enabled, 77u);
  EXPECT_EQ(mcGraphNodeGetEnabled(exec.get(), mine, &enabled), mcSuccess);
  EXPECT_EQ(enabled, 1u);
  EXPECT_EQ(mcFree(cell), mcSuccess);
}

}  // namespace
}  // namespace mxcts::conformance
