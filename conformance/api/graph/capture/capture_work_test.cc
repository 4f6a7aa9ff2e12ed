// Copyright mxcts authors.
//
// Conformance: stream capture records the work enqueued into a capturing
// stream as graph nodes instead of running it, one node per piece of work,
// each depending on the one before; launching the graph then does what the
// work would have done (docs/spec/api-graph.md, "Stream capture"). Every
// kind of work: kernels (<<<>>> and mcLaunchKernel), copies, sets, host
// functions, event records and waits; on every kind of stream that can
// capture, in every capture mode, on every device.
//
// Each test checks the graph's structure (nodes, kinds, edges) and, as the
// control that the work was recorded and not dropped, its effect when the
// graph is launched. The target also runs as _deferred and _shuffle
// (TIMELINE_VARIANTS), where nothing runs before the host waits, so work
// that escaped the capture would show only at the wait.

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/api/graph/capture/capture_testing.h"
#include "conformance/api/graph/exec/exec_testing.h"
#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kBroken = -1000;

// Link `step` of a chain: moves *cell from `step` to `step + 1`, or marks
// the chain broken.
__global__ void ChainLink(int* cell, int step) {
  *cell = *cell == step ? step + 1 : kBroken - step;
}

// Multiplies each of `n` ints at `data` by `factor` and adds `term`.
__global__ void Affine(int* data, int factor, int term, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor + term;
}

struct HostLink {
  int* cell;
  int step;
};
void RunHostLink(void* data) {
  const HostLink* link = static_cast<const HostLink*>(data);
  *link->cell = *link->cell == link->step ? link->step + 1 : kBroken - 100;
}

class CaptureWork : public CaptureTest {
 protected:
  // Ends the capture into `graph`, checks it succeeded, and checks that
  // nothing ran: the cells are as the test left them after a device-wide
  // wait.
  void EndAndExpectNothingRan(ScopedGraph* graph) {
    ASSERT_EQ(mcStreamEndCapture(stream(), graph->out()), mcSuccess);
    ASSERT_NE(graph->get(), nullptr);
    EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusNone);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    EXPECT_EQ(mcStreamQuery(stream()), mcSuccess);
  }
  // The graph the capture of the stream is building.
  mcGraph_t CaptureGraph() {
    mcStreamCaptureStatus status = mcStreamCaptureStatusNone;
    mcGraph_t graph = nullptr;
    EXPECT_EQ(mcStreamGetCaptureInfo_v2(stream(), &status, nullptr, &graph,
                                        nullptr, nullptr),
              mcSuccess);
    return graph;
  }
  // Launches `graph` once into the stream and waits.
  void LaunchOnce(mcGraph_t graph) {
    ScopedExec exec(graph);
    ASSERT_EQ(exec.status(), mcSuccess);
    ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  }
};

TEST_P(CaptureWork, KernelLaunchIsRecordedNotRun) {
  MX_SPEC("api.graph.capture.records-instead-of-executing",
          "api.graph.capture.captured-graph-equivalent");
  ASSERT_EQ(Begin(), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 0);
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  ScopedGraph graph;
  EndAndExpectNothingRan(&graph);
  EXPECT_EQ(*cell(), 0);
  ASSERT_EQ(TypesOf(graph.get()),
            std::vector<mcGraphNodeType>{mcGraphNodeTypeKernel});
  mcKernelNodeParams params{};
  ASSERT_EQ(mcGraphKernelNodeGetParams(Nodes(graph.get())[0], &params),
            mcSuccess);
  EXPECT_EQ(params.func, reinterpret_cast<void*>(&ChainLink));
  EXPECT_EQ(params.gridDim.x, 1u);
  EXPECT_EQ(params.blockDim.x, 1u);
  LaunchOnce(graph.get());
  EXPECT_EQ(*cell(), 1);
}

TEST_P(CaptureWork, LaunchKernelIsRecordedNotRun) {
  MX_SPEC("api.graph.capture.records-instead-of-executing");
  ASSERT_EQ(Begin(), mcSuccess);
  int* target = cell();
  int step = 0;
  void* args[] = {&target, &step};
  ASSERT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(&ChainLink), dim3(1),
                           dim3(1), args, 0, stream()),
            mcSuccess);
  step = 55;  // the arguments were copied when the work was recorded
  ScopedGraph graph;
  EndAndExpectNothingRan(&graph);
  EXPECT_EQ(*cell(), 0);
  EXPECT_EQ(TypesOf(graph.get()),
            std::vector<mcGraphNodeType>{mcGraphNodeTypeKernel});
  LaunchOnce(graph.get());
  EXPECT_EQ(*cell(), 1);
}

