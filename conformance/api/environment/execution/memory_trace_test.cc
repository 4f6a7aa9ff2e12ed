// Copyright mxcts authors.
//
// Conformance: MACA_HOTSPOT_MEMSTACK on the reference
// (docs/spec/api-environment.md, "Debugging"): with 1 every allocation and
// release call of the API is traced in the runtime's log with its caller,
// with 2 also with its call stack; with 0 (and unset) nothing is traced,
// which is the control. Tracing is an info-level log message, so
// MXLOG_LEVEL=warning hides it, and it never changes a call's result.
// Each setting runs in a fresh process. The trace is a log message, so
// the checks that it appears need the logging capability.

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/captured_output.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// One traced call: what the program does, and what the trace line starts
// with after "memory trace: ".
struct TracedCall {
  const char* name;
  const char* trace;  // e.g. "mcMalloc(4096 bytes) = 0x"
  mcError_t (*run)();
};

mcError_t Malloc() {
  void* p = nullptr;
  const mcError_t error = mcMalloc(&p, 4096);
  mcFree(p);
  return error;
}
mcError_t Free() {
  void* p = nullptr;
  mcMalloc(&p, 64);
  return mcFree(p);
}
mcError_t MallocManaged() {
  void* p = nullptr;
  const mcError_t error = mcMallocManaged(&p, 4096);
  mcFree(p);
  return error;
}
mcError_t MallocHost() {
  void* p = nullptr;
  const mcError_t error = mcMallocHost(&p, 4096);
  mcFreeHost(p);
  return error;
}
mcError_t HostAlloc() {
  void* p = nullptr;
  const mcError_t error = mcHostAlloc(&p, 4096, mcHostAllocDefault);
  mcFreeHost(p);
  return error;
}
mcError_t FreeHost() {
  void* p = nullptr;
  mcMallocHost(&p, 64);
  return mcFreeHost(p);
}
mcError_t MallocPitch() {
  void* p = nullptr;
  size_t pitch = 0;
  const mcError_t error = mcMallocPitch(&p, &pitch, 100, 4);
  mcFree(p);
  return error;
}
mcError_t Malloc3D() {
  mcPitchedPtr p{};
  const mcError_t error = mcMalloc3D(&p, make_mcExtent(100, 2, 2));
  mcFree(p.ptr);
  return error;
}
mcError_t MallocAsync() {
  void* p = nullptr;
  const mcError_t error = mcMallocAsync(&p, 4096, nullptr);
  mcFreeAsync(p, nullptr);
  mcStreamSynchronize(nullptr);
  return error;
}
mcError_t FreeAsync() {
  void* p = nullptr;
  mcMallocAsync(&p, 64, nullptr);
  const mcError_t error = mcFreeAsync(p, nullptr);
  mcStreamSynchronize(nullptr);
  return error;
}
mcError_t FailedMalloc() {
  return mcMalloc(nullptr, 64) == mcErrorInvalidValue ? mcSuccess
                                                      : mcErrorUnknown;
}

const TracedCall kCalls[] = {
    {"Malloc", "mcMalloc(4096 bytes) = 0x", &Malloc},
    {"Free", "mcFree(0x", &Free},
    {"MallocManaged", "mcMallocManaged(4096 bytes) = 0x", &MallocManaged},
    {"MallocHost", "mcMallocHost(4096 bytes) = 0x", &MallocHost},
    {"HostAlloc", "mcHostAlloc(4096 bytes) = 0x", &HostAlloc},
    {"FreeHost", "mcFreeHost(0x", &FreeHost},
    {"MallocPitch", "mcMallocPitch(", &MallocPitch},
    {"Malloc3D", "mcMalloc3D(", &Malloc3D},
    {"MallocAsync", "mcMallocAsync(4096 bytes) = 0x", &MallocAsync},
    {"FreeAsync", "mcFreeAsync(0x", &FreeAsync},
    {"FailedMalloc", "mcMalloc(64 bytes) = ", &FailedMalloc},
};

// Runs in the fresh process: the call's trace lines, or why the call
// failed.
std::string TraceOf(const TracedCall& call, std::vector<std::string>* lines) {
  int count = 0;
  mcGetDeviceCount(&count);  // initialization logs nothing traced
  CapturedStderr capture;
  const mcError_t error = call.run();
  const std::string log = capture.Stop();
  if (error != mcSuccess) {
    return std::string(call.name) + " failed: " + mcGetErrorName(error);
  }
  *lines = LogLines(log, 'I', std::string("memory trace: ") + call.trace);
  return "";
}

