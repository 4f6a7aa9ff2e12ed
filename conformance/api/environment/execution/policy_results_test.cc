// Copyright mxcts authors.
//
// Conformance: the policy variables change no result
// (docs/spec/api-environment.md,
// api.env.general.results-unaffected-by-policy-variables). One program
// (kernels in two streams ordered by an event, copies, a host function, a
// captured graph launched twice) runs in a fresh process under every valid
// value of every policy variable, and its results are checked against the
// values computed on the host. The control: the same check, given a
// program that computes something else, reports the difference.

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kCount = 1000;

__global__ void Scale(float* data, float factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor;
}

__global__ void AddIndex(float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] + static_cast<float>(i);
}

void CountCall(void* counter) { ++*static_cast<int*>(counter); }

// Runs the program with `factor`; "" and the results in `out`, or why it
// failed.
std::string RunProgram(float factor, std::vector<float>* out) {
  std::vector<float> host(kCount);
  for (int i = 0; i < kCount; ++i) host[i] = 0.5f * static_cast<float>(i);
  float* data = nullptr;
  mcStream_t first = nullptr, second = nullptr;
  mcEvent_t done = nullptr;
  if (mcMalloc(&data, kCount * sizeof(float)) != mcSuccess ||
      mcStreamCreateWithFlags(&first, mcStreamNonBlocking) != mcSuccess ||
      mcStreamCreateWithFlags(&second, mcStreamNonBlocking) != mcSuccess ||
      mcEventCreate(&done) != mcSuccess) {
    return "setting up failed";
  }
  const int blocks = (kCount + 255) / 256;
  int calls = 0;
  std::string problems;
  if (mcMemcpyAsync(data, host.data(), kCount * sizeof(float),
                    mcMemcpyHostToDevice, first) != mcSuccess) {
    problems += "the first copy failed; ";
  }
  Scale<<<blocks, 256, 0, first>>>(data, factor, kCount);
  if (mcEventRecord(done, first) != mcSuccess ||
      mcStreamWaitEvent(second, done, 0) != mcSuccess) {
    problems += "the event failed; ";
  }
  AddIndex<<<blocks, 256, 0, second>>>(data, kCount);
  if (mcLaunchHostFunc(second, CountCall, &calls) != mcSuccess) {
    problems += "mcLaunchHostFunc failed; ";
  }
  // A graph of one more kernel, captured and launched twice.
  mcGraph_t graph = nullptr;
  mcGraphExec_t exec = nullptr;
  if (mcStreamBeginCapture(second, mcStreamCaptureModeGlobal) != mcSuccess) {
    problems += "the capture did not begin; ";
  }
  AddIndex<<<blocks, 256, 0, second>>>(data, kCount);
  if (mcStreamEndCapture(second, &graph) != mcSuccess ||
      mcGraphInstantiate(&exec, graph, nullptr, nullptr, 0) != mcSuccess ||
      mcGraphLaunch(exec, second) != mcSuccess ||
      mcGraphLaunch(exec, second) != mcSuccess) {
    problems += "the graph failed; ";
  }
  out->assign(kCount, 0.0f);
  if (mcMemcpyAsync(out->data(), data, kCount * sizeof(float),
                    mcMemcpyDeviceToHost, second) != mcSuccess ||
      mcStreamSynchronize(second) != mcSuccess) {
    problems += "the last copy failed; ";
  }
  if (calls != 1)
    problems += "the host function ran " + std::to_string(calls) + " times; ";
  mcGraphExecDestroy(exec);
  mcGraphDestroy(graph);
  mcEventDestroy(done);
  mcStreamDestroy(first);
  mcStreamDestroy(second);
  mcFree(data);
  if (mcGetLastError() != mcSuccess) problems += "a launch failed; ";
  return problems;
}