TEST_P(CaptureWork, MemcpyAsyncIsRecordedNotRun) {
  MX_SPEC("api.graph.capture.records-instead-of-executing");
  int* device_data = nullptr;
  ASSERT_EQ(mcMalloc(&device_data, 2 * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMemset(device_data, 0, 2 * sizeof(int)), mcSuccess);
  *cell(1) = 77;
  ASSERT_EQ(Begin(), mcSuccess);
  ASSERT_EQ(mcMemcpyAsync(device_data, cell(1), sizeof(int),
                          mcMemcpyHostToDevice, stream()),
            mcSuccess);
  ASSERT_EQ(mcMemcpyAsync(cell(2), device_data, sizeof(int),
                          mcMemcpyDeviceToHost, stream()),
            mcSuccess);
  ScopedGraph graph;
  EndAndExpectNothingRan(&graph);
  EXPECT_EQ(*cell(2), 0);
  EXPECT_EQ(TypesOf(graph.get()),
            (std::vector<mcGraphNodeType>{mcGraphNodeTypeMemcpy,
                                          mcGraphNodeTypeMemcpy}));
  EXPECT_TRUE(IsChainInAddOrder(graph.get()));
  LaunchOnce(graph.get());
  EXPECT_EQ(*cell(2), 77);
  EXPECT_EQ(mcFree(device_data), mcSuccess);
}

TEST_P(CaptureWork, MemsetAsyncIsRecordedNotRun) {
  MX_SPEC("api.graph.capture.records-instead-of-executing");
  *cell(0) = -1;
  ASSERT_EQ(Begin(), mcSuccess);
  ASSERT_EQ(mcMemsetAsync(cell(0), 0x11, sizeof(int), stream()), mcSuccess);
  ScopedGraph graph;
  EndAndExpectNothingRan(&graph);
  EXPECT_EQ(*cell(0), -1);
  EXPECT_EQ(TypesOf(graph.get()),
            std::vector<mcGraphNodeType>{mcGraphNodeTypeMemset});
  LaunchOnce(graph.get());
  EXPECT_EQ(*cell(0), 0x11111111);
}

TEST_P(CaptureWork, HostFunctionIsRecordedNotRun) {
  MX_SPEC("api.graph.capture.records-instead-of-executing");
  HostCounter counter;
  const mcHostNodeParams increment = counter.Increment();
  ASSERT_EQ(Begin(), mcSuccess);
  ASSERT_EQ(mcLaunchHostFunc(stream(), increment.fn, increment.userData),
            mcSuccess);
  ScopedGraph graph;
  EndAndExpectNothingRan(&graph);
  EXPECT_EQ(counter.value(), 0);
  ASSERT_EQ(TypesOf(graph.get()),
            std::vector<mcGraphNodeType>{mcGraphNodeTypeHost});
  mcHostNodeParams params{};
  ASSERT_EQ(mcGraphHostNodeGetParams(Nodes(graph.get())[0], &params),
            mcSuccess);
  EXPECT_EQ(params.fn, increment.fn);
  EXPECT_EQ(params.userData, increment.userData);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(mcGraphLaunch(exec.get(), stream()), mcSuccess);
  }
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(counter.value(), 3);
}