std::string Traced(const TracedCall& call, bool with_stack) {
  std::vector<std::string> lines;
  std::string problems = TraceOf(call, &lines);
  if (!problems.empty()) return problems;
  if (lines.empty()) return "no trace line for " + std::string(call.trace);
  for (const std::string& line : lines) {
    if (line.find(", called from ") == std::string::npos) {
      problems += "no caller: " + line + "; ";
    }
    const bool has_stack = line.find("; stack: ") != std::string::npos;
    if (has_stack != with_stack) {
      problems +=
          std::string(with_stack ? "no" : "a") + " stack: " + line + "; ";
    }
  }
  return problems;
}

std::string NotTraced(const TracedCall& call) {
  std::vector<std::string> lines;
  const std::string problems = TraceOf(call, &lines);
  if (!problems.empty()) return problems;
  return lines.empty() ? "" : "traced: " + lines[0];
}

std::string CallName(const testing::TestParamInfo<TracedCall>& info) {
  return info.param.name;
}

class MemstackOne : public testing::TestWithParam<TracedCall> {};
TEST_P(MemstackOne, TracesTheCallAndItsCaller) {
  MX_SPEC("api.env.hotspot-memstack.values",
          "api.env.hotspot-memstack.reference-trace");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", nullptr);
  ScopedEnvironment memstack("MACA_HOTSPOT_MEMSTACK", "1");
  MX_EXPECT_IN_FRESH_PROCESS(Traced(GetParam(), /*with_stack=*/false));
}
INSTANTIATE_TEST_SUITE_P(Calls, MemstackOne, testing::ValuesIn(kCalls),
                         CallName);

class MemstackTwo : public testing::TestWithParam<TracedCall> {};
TEST_P(MemstackTwo, TracesTheCallWithItsStack) {
  MX_SPEC("api.env.hotspot-memstack.values",
          "api.env.hotspot-memstack.reference-trace");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", nullptr);
  ScopedEnvironment memstack("MACA_HOTSPOT_MEMSTACK", "2");
  MX_EXPECT_IN_FRESH_PROCESS(Traced(GetParam(), /*with_stack=*/true));
}
INSTANTIATE_TEST_SUITE_P(Calls, MemstackTwo, testing::ValuesIn(kCalls),
                         CallName);

// The controls: no tracing when off, unset, or filtered by the log level.
struct OffCase {
  const char* name;
  const char* memstack;
  const char* level;
};

class MemstackOff : public testing::TestWithParam<OffCase> {};
TEST_P(MemstackOff, TracesNothing) {
  MX_SPEC("api.env.hotspot-memstack.values",
          "api.env.hotspot-memstack.reference-trace",
          "api.log.level.threshold-filters");
  ScopedEnvironment level("MXLOG_LEVEL", GetParam().level);
  ScopedEnvironment memstack("MACA_HOTSPOT_MEMSTACK", GetParam().memstack);
  MX_EXPECT_IN_FRESH_PROCESS(NotTraced(kCalls[0]) + NotTraced(kCalls[1]));
}
INSTANTIATE_TEST_SUITE_P(
    Settings, MemstackOff,
    testing::Values(OffCase{"Zero", "0", nullptr},
                    OffCase{"Unset", nullptr, nullptr},
                    OffCase{"Invalid", "5", nullptr},
                    OffCase{"OneAtWarningLevel", "1", "warning"},
                    OffCase{"TwoAtErrorLevel", "2", "error"},
                    OffCase{"OneAtOff", "1", "off"}),
    [](const testing::TestParamInfo<OffCase>& info) {
      return std::string(info.param.name);
    });

// Tracing changes no result: a program's data round-trips the same.
std::string RoundTrip() {
  int* device = nullptr;
  if (mcMalloc(&device, 256 * sizeof(int)) != mcSuccess) return "mcMalloc";
  int in[256], out[256];
  for (int i = 0; i < 256; ++i) in[i] = i * 7 - 3;
  if (mcMemcpy(device, in, sizeof(in), mcMemcpyHostToDevice) != mcSuccess ||
      mcMemcpy(out, device, sizeof(out), mcMemcpyDeviceToHost) != mcSuccess) {
    return "mcMemcpy failed";
  }
  if (mcFree(device) != mcSuccess) return "mcFree failed";
  for (int i = 0; i < 256; ++i) {
    if (out[i] != in[i]) return "the data changed";
  }
  return "";
}

class MemstackResults : public testing::TestWithParam<const char*> {};
TEST_P(MemstackResults, AreUnchanged) {
  MX_SPEC("api.env.hotspot-memstack.values");
  ScopedEnvironment memstack("MACA_HOTSPOT_MEMSTACK", GetParam());
  MX_EXPECT_IN_FRESH_PROCESS(RoundTrip());
}
INSTANTIATE_TEST_SUITE_P(Values, MemstackResults,
                         testing::Values("0", "1", "2"));

}  // namespace
}  // namespace mxcts::conformance
