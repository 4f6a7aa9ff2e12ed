// Copyright mxcts authors.
//
// Conformance: the settings the runtime reads from the environment
// (docs/spec/api-environment.md, "General rules"). Every valid value of
// every variable is accepted without a warning and is the setting in force
// (the debug line of the setting shows it); with nothing set every
// variable has its default; and the variables are read once, when the
// runtime initializes: a change afterwards, valid or not, changes nothing
// and is not reported. Each runs in a fresh process. Every check reads
// the runtime's log, so the tests need the logging capability. The invalid
// values beside these are in ../validation/invalid_values_test.cc.

#include <mc_runtime.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "conformance/api/environment/environment_cases.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/captured_output.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

const VariableValue kValidValues[] = {
    {"DeviceOrderFastestFirst", "MACA_DEVICE_ORDER", "FASTEST_FIRST",
     "FASTEST_FIRST"},
    {"DeviceOrderPciBusId", "MACA_DEVICE_ORDER", "PCI_BUS_ID", "PCI_BUS_ID"},
    {"LaunchBlockingZero", "MACA_LAUNCH_BLOCKING", "0", "0"},
    {"LaunchBlockingOne", "MACA_LAUNCH_BLOCKING", "1", "1"},
    {"TrapHandlerZero", "MACA_TRAP_HANDLER", "0", "0"},
    {"TrapHandlerOne", "MACA_TRAP_HANDLER", "1", "1"},
    {"TrapHandlerTwo", "MACA_TRAP_HANDLER", "2", "2"},
    {"GraphLaunchModeZero", "MACA_GRAPH_LAUNCH_MODE", "0", "0"},
    {"GraphLaunchModeOne", "MACA_GRAPH_LAUNCH_MODE", "1", "1"},
    {"DirectDispatchZero", "MACA_DIRECT_DISPATCH", "0", "0"},
    {"DirectDispatchOne", "MACA_DIRECT_DISPATCH", "1", "1"},
    {"LaunchModeZero", "MACA_LAUNCH_MODE", "0", "0"},
    {"LaunchModeOne", "MACA_LAUNCH_MODE", "1", "1"},
    {"LaunchModeTwo", "MACA_LAUNCH_MODE", "2", "2"},
    {"CpuThreadPolicyMinusOne", "MACA_CPU_THREAD_POLICY", "-1", "-1"},
    {"CpuThreadPolicyZero", "MACA_CPU_THREAD_POLICY", "0", "0"},
    {"CpuThreadPolicyOne", "MACA_CPU_THREAD_POLICY", "1", "1"},
    {"CpuThreadPolicyTwo", "MACA_CPU_THREAD_POLICY", "2", "2"},
    {"SyncPolicyZero", "MACA_SYNC_POLICY", "0", "0"},
    {"SyncPolicyOne", "MACA_SYNC_POLICY", "1", "1"},
    {"SyncPolicyTwo", "MACA_SYNC_POLICY", "2", "2"},
    {"SyncPolicyThree", "MACA_SYNC_POLICY", "3", "3"},
    {"PriorityQueueDefault", "MACA_PRIORITY_QUEUE_POLICY", "0", "0"},
    {"PriorityQueueGuideExample", "MACA_PRIORITY_QUEUE_POLICY", "0x1A1",
     "0x1A1"},
    {"PriorityQueueLowerCase", "MACA_PRIORITY_QUEUE_POLICY", "0x1a1", "0x1A1"},
    {"PriorityQueueFourEach", "MACA_PRIORITY_QUEUE_POLICY", "0x444", "0x444"},
    {"PriorityQueueOneLow", "MACA_PRIORITY_QUEUE_POLICY", "0x001", "0x001"},
    {"PriorityQueueTwelve", "MACA_PRIORITY_QUEUE_POLICY", "0xB1", "0x0B1"},
    {"MpsModeZero", "MACA_MPS_MODE", "0", "0"},
    {"MpsModeOne", "MACA_MPS_MODE", "1", "1"},
    {"ModuleLoadingLazy", "MACA_MODULE_LOADING", "LAZY", "LAZY"},
    {"ModuleLoadingEager", "MACA_MODULE_LOADING", "EAGER", "EAGER"},
    {"ModuleLoadingLowerCase", "MACA_MODULE_LOADING", "eager", "EAGER"},
    {"ModuleLoadingMixedCase", "MACA_MODULE_LOADING", "Lazy", "LAZY"},
    {"CacheDisableZero", "MACA_CACHE_DISABLE", "0", "0"},
    {"CacheDisableOne", "MACA_CACHE_DISABLE", "1", "1"},
    {"CacheMaxsizeZero", "MACA_CACHE_MAXSIZE", "0", "0"},
    {"CacheMaxsizeOneMebibyte", "MACA_CACHE_MAXSIZE", "1048576", "1048576"},
    {"CacheMaxsizeCap", "MACA_CACHE_MAXSIZE", "4294967296", "4294967296"},
    {"CacheMaxsizeAboveTheCap", "MACA_CACHE_MAXSIZE", "4294967297",
     "4294967296"},
    {"HotspotMemstackZero", "MACA_HOTSPOT_MEMSTACK", "0", "0"},
    {"HotspotMemstackOne", "MACA_HOTSPOT_MEMSTACK", "1", "1"},
    {"HotspotMemstackTwo", "MACA_HOTSPOT_MEMSTACK", "2", "2"},
    {"KernelTimeoutZero", "MACA_KERNEL_TIMEOUT", "0", "0"},
    {"KernelTimeoutOne", "MACA_KERNEL_TIMEOUT", "1", "1"},
    {"KernelTimeoutLeadingZero", "MACA_KERNEL_TIMEOUT", "0250", "250"},
    {"KernelTimeoutLargest", "MACA_KERNEL_TIMEOUT", "60000", "60000"},
    {"HangTimeoutZero", "MACA_MONITOR_HANG_TIMEOUT", "0", "0"},
    {"HangTimeoutOne", "MACA_MONITOR_HANG_TIMEOUT", "1", "1"},
    {"HangTimeoutLargest", "MACA_MONITOR_HANG_TIMEOUT", "65535", "65535"},
    {"HangTimeoutHexadecimal", "MACA_MONITOR_HANG_TIMEOUT", "0xFFFF", "65535"},
    {"HangTimeoutHexLowerCase", "MACA_MONITOR_HANG_TIMEOUT", "0x3c", "60"},
};