TEST_P(CaptureWork, MallocAsyncIsRecordedAsAnAllocationNode) {
  // Whether a capture records stream-ordered allocation is
  // implementation-defined (CaptureOtherWork accepts either outcome); the
  // reference records it.
  MX_SPEC("api.graph.capture.uncapturable-work-implementation-defined");
  MX_REQUIRE_CAPABILITY("memory_pools");
  MX_REQUIRE_CAPABILITY("reference_choices");
  void* memory = nullptr;
  ASSERT_EQ(Begin(), mcSuccess);
  ASSERT_EQ(mcMallocAsync(&memory, 256, stream()), mcSuccess);
  EXPECT_NE(memory, nullptr) << "the node's address is returned at once";
  ScopedGraph graph;
  EndAndExpectNothingRan(&graph);
  EXPECT_EQ(TypesOf(graph.get()),
            std::vector<mcGraphNodeType>{mcGraphNodeTypeMemAlloc});
  // Control: outside a capture the same call allocates in the stream and
  // records nothing.
  void* direct = nullptr;
  ASSERT_EQ(mcMallocAsync(&direct, 256, stream()), mcSuccess);
  ASSERT_EQ(mcMemsetAsync(direct, 0x22, 256, stream()), mcSuccess);
  EXPECT_EQ(mcFreeAsync(direct, stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
}

TEST_P(CaptureWork, EventRecordAndWaitInTheStreamKeepTheChain) {
  // An event recorded in the capturing stream and waited for by it: the
  // work after the wait still depends on the work before the record.
  MX_SPEC("api.graph.capture.records-instead-of-executing",
          "api.graph.capture.captured-graph-equivalent");
  mcEvent_t event;
  ASSERT_EQ(mcEventCreate(&event), mcSuccess);
  ASSERT_EQ(Begin(), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 0);
  ASSERT_EQ(mcEventRecord(event, stream()), mcSuccess);
  ASSERT_EQ(mcStreamWaitEvent(stream(), event, 0), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 1);
  ScopedGraph graph;
  EndAndExpectNothingRan(&graph);
  EXPECT_EQ(*cell(), 0);
  // As in CUDA, a record and a wait inside one capture make no node of
  // their own: they only carry dependencies.
  const std::vector<mcGraphNode_t> kernels =
      NodesOfType(graph.get(), mcGraphNodeTypeKernel);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(Nodes(graph.get()).size(), 2u);
  EXPECT_TRUE(IsChainInAddOrder(graph.get()));
  LaunchOnce(graph.get());
  EXPECT_EQ(*cell(), 2);
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

TEST_P(CaptureWork, MixedSequenceBecomesAChainInIssueOrder) {
  MX_SPEC("api.graph.capture.records-instead-of-executing",
          "api.graph.capture.captured-graph-equivalent");
  HostLink host_link{cell(), 2};
  ASSERT_EQ(Begin(), mcSuccess);
  ASSERT_EQ(mcMemsetAsync(cell(), 0, sizeof(int), stream()), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 0);
  ASSERT_EQ(
      mcMemcpyAsync(cell(1), cell(), sizeof(int), mcMemcpyDefault, stream()),
      mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 1);
  ASSERT_EQ(mcLaunchHostFunc(stream(), RunHostLink, &host_link), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 3);
  ScopedGraph graph;
  EndAndExpectNothingRan(&graph);
  EXPECT_EQ(
      TypesOf(graph.get()),
      (std::vector<mcGraphNodeType>{
          mcGraphNodeTypeMemset, mcGraphNodeTypeKernel, mcGraphNodeTypeMemcpy,
          mcGraphNodeTypeKernel, mcGraphNodeTypeHost, mcGraphNodeTypeKernel}));
  EXPECT_TRUE(IsChainInAddOrder(graph.get()));
  *cell() = 99;
  LaunchOnce(graph.get());
  EXPECT_EQ(*cell(), 4);
  EXPECT_EQ(*cell(1), 1);
}

TEST_P(CaptureWork, LaunchGivesWhatTheWorkGivesWithoutCapture) {
  MX_SPEC("api.graph.capture.captured-graph-equivalent");
  constexpr int kN = 200;
  int* direct = nullptr;
  int* captured = nullptr;
  ASSERT_EQ(mcMallocManaged(&direct, kN * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&captured, kN * sizeof(int)), mcSuccess);
  auto enqueue = [&](int* data) {
    ASSERT_EQ(mcMemsetAsync(data, 0, kN * sizeof(int), stream()), mcSuccess);
    Affine<<<(kN + 63) / 64, 64, 0, stream()>>>(data, 3, 2, kN);
    Affine<<<(kN + 31) / 32, 32, 0, stream()>>>(data, 5, -1, kN / 2);
    ASSERT_EQ(mcMemcpyAsync(data + kN / 2, data, kN / 4 * sizeof(int),
                            mcMemcpyDefault, stream()),
              mcSuccess);
    Affine<<<1, 64, 0, stream()>>>(data + kN / 4, 7, 1, kN / 2);
  };
  enqueue(direct);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  ASSERT_EQ(Begin(), mcSuccess);
  enqueue(captured);
  ScopedGraph graph;
  EndAndExpectNothingRan(&graph);
  EXPECT_EQ(Nodes(graph.get()).size(), 5u);
  EXPECT_TRUE(IsChainInAddOrder(graph.get()));
  for (int i = 0; i < kN; ++i) captured[i] = -12345;
  LaunchOnce(graph.get());
  for (int i = 0; i < kN; ++i) {
    ASSERT_EQ(captured[i], direct[i]) << i;
  }
  EXPECT_EQ(mcFree(direct), mcSuccess);
  EXPECT_EQ(mcFree(captured), mcSuccess);
}

TEST_P(CaptureWork, WorkBeforeBeginAndAfterEndRunsNormally) {
  MX_SPEC("api.graph.capture.records-instead-of-executing");
  int milliseconds = 10;
  ASSERT_EQ(mcLaunchHostFunc(stream(), SleepFor, &milliseconds), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 0);
  ASSERT_EQ(Begin(), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(1), 0);
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 1);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 2) << "the work around the capture ran, in order";
  EXPECT_EQ(*cell(1), 0) << "the captured work ran";
  EXPECT_EQ(Nodes(graph.get()).size(), 1u);
  LaunchOnce(graph.get());
  EXPECT_EQ(*cell(1), 1);
}

TEST_P(CaptureWork, EmptyCaptureGivesAnEmptyGraph) {
  MX_SPEC("api.graph.capture.records-instead-of-executing");
  ASSERT_EQ(Begin(), mcSuccess);
  ScopedGraph graph;
  ASSERT_EQ(mcStreamEndCapture(stream(), graph.out()), mcSuccess);
  ASSERT_NE(graph.get(), nullptr);
  EXPECT_TRUE(Nodes(graph.get()).empty());
  EXPECT_TRUE(Edges(graph.get()).empty());
  LaunchOnce(graph.get());
}

TEST_P(CaptureWork, CapturedGraphLaunchesRepeatedlyInAnyStream) {
  MX_SPEC("api.graph.capture.captured-graph-equivalent",
          "api.graph.launch.repeatable");
  ASSERT_EQ(Begin(), mcSuccess);
  Affine<<<1, 1, 0, stream()>>>(cell(), 1, 1, 1);
  Affine<<<1, 1, 0, stream()>>>(cell(), 2, 0, 1);
  ScopedGraph graph;
  EndAndExpectNothingRan(&graph);
  ScopedExec exec(graph.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  TestStream other(StreamKind::kNonBlocking);
  ASSERT_EQ(other.status(), mcSuccess);
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(mcGraphLaunch(exec.get(), i % 2 == 0 ? stream() : other.get()),
              mcSuccess);
  }
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(other.get()), mcSuccess);
  // x -> 2 (x + 1), five times from 0: 2, 6, 14, 30, 62.
  EXPECT_EQ(*cell(), 62);
}

