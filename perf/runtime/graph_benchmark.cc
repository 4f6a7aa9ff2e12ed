// Copyright mxcts authors.
//
// Graphs against the stream work they stand for. BM_GraphLaunch/N launches
// an executable graph of N empty kernel nodes in a chain and synchronizes,
// per iteration; in the same run it measures the same N kernels launched
// one by one into a stream and synchronized, and reports the difference
// per node ("graph_overhead_ns_per_node": what a graph launch costs per
// node beyond the kernels' own work; negative when the graph is cheaper)
// and the ratio of the two. BM_GraphLaunchEmptyNodes/N does the same with
// empty nodes, whose own work is nothing: its time per node is the graph's
// own cost per node, reported against a context switch between fibers.
// BM_GraphInstantiate/N instantiates and destroys
// such a graph, per node, against a malloc and free of 256 bytes (a node's
// copy costs at least one).

#include <benchmark/benchmark.h>
#include <mc_runtime.h>

#include <vector>

#include "perf/engine/physical_limits.h"
#include "perf/runtime/call_timing.h"

namespace {

using mxcts::perf::RequireMc;

__global__ void Empty() {}

// A graph of `nodes` empty kernel nodes, each depending on the one before.
mcGraph_t ChainOfKernels(int nodes) {
  mcGraph_t graph = nullptr;
  RequireMc(mcGraphCreate(&graph, 0), "mcGraphCreate");
  mcKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(&Empty);
  params.gridDim = dim3(1);
  params.blockDim = dim3(1);
  mcGraphNode_t previous = nullptr;
  for (int i = 0; i < nodes; ++i) {
    mcGraphNode_t node = nullptr;
    RequireMc(mcGraphAddKernelNode(&node, graph,
                                   previous == nullptr ? nullptr : &previous,
                                   previous == nullptr ? 0 : 1, &params),
              "mcGraphAddKernelNode");
    previous = node;
  }
  return graph;
}

void BM_GraphLaunch(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  mcStream_t stream = nullptr;
  RequireMc(mcStreamCreate(&stream), "mcStreamCreate");
  mcGraph_t graph = ChainOfKernels(nodes);
  mcGraphExec_t exec = nullptr;
  RequireMc(mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0),
            "mcGraphInstantiate");
  RequireMc(mcGraphLaunch(exec, stream), "mcGraphLaunch");  // warms up
  RequireMc(mcStreamSynchronize(stream), "mcStreamSynchronize");

  // The same kernels as stream work, timed over as many rounds.
  const int rounds = 200;
  const double stream_start = mxcts::perf::NowNanoseconds();
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < nodes; ++i) Empty<<<1, 1, 0, stream>>>();
    RequireMc(mcStreamSynchronize(stream), "mcStreamSynchronize");
  }
  const double stream_ns =
      (mxcts::perf::NowNanoseconds() - stream_start) / rounds;
  RequireMc(mcGetLastError(), "Empty<<<1, 1>>>");

  const double graph_ns = mxcts::perf::MeanNanosPerIteration(state, [&] {
    RequireMc(mcGraphLaunch(exec, stream), "mcGraphLaunch");
    RequireMc(mcStreamSynchronize(stream), "mcStreamSynchronize");
  });
  state.counters["ns_per_graph_launch"] = graph_ns;
  state.counters["ns_per_stream_round"] = stream_ns;
  state.counters["graph_overhead_ns_per_node"] = (graph_ns - stream_ns) / nodes;
  state.counters["ratio_to_stream_launches"] = graph_ns / stream_ns;
  mcGraphExecDestroy(exec);
  mcGraphDestroy(graph);
  mcStreamDestroy(stream);
}
BENCHMARK(BM_GraphLaunch)->Arg(1)->Arg(10)->Arg(100)->UseRealTime();

void BM_GraphLaunchEmptyNodes(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  mcStream_t stream = nullptr;
  RequireMc(mcStreamCreate(&stream), "mcStreamCreate");
  mcGraph_t graph = nullptr;
  RequireMc(mcGraphCreate(&graph, 0), "mcGraphCreate");
  mcGraphNode_t previous = nullptr;
  for (int i = 0; i < nodes; ++i) {
    mcGraphNode_t node = nullptr;
    RequireMc(mcGraphAddEmptyNode(&node, graph,
                                  previous == nullptr ? nullptr : &previous,
                                  previous == nullptr ? 0 : 1),
              "mcGraphAddEmptyNode");
    previous = node;
  }
  mcGraphExec_t exec = nullptr;
  RequireMc(mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0),
            "mcGraphInstantiate");
  const double switch_ns = mxcts::perf::ContextSwitchNanoseconds();
  const double per_launch = mxcts::perf::MeanNanosPerIteration(
      state, [&] { RequireMc(mcGraphLaunch(exec, stream), "mcGraphLaunch"); },
      [&] { RequireMc(mcStreamSynchronize(stream), "mcStreamSynchronize"); });
  mxcts::perf::ReportAgainstLimit(state, per_launch / nodes, switch_ns, "node",
                                  "context_switch");
  mcGraphExecDestroy(exec);
  mcGraphDestroy(graph);
  mcStreamDestroy(stream);
}
BENCHMARK(BM_GraphLaunchEmptyNodes)->Arg(1)->Arg(10)->Arg(100)->UseRealTime();

void BM_GraphInstantiate(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  mcGraph_t graph = ChainOfKernels(nodes);
  const double malloc_ns = mxcts::perf::MallocFreeNanoseconds(256);
  const double per_graph = mxcts::perf::MeanNanosPerIteration(state, [&] {
    mcGraphExec_t exec = nullptr;
    RequireMc(mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0),
              "mcGraphInstantiate");
    RequireMc(mcGraphExecDestroy(exec), "mcGraphExecDestroy");
  });
  mxcts::perf::ReportAgainstLimit(state, per_graph / nodes, malloc_ns, "node",
                                  "malloc_free_256");
  mcGraphDestroy(graph);
}
BENCHMARK(BM_GraphInstantiate)->Arg(1)->Arg(10)->Arg(100)->UseRealTime();

}  // namespace
