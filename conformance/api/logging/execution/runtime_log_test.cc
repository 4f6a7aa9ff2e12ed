// Copyright mxcts authors.
//
// Conformance: the runtime's own log messages (docs/spec/api-logging.md,
// "Levels" and "Output"). A failed call is logged at the debug level, so
// it is printed at debug and at no other level (the controls); a warning
// of the runtime has the documented line format; MXLOG_LEVEL=off silences
// the runtime while calls still return their errors; the level is read
// once; and no level changes a result or the program's own output (device
// printf included). Each level runs in a fresh process.

#include <mc_runtime.h>
#include <stdlib.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/captured_output.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

struct LevelCase {
  const char* name;
  const char* value;  // null: unset
  bool debug;         // whether debug messages print
};

const LevelCase kLevels[] = {
    {"Unset", nullptr, false},         {"Off", "off", false},
    {"Error", "error", false},         {"Warning", "warning", false},
    {"Info", "info", false},           {"Debug", "debug", true},
    {"UpperCaseDebug", "DEBUG", true},
};

std::string LevelName(const testing::TestParamInfo<LevelCase>& info) {
  return info.param.name;
}

// A failing call after initialization: mcMalloc with a null pointer.
std::string FailedCallLogged(bool logged) {
  int count = 0;
  (void)mcGetDeviceCount(&count);
  CapturedStderr capture;
  const mcError_t error = mcMalloc(nullptr, 16);
  const std::string log = capture.Stop();
  std::string problems;
  if (error != mcErrorInvalidValue) problems += "mcMalloc did not fail; ";
  const std::vector<std::string> lines =
      LogLines(log, 'D', "mcMalloc returned mcErrorInvalidValue");
  if (logged && lines.size() != 1) problems += "not logged: '" + log + "'; ";
  if (!logged && !log.empty()) problems += "logged: '" + log + "'; ";
  return problems;
}

class FailedCall : public testing::TestWithParam<LevelCase> {};

TEST_P(FailedCall, IsLoggedAtTheDebugLevel) {
  MX_SPEC("api.log.output.api-errors-at-debug",
          "api.log.level.threshold-filters", "api.log.level.values",
          "api.log.level.off-silences-runtime", "api.env.mxlog-level.values");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", GetParam().value);
  MX_EXPECT_IN_FRESH_PROCESS(FailedCallLogged(GetParam().debug));
}

INSTANTIATE_TEST_SUITE_P(Levels, FailedCall, testing::ValuesIn(kLevels),
                         LevelName);

// A successful call is not logged, even at debug (the control of the rule
// that failures are).
std::string SuccessNotLogged() {
  int count = 0;
  (void)mcGetDeviceCount(&count);
  CapturedStderr capture;
  void* p = nullptr;
  const mcError_t allocated = mcMalloc(&p, 16);
  const mcError_t freed = mcFree(p);
  const std::string log = capture.Stop();
  if (allocated != mcSuccess || freed != mcSuccess) return "the calls failed";
  return HasLogLine(log, 'D', "returned") ? "logged: " + log : "";
}

TEST(FailedCall, ControlSuccessIsNotLogged) {
  MX_SPEC("api.log.output.api-errors-at-debug");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(SuccessNotLogged());
}

// Different failures name their call and error.
struct FailureCase {
  const char* name;
  mcError_t (*call)();
  const char* text;
};

mcError_t BadDevice() { return mcSetDevice(-1); }
mcError_t BadStream() {
  return mcStreamSynchronize(reinterpret_cast<mcStream_t>(0x10));
}
mcError_t BadCopy() {
  return mcMemcpy(nullptr, nullptr, 16, mcMemcpyHostToDevice);
}
mcError_t BadFree() {
  int local = 0;
  return mcFree(&local);
}

const FailureCase kFailures[] = {
    {"SetDevice", &BadDevice, "mcSetDevice returned mcErrorInvalidDevice"},
    {"StreamSynchronize", &BadStream, "mcStreamSynchronize returned mcError"},
    {"Memcpy", &BadCopy, "mcMemcpy returned mcErrorInvalidValue"},
    {"Free", &BadFree, "mcFree returned mcError"},
};

std::string FailureNamed(const FailureCase& failure) {
  int count = 0;
  (void)mcGetDeviceCount(&count);
  CapturedStderr capture;
  const mcError_t error = failure.call();
  const std::string log = capture.Stop();
  if (error == mcSuccess) return "the call succeeded";
  return HasLogLine(log, 'D', failure.text) ? "" : "not named: '" + log + "'";
}

class FailureMessage : public testing::TestWithParam<FailureCase> {};