TEST_P(CaptureWork, SecondCaptureOfTheSameStreamIsIndependent) {
  MX_SPEC("api.graph.capture.records-instead-of-executing");
  ASSERT_EQ(Begin(), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 0);
  ScopedGraph first;
  ASSERT_EQ(mcStreamEndCapture(stream(), first.out()), mcSuccess);
  ASSERT_EQ(Begin(), mcSuccess);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 1);
  ChainLink<<<1, 1, 0, stream()>>>(cell(), 2);
  ScopedGraph second;
  EndAndExpectNothingRan(&second);
  EXPECT_NE(first.get(), second.get());
  EXPECT_EQ(Nodes(first.get()).size(), 1u);
  EXPECT_EQ(Nodes(second.get()).size(), 2u);
  LaunchOnce(first.get());
  LaunchOnce(second.get());
  EXPECT_EQ(*cell(), 3);
}

// Work besides that which every capture records: either recorded (the
// capture goes on and its graph runs the work) or refused with
// mcErrorStreamCaptureUnsupported, invalidating the capture; which one is
// the implementation's choice.
class CaptureOtherWork : public CaptureWork {
 protected:
  // Checks the capture after the call that enqueued the work returned
  // `result`: a recorded work's graph, launched, makes `ran` true; a
  // refused one leaves the capture invalidated and runs nothing.
  void ExpectRecordedOrRefused(mcError_t result, const bool& ran) {
    if (result == mcSuccess) {
      EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusActive);
      ScopedGraph graph;
      EndAndExpectNothingRan(&graph);
      EXPECT_FALSE(ran) << "the recorded work ran during the capture";
      EXPECT_GT(Nodes(graph.get()).size(), 1u);
      LaunchOnce(graph.get());
      EXPECT_TRUE(ran);
    } else {
      EXPECT_EQ(result, mcErrorStreamCaptureUnsupported);
      EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusInvalidated);
      mcGraph_t graph = reinterpret_cast<mcGraph_t>(&graph);
      EXPECT_EQ(mcStreamEndCapture(stream(), &graph),
                mcErrorStreamCaptureInvalidated);
      EXPECT_EQ(graph, nullptr);
      ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
      EXPECT_FALSE(ran) << "the refused work ran";
    }
    EXPECT_EQ(*cell(), result == mcSuccess ? 1 : 0);
  }
  void BeginWithOneKernel() {
    ASSERT_EQ(Begin(), mcSuccess);
    ChainLink<<<1, 1, 0, stream()>>>(cell(), 0);
    ASSERT_EQ(mcGetLastError(), mcSuccess);
  }
};

