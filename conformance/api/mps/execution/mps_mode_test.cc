// Copyright mxcts authors.
//
// Conformance: MACA_MPS_MODE changes no result and no error code
// (docs/spec/api-mps.md, "Control"). A child process of the test binary
// runs one workload (copies, a kernel, stream-ordered work with an event,
// and calls that must fail) and reports what every step gave, as
// "step=result;" fields; the report of a child whose MACA_MPS_MODE is 0, 1
// or an invalid value must equal that of a child without the variable.
// No MPS server is started: none is needed. The controls show that the
// comparison tells different runs apart: other inputs give another report,
// and so does a process whose runtime cannot initialize.

#include <mc_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "conformance/api/mps/mps_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

__global__ void ScaleAdd(const int* in, int* out, int n, int factor) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = in[i] * factor + i;
}

namespace mxcts::conformance::mps {
namespace {

constexpr int kCount = 3000;

// FNV-1a of `values`' bytes, in hex.
std::string Checksum(const std::vector<int>& values) {
  uint64_t hash = 1469598103934665603ull;
  const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
  for (size_t i = 0; i < values.size() * sizeof(int); ++i) {
    hash = (hash ^ bytes[i]) * 1099511628211ull;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx",
                static_cast<unsigned long long>(hash));
  return text;
}

// The workload's input for `seed`.
std::vector<int> Input(int seed) {
  std::vector<int> in(kCount);
  for (int i = 0; i < kCount; ++i) in[i] = i * seed + 7;
  return in;
}

// What the kernel must compute from Input(seed).
std::vector<int> ExpectedOutput(int seed) {
  std::vector<int> out = Input(seed);
  for (int i = 0; i < kCount; ++i) out[i] = out[i] * (seed + 2) + i;
  return out;
}

// What the stream's set-then-copy must leave in the input buffer.
std::vector<int> ExpectedCopy(int seed) {
  std::vector<int> copy(kCount, 0);
  std::vector<int> out = ExpectedOutput(seed);
  for (int i = 0; i < kCount / 2; ++i) copy[i] = out[i];
  return copy;
}

// Runs the workload on device 0 with the inputs of `seed`; the report,
// one "step=result;" field per step.
std::string Workload(int seed) {
  std::string report;
  auto add = [&report](const char* step, const std::string& result) {
    report += std::string(step) + "=" + result + ";";
  };
  auto call = [&add](const char* step, mcError_t error) {
    add(step, mcGetErrorName(error));
  };
  int count = 0;
  const mcError_t init = mcGetDeviceCount(&count);
  call("init", init);
  add("devices", std::to_string(count));
  if (init != mcSuccess) return report;
  call("set_device", mcSetDevice(0));

  const size_t bytes = kCount * sizeof(int);
  int* in = nullptr;
  int* out = nullptr;
  call("malloc_in", mcMalloc(&in, bytes));
  call("malloc_out", mcMalloc(&out, bytes));
  std::vector<int> host = Input(seed);
  call("copy_in", mcMemcpy(in, host.data(), bytes, mcMemcpyHostToDevice));
  ScaleAdd<<<(kCount + 255) / 256, 256>>>(in, out, kCount, seed + 2);
  call("launch", mcGetLastError());

  // Stream-ordered work, completed through an event.
  mcStream_t stream = nullptr;
  mcEvent_t event = nullptr;
  call("stream_create", mcStreamCreate(&stream));
  call("event_create", mcEventCreate(&event));
  call("memset_async", mcMemsetAsync(in, 0, bytes, stream));
  call("copy_async",
       mcMemcpyAsync(in, out, bytes / 2, mcMemcpyDeviceToDevice, stream));
  call("event_record", mcEventRecord(event, stream));
  call("event_synchronize", mcEventSynchronize(event));

  std::vector<int> result(kCount), copy(kCount);
  call("copy_out", mcMemcpy(result.data(), out, bytes, mcMemcpyDeviceToHost));
  call("copy_back", mcMemcpy(copy.data(), in, bytes, mcMemcpyDeviceToHost));
  add("result", Checksum(result));
  add("copy", Checksum(copy));

  // Calls that must fail; each error is reported where it happens.
  call("malloc_null", mcMalloc(nullptr, 16));
  call("memcpy_bad_kind",
       mcMemcpy(result.data(), out, 16, static_cast<mcMemcpyKind>(99)));
  call("set_device_out_of_range", mcSetDevice(count));
  ScaleAdd<<<1, 4096>>>(in, out, kCount, 1);
  call("launch_too_many_threads", mcGetLastError());
  call("last_error_cleared", mcGetLastError());

  call("event_destroy", mcEventDestroy(event));
  call("stream_destroy", mcStreamDestroy(stream));
  call("free_in", mcFree(in));
  call("free_out", mcFree(out));
  call("synchronize", mcDeviceSynchronize());
  return report;
}

// The steps of Workload that must succeed.
const char* const kGoodSteps[] = {
    "init",           "set_device", "malloc_in",          "malloc_out",
    "copy_in",        "launch",     "stream_create",      "event_create",
    "memset_async",   "copy_async", "event_record",       "event_synchronize",
    "copy_out",       "copy_back",  "last_error_cleared", "event_destroy",
    "stream_destroy", "free_in",    "free_out",           "synchronize"};

// Child: argument "seed=<s>". Runs Workload(s) and sends its report.
MX_CHILD_ROLE(Workload) {
  parent.Send(Workload(static_cast<int>(ChildArgument(argument, "seed", 1))));
  return "";
}

// The report of a Workload child started with `mode` and `environment`,
// or why there is none.
std::string WorkloadReport(
    const ModeSetting& mode, int seed,
    const std::vector<std::pair<std::string, std::string>>& environment = {}) {
  std::unique_ptr<ChildProcess> child =
      StartChild(mode, "Workload", "seed=" + std::to_string(seed), environment);
  std::string report = child->Receive();
  const int code = child->Wait();
  if (code != 0) return "the child exited with " + std::to_string(code);
  return report;
}

// "" if `report` shows every good step succeeding and the results of
// `seed`, else what is wrong.
std::string CheckGoodReport(const std::string& report, int seed) {
  std::string problems;
  for (const char* step : kGoodSteps) {
    const std::string result = ReportField(report, step);
    if (result != "mcSuccess") {
      problems += std::string(step) + " gave " + result + "; ";
    }
  }
  if (ReportField(report, "result") != Checksum(ExpectedOutput(seed))) {
    problems += "the kernel computed wrong values; ";
  }
  if (ReportField(report, "copy") != Checksum(ExpectedCopy(seed))) {
    problems += "the stream's copy left wrong values; ";
  }
  return problems;
}

class DefinedMode : public testing::TestWithParam<ModeSetting> {};

TEST_P(DefinedMode, SameResultsAndErrorsAsWithoutTheVariable) {
  MX_SPEC("api.mps.mode.results-independent-of-mode", "api.mps.mode.values",
          "api.env.mps-mode.values",
          "api.env.general.results-unaffected-by-policy-variables");
  MX_MPS_REQUIRE();
  const std::string without = WorkloadReport(kUnset, 1);
  ASSERT_EQ(CheckGoodReport(without, 1), "") << without;
  // The failing calls fail with their own errors.
  EXPECT_EQ(ReportField(without, "malloc_null"), "mcErrorInvalidValue");
  EXPECT_EQ(ReportField(without, "memcpy_bad_kind"),
            "mcErrorInvalidMemcpyDirection");
  EXPECT_EQ(ReportField(without, "set_device_out_of_range"),
            "mcErrorInvalidDevice");
  EXPECT_EQ(ReportField(without, "launch_too_many_threads"),
            "mcErrorInvalidConfiguration");
  EXPECT_EQ(WorkloadReport(GetParam(), 1), without);
}

INSTANTIATE_TEST_SUITE_P(Settings, DefinedMode,
                         testing::ValuesIn(DefinedModes()), ModeSettingName);

TEST(WorkloadReports, OtherInputsGiveAnotherReport) {
  MX_SPEC("api.mps.mode.results-independent-of-mode");
  MX_MPS_REQUIRE();
  // Control: the comparison above sees a change of results.
  const std::string first = WorkloadReport(kShared, 1);
  const std::string second = WorkloadReport(kShared, 2);
  EXPECT_EQ(CheckGoodReport(second, 2), "") << second;
  EXPECT_NE(first, second);
}

class InvalidMode : public testing::TestWithParam<ModeSetting> {};

TEST_P(InvalidMode, InitializesAndBehavesAsZero) {
  MX_SPEC("api.mps.mode.invalid-value-implementation-defined",
          "api.env.general.invalid-value-uses-default");
  MX_MPS_REQUIRE();
  const std::string zero = WorkloadReport(kExclusive, 1);
  ASSERT_EQ(CheckGoodReport(zero, 1), "") << zero;
  EXPECT_EQ(WorkloadReport(GetParam(), 1), zero);
}

INSTANTIATE_TEST_SUITE_P(Values, InvalidMode, testing::ValuesIn(InvalidModes()),
                         ModeSettingName);

TEST(SharedMode, RunsWithoutAServer) {
  MX_SPEC("api.mps.no-server-process-needed", "api.mps.mode.values");
  MX_MPS_REQUIRE();
  // No server process runs: this test starts none.
  const std::string shared = WorkloadReport(kShared, 1);
  EXPECT_EQ(CheckGoodReport(shared, 1), "") << shared;
  EXPECT_EQ(shared.find("mcErrorMps"), std::string::npos) << shared;
}

TEST(WorkloadReports, FailedInitializationShows) {
  MX_SPEC("api.mps.no-server-process-needed",
          "api.mps.mode.invalid-value-implementation-defined");
  MX_MPS_REQUIRE();
  // Control: a process whose runtime finds no device reports it, so the
  // checks above would see an initialization or a call that failed.
  const std::string none =
      WorkloadReport(kShared, 1, {{"MACA_VISIBLE_DEVICES", ""}});
  EXPECT_EQ(ReportField(none, "init"), "mcErrorNoDevice") << none;
  EXPECT_NE(CheckGoodReport(none, 1), "");
}

}  // namespace
}  // namespace mxcts::conformance::mps