TEST_P(FailureMessage, NamesTheCallAndTheError) {
  MX_SPEC("api.log.output.api-errors-at-debug");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(FailureNamed(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Calls, FailureMessage, testing::ValuesIn(kFailures),
                         [](const testing::TestParamInfo<FailureCase>& info) {
                           return std::string(info.param.name);
                         });

// --- The line format of the runtime's messages. ---

// "[MCR][W]<file>:<digits>: <text>"
bool IsRuntimeLine(const std::string& line, char letter) {
  const std::string prefix = std::string("[MCR][") + letter + "]";
  if (line.rfind(prefix, 0) != 0) return false;
  const size_t colon = line.find(':', prefix.size());
  if (colon == std::string::npos || colon == prefix.size()) return false;
  size_t at = colon + 1;
  const size_t digits = at;
  while (at < line.size() &&
         std::isdigit(static_cast<unsigned char>(line[at]))) {
    ++at;
  }
  return at > digits && line.compare(at, 2, ": ") == 0 && at + 2 < line.size();
}

std::string WarningFormat() {
  CapturedStderr capture;
  int count = 0;
  (void)mcGetDeviceCount(&count);
  const std::string log = capture.Stop();
  const std::vector<std::string> lines = LinesOf(log);
  if (lines.size() != 1) return "expected one line: '" + log + "'";
  return IsRuntimeLine(lines[0], 'W') ? "" : "not the format: " + lines[0];
}

TEST(RuntimeLine, HasComponentSeverityLocationAndText) {
  MX_SPEC("api.log.output.message-format",
          "api.env.general.invalid-value-warns");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "warning");
  ScopedEnvironment variable("MACA_SYNC_POLICY", "9");
  MX_EXPECT_IN_FRESH_PROCESS(WarningFormat());
}

TEST(RuntimeLine, ControlTheCheckTellsOtherTextApart) {
  MX_SPEC("api.log.output.message-format");
  MX_REQUIRE_CAPABILITY("logging");
  EXPECT_TRUE(IsRuntimeLine("[MCR][W]a.cc:12: text", 'W'));
  EXPECT_FALSE(IsRuntimeLine("[MCR][W]a.cc: text", 'W'));
  EXPECT_FALSE(IsRuntimeLine("[MCR][E]a.cc:12: text", 'W'));
  EXPECT_FALSE(IsRuntimeLine("MCR W a.cc:12: text", 'W'));
}

// --- Off silences the runtime; calls still fail. ---

std::string SilentButFailing() {
  CapturedStderr capture;
  int count = 0;
  (void)mcGetDeviceCount(&count);
  const mcError_t error = mcMalloc(nullptr, 16);
  void* p = nullptr;
  (void)mcMalloc(&p, 64);  // traced, were the level not off
  (void)mcFree(p);
  const std::string log = capture.Stop();
  std::string problems;
  if (error != mcErrorInvalidValue) problems += "the call did not fail; ";
  if (!log.empty()) problems += "the runtime wrote '" + log + "'; ";
  return problems;
}

TEST(Off, SilencesTheRuntimeButNotItsErrors) {
  MX_SPEC("api.log.level.off-silences-runtime");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "off");
  ScopedEnvironment invalid("MACA_SYNC_POLICY", "9");
  ScopedEnvironment trace("MACA_HOTSPOT_MEMSTACK", "1");
  MX_EXPECT_IN_FRESH_PROCESS(SilentButFailing());
}

std::string SomethingWritten() {
  CapturedStderr capture;
  int count = 0;
  (void)mcGetDeviceCount(&count);
  void* p = nullptr;
  (void)mcMalloc(&p, 64);
  (void)mcFree(p);
  const std::string log = capture.Stop();
  return log.empty() ? "nothing was written" : "";
}

TEST(Off, ControlTheSameProgramLogsAtDebug) {
  MX_SPEC("api.log.level.off-silences-runtime");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  ScopedEnvironment invalid("MACA_SYNC_POLICY", "9");
  ScopedEnvironment trace("MACA_HOTSPOT_MEMSTACK", "1");
  MX_EXPECT_IN_FRESH_PROCESS(SomethingWritten());
}

// --- Read once. ---

std::string LevelKept(const char* later, bool debug) {
  int count = 0;
  (void)mcGetDeviceCount(&count);
  setenv("MXLOG_LEVEL", later, 1);
  CapturedStderr capture;
  (void)mcMalloc(nullptr, 16);
  const std::string log = capture.Stop();
  const bool logged = HasLogLine(log, 'D', "mcMalloc returned");
  return logged == debug ? "" : "the later MXLOG_LEVEL took effect";
}

TEST(RuntimeLevelOnce, DebugStaysDebug) {
  MX_SPEC("api.log.level.read-at-initialization");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(LevelKept("off", true));
}