void SetFlag(mcStream_t, mcError_t, void* flag) {
  *static_cast<bool*>(flag) = true;
}
void SetFlagHost(void* flag) { *static_cast<bool*>(flag) = true; }

TEST_P(CaptureOtherWork, StreamCallbackIsRecordedOrRefused) {
  MX_SPEC("api.graph.capture.uncapturable-work-implementation-defined");
  bool ran = false;
  BeginWithOneKernel();
  const mcError_t result = mcStreamAddCallback(stream(), SetFlag, &ran, 0);
  ExpectRecordedOrRefused(result, ran);
}

TEST_P(CaptureOtherWork, GraphLaunchIsRecordedOrRefused) {
  MX_SPEC("api.graph.capture.uncapturable-work-implementation-defined");
  bool ran = false;
  ScopedGraph inner;
  mcGraphNode_t node;
  ASSERT_EQ(AddHost(&node, inner.get(), {}, {SetFlagHost, &ran}), mcSuccess);
  ScopedExec exec(inner.get());
  ASSERT_EQ(exec.status(), mcSuccess);
  BeginWithOneKernel();
  const mcError_t result = mcGraphLaunch(exec.get(), stream());
  ExpectRecordedOrRefused(result, ran);
}

TEST_P(CaptureOtherWork, PrefetchIsRecordedOrRefused) {
  MX_SPEC("api.graph.capture.uncapturable-work-implementation-defined");
  bool ran = false;
  BeginWithOneKernel();
  const mcError_t result =
      mcMemPrefetchAsync(cell(1), sizeof(int), device(), stream());
  if (result == mcSuccess) {
    // A prefetch has no effect to observe: a host function after it shows
    // that the graph runs past it.
    ASSERT_EQ(mcLaunchHostFunc(stream(), SetFlagHost, &ran), mcSuccess);
  }
  ExpectRecordedOrRefused(result, ran);
}

TEST_P(CaptureOtherWork, StreamOrderedAllocationIsRecordedOrRefused) {
  MX_SPEC("api.graph.capture.uncapturable-work-implementation-defined");
  MX_REQUIRE_CAPABILITY("memory_pools");
  bool ran = false;
  BeginWithOneKernel();
  int* memory = nullptr;
  mcError_t result = mcMallocAsync(&memory, sizeof(int), stream());
  if (result == mcSuccess) {
    ASSERT_NE(memory, nullptr);
    ASSERT_EQ(mcMemsetAsync(memory, 0, sizeof(int), stream()), mcSuccess);
    ASSERT_EQ(mcFreeAsync(memory, stream()), mcSuccess);
    ASSERT_EQ(mcLaunchHostFunc(stream(), SetFlagHost, &ran), mcSuccess);
    EXPECT_EQ(CaptureStatusOf(stream()), mcStreamCaptureStatusActive);
    EXPECT_EQ(NodesOfType(CaptureGraph(), mcGraphNodeTypeMemAlloc).size(), 1u);
    EXPECT_EQ(NodesOfType(CaptureGraph(), mcGraphNodeTypeMemFree).size(), 1u);
  }
  ExpectRecordedOrRefused(result, ran);
}

INSTANTIATE_TEST_SUITE_P(KindsModesDevices, CaptureOtherWork,
                         CaptureParameters(), CaptureParameterName);

INSTANTIATE_TEST_SUITE_P(KindsModesDevices, CaptureWork, CaptureParameters(),
                         CaptureParameterName);

}  // namespace
}  // namespace mxcts::conformance