// "" if the program run with `factor` computes what the host computes
// with `expected_factor`.
std::string SameResults(float factor, float expected_factor) {
  std::vector<float> results;
  std::string problems = RunProgram(factor, &results);
  if (!problems.empty()) return problems;
  for (int i = 0; i < kCount; ++i) {
    const float expected =
        0.5f * static_cast<float>(i) * expected_factor + 3.0f * i;
    if (results[i] != expected) {
      return "element " + std::to_string(i) + " is " +
             std::to_string(results[i]) + ", expected " +
             std::to_string(expected);
    }
  }
  return "";
}

struct PolicyCase {
  const char* name;
  const char* variable;
  const char* value;
};

class PolicyVariable : public testing::TestWithParam<PolicyCase> {};

TEST_P(PolicyVariable, ResultsAreTheSame) {
  MX_SPEC("api.env.general.results-unaffected-by-policy-variables",
          "api.env.graph-launch-mode.values", "api.env.direct-dispatch.values",
          "api.env.launch-mode.values", "api.env.cpu-thread-policy.values",
          "api.env.sync-policy.values", "api.env.priority-queue-policy.values",
          "api.env.mps-mode.values", "api.env.launch-blocking.same-results");
  ScopedEnvironment variable(GetParam().variable, GetParam().value);
  MX_EXPECT_IN_FRESH_PROCESS(SameResults(2.0f, 2.0f));
}

INSTANTIATE_TEST_SUITE_P(
    Values, PolicyVariable,
    testing::Values(
        PolicyCase{"GraphLaunchModeZero", "MACA_GRAPH_LAUNCH_MODE", "0"},
        PolicyCase{"GraphLaunchModeOne", "MACA_GRAPH_LAUNCH_MODE", "1"},
        PolicyCase{"DirectDispatchZero", "MACA_DIRECT_DISPATCH", "0"},
        PolicyCase{"DirectDispatchOne", "MACA_DIRECT_DISPATCH", "1"},
        PolicyCase{"LaunchModeZero", "MACA_LAUNCH_MODE", "0"},
        PolicyCase{"LaunchModeOne", "MACA_LAUNCH_MODE", "1"},
        PolicyCase{"LaunchModeTwo", "MACA_LAUNCH_MODE", "2"},
        PolicyCase{"CpuThreadPolicyMinusOne", "MACA_CPU_THREAD_POLICY", "-1"},
        PolicyCase{"CpuThreadPolicyZero", "MACA_CPU_THREAD_POLICY", "0"},
        PolicyCase{"CpuThreadPolicyOne", "MACA_CPU_THREAD_POLICY", "1"},
        PolicyCase{"CpuThreadPolicyTwo", "MACA_CPU_THREAD_POLICY", "2"},
        PolicyCase{"SyncPolicyZero", "MACA_SYNC_POLICY", "0"},
        PolicyCase{"SyncPolicyOne", "MACA_SYNC_POLICY", "1"},
        PolicyCase{"SyncPolicyTwo", "MACA_SYNC_POLICY", "2"},
        PolicyCase{"SyncPolicyThree", "MACA_SYNC_POLICY", "3"},
        PolicyCase{"PriorityQueueDefault", "MACA_PRIORITY_QUEUE_POLICY", "0"},
        PolicyCase{"PriorityQueueGuideExample", "MACA_PRIORITY_QUEUE_POLICY",
                   "0x1A1"},
        PolicyCase{"MpsModeZero", "MACA_MPS_MODE", "0"},
        PolicyCase{"MpsModeOne", "MACA_MPS_MODE", "1"},
        PolicyCase{"LaunchBlockingZero", "MACA_LAUNCH_BLOCKING", "0"},
        PolicyCase{"LaunchBlockingOne", "MACA_LAUNCH_BLOCKING", "1"}),
    [](const testing::TestParamInfo<PolicyCase>& info) {
      return std::string(info.param.name);
    });

// The control: a program that computes something else is told apart.
TEST(PolicyVariable, ControlDifferentResultsAreSeen) {
  MX_SPEC("api.env.general.results-unaffected-by-policy-variables");
  EXPECT_NE(SameResults(3.0f, 2.0f), "");
  EXPECT_EQ(SameResults(2.0f, 2.0f), "");
}

}  // namespace
}  // namespace mxcts::conformance