// Runs in the fresh process: no warning, and `shown` is in force.
std::string Accepted(const std::string& variable, const std::string& shown) {
  const std::string log = InitializationLog();
  return CheckNoWarning(log, variable) +
         CheckSettingLine(log, variable, shown, /*defaulted=*/false);
}

class ValidValue : public testing::TestWithParam<VariableValue> {};

TEST_P(ValidValue, IsInForceWithoutAWarning) {
  MX_SPEC("api.env.general.invalid-value-warns",
          "api.env.general.settings-logged-at-debug",
          "api.env.device-order.values", "api.env.trap-handler.values",
          "api.env.launch-blocking.synchronous-launches",
          "api.env.graph-launch-mode.values", "api.env.direct-dispatch.values",
          "api.env.launch-mode.values", "api.env.cpu-thread-policy.values",
          "api.env.sync-policy.values", "api.env.priority-queue-policy.values",
          "api.env.mps-mode.values", "api.env.hotspot-memstack.values",
          "api.env.kernel-timeout.values",
          "api.env.monitor-hang-timeout.values",
          "api.env.module-loading.values", "api.env.cache.variables",
          "api.cache.size.clamped-to-4-gib");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  ScopedEnvironment variable(GetParam().variable, GetParam().value);
  MX_EXPECT_IN_FRESH_PROCESS(Accepted(GetParam().variable, GetParam().shown));
}

INSTANTIATE_TEST_SUITE_P(Values, ValidValue, testing::ValuesIn(kValidValues),
                         VariableValueName);

// --- Unset: every default, no warning. ---