TEST(RuntimeLevelOnce, OffStaysOff) {
  MX_SPEC("api.log.level.read-at-initialization");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "off");
  MX_EXPECT_IN_FRESH_PROCESS(LevelKept("debug", false));
}

// --- No level changes a result or the program's output. ---

__global__ void Square(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * data[i];
  if (i == 0) printf("device says %d\n", n);
}

std::string SameResultsAndOutput() {
  std::fflush(stdout);
  std::FILE* file = std::tmpfile();
  const int saved = dup(STDOUT_FILENO);
  dup2(fileno(file), STDOUT_FILENO);
  CapturedStderr capture;
  constexpr int kCount = 300;
  int host[kCount];
  for (int i = 0; i < kCount; ++i) host[i] = i - 100;
  int* device = nullptr;
  std::string problems;
  if (mcMalloc(&device, sizeof(host)) != mcSuccess) problems += "mcMalloc; ";
  mcMemcpy(device, host, sizeof(host), mcMemcpyHostToDevice);
  Square<<<(kCount + 127) / 128, 128>>>(device, kCount);
  if (mcDeviceSynchronize() != mcSuccess) problems += "the kernel failed; ";
  mcMemcpy(host, device, sizeof(host), mcMemcpyDeviceToHost);
  mcFree(device);
  (void)mcMalloc(nullptr, 1);  // a failure, logged at debug
  if (mcGetLastError() != mcErrorInvalidValue) problems += "the failure; ";
  std::fflush(stdout);
  capture.Stop();
  dup2(saved, STDOUT_FILENO);
  close(saved);
  std::rewind(file);
  char buffer[256] = {};
  const size_t n = std::fread(buffer, 1, sizeof(buffer) - 1, file);
  std::fclose(file);
  if (std::string(buffer, n) != "device says 300\n") {
    problems += "stdout is '" + std::string(buffer, n) + "'; ";
  }
  for (int i = 0; i < kCount; ++i) {
    if (host[i] != (i - 100) * (i - 100)) {
      problems += "element " + std::to_string(i) + " is wrong; ";
      break;
    }
  }
  return problems;
}

class Results : public testing::TestWithParam<LevelCase> {};

TEST_P(Results, AreTheSameAtEveryLevel) {
  MX_SPEC("api.log.output.logging-does-not-change-results",
          "api.log.output.not-on-stdout");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", GetParam().value);
  MX_EXPECT_IN_FRESH_PROCESS(SameResultsAndOutput());
}

INSTANTIATE_TEST_SUITE_P(Levels, Results, testing::ValuesIn(kLevels),
                         LevelName);

// --- A trap is logged at the error level. ---

__global__ void WriteThrough(int* pointer) { *pointer = 1; }

// Runs a kernel that writes through `pointer`; "" if an error-level line
// of the runtime names the memory violation and the disabled API exactly
// when `logged`.
std::string TrapLine(bool fault, bool logged) {
  int* good = nullptr;
  if (mcMalloc(&good, sizeof(int)) != mcSuccess) return "mcMalloc failed";
  CapturedStderr capture;
  WriteThrough<<<1, 1>>>(fault ? nullptr : good);
  const mcError_t error = mcDeviceSynchronize();
  const std::string log = capture.Stop();
  std::string problems;
  if ((error != mcSuccess) != fault) {
    problems +=
        std::string("the kernel returned ") + mcGetErrorName(error) + "; ";
  }
  const std::vector<std::string> lines =
      LogLines(log, 'E', "Memory violation exception");
  const bool found = lines.size() == 1 &&
                     lines[0].find("disabled") != std::string::npos &&
                     IsRuntimeLine(lines[0], 'E');
  if (found != logged) {
    problems +=
        std::string(logged ? "no" : "an") + " error line in: '" + log + "'";
  }
  return problems;
}

TEST(TrapLog, MemoryViolationIsAnErrorLine) {
  MX_SPEC("api.log.output.trap-logged-as-error",
          "api.log.output.message-format");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "error");
  MX_EXPECT_IN_FRESH_PROCESS(TrapLine(/*fault=*/true, /*logged=*/true));
}

TEST(TrapLog, ControlNoFaultNoLine) {
  MX_SPEC("api.log.output.trap-logged-as-error");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "error");
  MX_EXPECT_IN_FRESH_PROCESS(TrapLine(/*fault=*/false, /*logged=*/false));
}

TEST(TrapLog, OffSilencesIt) {
  MX_SPEC("api.log.output.trap-logged-as-error",
          "api.log.level.off-silences-runtime");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "off");
  MX_EXPECT_IN_FRESH_PROCESS(TrapLine(/*fault=*/true, /*logged=*/false));
}

}  // namespace
}  // namespace mxcts::conformance