std::string EveryDefault() {
  const std::string log = InitializationLog();
  std::string problems;
  for (const VariableDefault& v : RuntimeVariables()) {
    problems += CheckSettingLine(log, v.variable, v.shown, /*defaulted=*/true);
  }
  if (HasLogLine(log, 'W', "")) problems += "a warning in: " + log;
  return problems;
}

TEST(Unset, EveryVariableHasItsDefault) {
  MX_SPEC("api.env.general.settings-logged-at-debug",
          "api.env.visible-devices.unset-all-visible");
  MX_REQUIRE_CAPABILITY("logging");
  std::vector<std::unique_ptr<ScopedEnvironment>> unset;
  for (const VariableDefault& v : RuntimeVariables()) {
    unset.push_back(std::make_unique<ScopedEnvironment>(v.variable, nullptr));
  }
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", nullptr);
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(EveryDefault());
}

std::string VisibleUnsetLine() {
  const std::string log = InitializationLog();
  return HasLogLine(log, 'D', "environment: MACA_VISIBLE_DEVICES unset")
             ? ""
             : "no line for MACA_VISIBLE_DEVICES in: " + log;
}

TEST(Unset, VisibleDevicesLineSaysUnset) {
  MX_SPEC("api.env.general.settings-logged-at-debug",
          "api.env.visible-devices.unset-all-visible");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", nullptr);
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(VisibleUnsetLine());
}

std::string VisibleSetLine() {
  const std::string log = InitializationLog();
  return HasLogLine(log, 'D', "environment: MACA_VISIBLE_DEVICES=\"0\"")
             ? ""
             : "no line for MACA_VISIBLE_DEVICES in: " + log;
}

TEST(VisibleDevicesSetting, IsLoggedAsSet) {
  MX_SPEC("api.env.general.settings-logged-at-debug",
          "api.env.visible-devices.index-entries");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", "0");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(VisibleSetLine());
}

// --- MACA_CACHE_PATH: the directory in force. ---

// The scratch directory of the test, which stands for the user's choice
// and for the home directory.
std::string ScratchDirectory() {
  const char* tmp = getenv("TEST_TMPDIR");
  return std::string(tmp != nullptr ? tmp : "/tmp");
}

std::string CachePathLine(const std::string& shown, bool defaulted) {
  const std::string log = InitializationLog();
  return CheckSettingLine(log, "MACA_CACHE_PATH", shown, defaulted) +
         CheckNoWarning(log, "MACA_CACHE_PATH");
}

TEST(CachePathSetting, IsLoggedAsSet) {
  MX_SPEC("api.env.general.settings-logged-at-debug", "api.env.cache.variables",
          "api.cache.location.cache-path-variable");
  MX_REQUIRE_CAPABILITY("logging");
  const std::string directory = ScratchDirectory() + "/chosen_cache";
  ScopedEnvironment path("MACA_CACHE_PATH", directory.c_str());
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(CachePathLine(directory, /*defaulted=*/false));
}

TEST(CachePathSetting, UnsetIsTheDefaultUnderHome) {
  MX_SPEC("api.env.general.settings-logged-at-debug", "api.env.cache.variables",
          "api.cache.location.default-directory");
  MX_REQUIRE_CAPABILITY("logging");
  const std::string home = ScratchDirectory() + "/home";
  ScopedEnvironment path("MACA_CACHE_PATH", nullptr);
  ScopedEnvironment home_variable("HOME", home.c_str());
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(
      CachePathLine(home + "/.metax/shadercache", /*defaulted=*/true));
}

// --- Read once. ---

// The first runtime call reads the variables; the program then changes one
// to another valid value and to an invalid one, and uses the runtime in
// ways that start each of its parts (a stream, an allocation, a kernel-free
// synchronization): nothing more is logged about the variable, and no
// second setting line appears.
std::string ReadOnce(const std::string& variable, const std::string& shown,
                     const std::string& other) {
  CapturedStderr capture;
  int count = 0;
  (void)mcGetDeviceCount(&count);
  setenv(variable.c_str(), other.c_str(), 1);
  mcStream_t stream = nullptr;
  (void)mcStreamCreate(&stream);
  void* p = nullptr;
  (void)mcMalloc(&p, 64);
  (void)mcMemsetAsync(p, 0, 64, stream);
  (void)mcStreamSynchronize(stream);
  (void)mcFree(p);
  (void)mcStreamDestroy(stream);
  setenv(variable.c_str(), "not a value", 1);
  (void)mcDeviceSynchronize();
  (void)mcGetDeviceCount(&count);
  const std::string log = capture.Stop();
  return CheckSettingLine(log, variable, shown, /*defaulted=*/false) +
         CheckNoWarning(log, variable);
}

struct OnceCase {
  const char* test_name;
  const char* variable;
  const char* value;
  const char* other;
};

class ReadAtInitialization : public testing::TestWithParam<OnceCase> {};

TEST_P(ReadAtInitialization, LaterChangesAreIgnored) {
  MX_SPEC("api.env.general.read-at-initialization",
          "api.env.general.settings-logged-at-debug");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  ScopedEnvironment variable(GetParam().variable, GetParam().value);
  MX_EXPECT_IN_FRESH_PROCESS(
      ReadOnce(GetParam().variable, GetParam().value, GetParam().other));
}

INSTANTIATE_TEST_SUITE_P(
    Variables, ReadAtInitialization,
    testing::Values(
        OnceCase{"DeviceOrder", "MACA_DEVICE_ORDER", "PCI_BUS_ID",
                 "FASTEST_FIRST"},
        OnceCase{"LaunchBlocking", "MACA_LAUNCH_BLOCKING", "0", "1"},
        OnceCase{"TrapHandler", "MACA_TRAP_HANDLER", "2", "0"},
        OnceCase{"GraphLaunchMode", "MACA_GRAPH_LAUNCH_MODE", "1", "0"},
        OnceCase{"DirectDispatch", "MACA_DIRECT_DISPATCH", "1", "0"},
        OnceCase{"LaunchMode", "MACA_LAUNCH_MODE", "2", "0"},
        OnceCase{"CpuThreadPolicy", "MACA_CPU_THREAD_POLICY", "-1", "2"},
        OnceCase{"SyncPolicy", "MACA_SYNC_POLICY", "3", "1"},
        OnceCase{"PriorityQueuePolicy", "MACA_PRIORITY_QUEUE_POLICY", "0x444",
                 "0x1A1"},
        OnceCase{"MpsMode", "MACA_MPS_MODE", "1", "0"},
        OnceCase{"HotspotMemstack", "MACA_HOTSPOT_MEMSTACK", "0", "2"},
        OnceCase{"KernelTimeout", "MACA_KERNEL_TIMEOUT", "30000", "5"},
        OnceCase{"HangTimeout", "MACA_MONITOR_HANG_TIMEOUT", "600", "1"},
        OnceCase{"ModuleLoading", "MACA_MODULE_LOADING", "EAGER", "LAZY"},
        OnceCase{"CacheDisable", "MACA_CACHE_DISABLE", "1", "0"},
        OnceCase{"CacheMaxsize", "MACA_CACHE_MAXSIZE", "1048576", "2048"}),
    [](const testing::TestParamInfo<OnceCase>& info) {
      return std::string(info.param.test_name);
    });

// The control: a variable set before the first runtime call is in force.
std::string SetBeforeInitialization() {
  setenv("MACA_SYNC_POLICY", "2", 1);
  const std::string log = InitializationLog();
  return CheckSettingLine(log, "MACA_SYNC_POLICY", "2", /*defaulted=*/false);
}

TEST(ReadAtInitialization, AChangeBeforeTheFirstCallIsSeen) {
  MX_SPEC("api.env.general.read-at-initialization");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  ScopedEnvironment variable("MACA_SYNC_POLICY", "1");
  MX_EXPECT_IN_FRESH_PROCESS(SetBeforeInitialization());
}

}  // namespace
}  // namespace mxcts::conformance
