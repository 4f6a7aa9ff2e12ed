// Copyright mxcts authors.
//
// Conformance: invalid values of the environment variables
// (docs/spec/api-environment.md, "General rules"). Each value is set in a
// fresh process, since the runtime reads its variables once, when it
// initializes. An invalid value is reported by one warning that names the
// variable, the value and the value used instead, and the default applies
// (the debug line of the setting says which value is in force); a warning
// is a log message, filtered out by MXLOG_LEVEL=error and off. The
// controls beside them: valid values give no warning and are in force
// (../execution/settings_test.cc), and a number above a timeout's range is
// clamped rather than ignored. Warnings and debug lines are the runtime's
// log: those checks run where the backend claims the logging capability;
// that an invalid value never stops the runtime from initializing is
// checked everywhere.

#include <mc_runtime.h>
#include <stdlib.h>

#include <string>

#include "conformance/api/environment/environment_cases.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/captured_output.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Invalid values of every variable, each shown as the default that applies.
const VariableValue kInvalidValues[] = {
    {"DeviceOrderLowerCase", "MACA_DEVICE_ORDER", "fastest_first", ""},
    {"DeviceOrderAbbreviated", "MACA_DEVICE_ORDER", "PCI", ""},
    {"DeviceOrderTrailingSpace", "MACA_DEVICE_ORDER", "PCI_BUS_ID ", ""},
    {"DeviceOrderEmpty", "MACA_DEVICE_ORDER", "", ""},
    {"LaunchBlockingTwo", "MACA_LAUNCH_BLOCKING", "2", ""},
    {"LaunchBlockingYes", "MACA_LAUNCH_BLOCKING", "yes", ""},
    {"LaunchBlockingTrue", "MACA_LAUNCH_BLOCKING", "true", ""},
    {"LaunchBlockingNegative", "MACA_LAUNCH_BLOCKING", "-1", ""},
    {"LaunchBlockingLeadingSpace", "MACA_LAUNCH_BLOCKING", " 1", ""},
    {"LaunchBlockingEmpty", "MACA_LAUNCH_BLOCKING", "", ""},
    {"TrapHandlerThree", "MACA_TRAP_HANDLER", "3", ""},
    {"TrapHandlerNegative", "MACA_TRAP_HANDLER", "-1", ""},
    {"TrapHandlerLeadingZero", "MACA_TRAP_HANDLER", "02", ""},
    {"TrapHandlerWord", "MACA_TRAP_HANDLER", "two", ""},
    {"TrapHandlerEmpty", "MACA_TRAP_HANDLER", "", ""},
    {"GraphLaunchModeTwo", "MACA_GRAPH_LAUNCH_MODE", "2", ""},
    {"GraphLaunchModeWord", "MACA_GRAPH_LAUNCH_MODE", "on", ""},
    {"GraphLaunchModeEmpty", "MACA_GRAPH_LAUNCH_MODE", "", ""},
    {"DirectDispatchTwo", "MACA_DIRECT_DISPATCH", "2", ""},
    {"DirectDispatchDecimalPoint", "MACA_DIRECT_DISPATCH", "1.0", ""},
    {"DirectDispatchEmpty", "MACA_DIRECT_DISPATCH", "", ""},
    {"LaunchModeThree", "MACA_LAUNCH_MODE", "3", ""},
    {"LaunchModeNegative", "MACA_LAUNCH_MODE", "-1", ""},
    {"LaunchModeEmpty", "MACA_LAUNCH_MODE", "", ""},
    {"CpuThreadPolicyMinusTwo", "MACA_CPU_THREAD_POLICY", "-2", ""},
    {"CpuThreadPolicyThree", "MACA_CPU_THREAD_POLICY", "3", ""},
    {"CpuThreadPolicyPlusSign", "MACA_CPU_THREAD_POLICY", "+1", ""},
    {"CpuThreadPolicyEmpty", "MACA_CPU_THREAD_POLICY", "", ""},
    {"SyncPolicyFour", "MACA_SYNC_POLICY", "4", ""},
    {"SyncPolicySeven", "MACA_SYNC_POLICY", "7", ""},
    {"SyncPolicyHexadecimal", "MACA_SYNC_POLICY", "0x1", ""},
    {"SyncPolicyEmpty", "MACA_SYNC_POLICY", "", ""},
    {"PriorityQueueNoLowQueue", "MACA_PRIORITY_QUEUE_POLICY", "0x110", ""},
    {"PriorityQueueTooMany", "MACA_PRIORITY_QUEUE_POLICY", "0x555", ""},
    {"PriorityQueueFourDigits", "MACA_PRIORITY_QUEUE_POLICY", "0x1000", ""},
    {"PriorityQueueDecimal", "MACA_PRIORITY_QUEUE_POLICY", "273", ""},
    {"PriorityQueueNotHex", "MACA_PRIORITY_QUEUE_POLICY", "0xG1", ""},
    {"PriorityQueueEmpty", "MACA_PRIORITY_QUEUE_POLICY", "", ""},
    {"MpsModeTwo", "MACA_MPS_MODE", "2", ""},
    {"MpsModeWord", "MACA_MPS_MODE", "shared", ""},
    {"MpsModeEmpty", "MACA_MPS_MODE", "", ""},
    {"HotspotMemstackThree", "MACA_HOTSPOT_MEMSTACK", "3", ""},
    {"HotspotMemstackNegative", "MACA_HOTSPOT_MEMSTACK", "-1", ""},
    {"HotspotMemstackWord", "MACA_HOTSPOT_MEMSTACK", "on", ""},
    {"HotspotMemstackEmpty", "MACA_HOTSPOT_MEMSTACK", "", ""},
    {"KernelTimeoutNegative", "MACA_KERNEL_TIMEOUT", "-5", ""},
    {"KernelTimeoutWithUnit", "MACA_KERNEL_TIMEOUT", "5ms", ""},
    {"KernelTimeoutHexadecimal", "MACA_KERNEL_TIMEOUT", "0x10", ""},
    {"KernelTimeoutLeadingSpace", "MACA_KERNEL_TIMEOUT", " 5", ""},
    {"KernelTimeoutEmpty", "MACA_KERNEL_TIMEOUT", "", ""},
    {"HangTimeoutNegative", "MACA_MONITOR_HANG_TIMEOUT", "-1", ""},
    {"HangTimeoutWithUnit", "MACA_MONITOR_HANG_TIMEOUT", "1s", ""},
    {"HangTimeoutBarePrefix", "MACA_MONITOR_HANG_TIMEOUT", "0x", ""},
    {"HangTimeoutNotHex", "MACA_MONITOR_HANG_TIMEOUT", "0xG", ""},
    {"HangTimeoutEmpty", "MACA_MONITOR_HANG_TIMEOUT", "", ""},
    {"ModuleLoadingWord", "MACA_MODULE_LOADING", "SOMETIMES", ""},
    {"ModuleLoadingTrailingSpace", "MACA_MODULE_LOADING", "LAZY ", ""},
    {"ModuleLoadingEmpty", "MACA_MODULE_LOADING", "", ""},
    {"CacheDisableTwo", "MACA_CACHE_DISABLE", "2", ""},
    {"CacheDisableYes", "MACA_CACHE_DISABLE", "yes", ""},
    {"CacheDisableLeadingSpace", "MACA_CACHE_DISABLE", " 1", ""},
    {"CacheDisableEmpty", "MACA_CACHE_DISABLE", "", ""},
    {"CacheMaxsizeWithUnit", "MACA_CACHE_MAXSIZE", "1M", ""},
    {"CacheMaxsizeNegative", "MACA_CACHE_MAXSIZE", "-1", ""},
    {"CacheMaxsizeExponent", "MACA_CACHE_MAXSIZE", "1e6", ""},
    {"CacheMaxsizeEmpty", "MACA_CACHE_MAXSIZE", "", ""},
};

// Runs in the fresh process: one warning naming the default.
std::string WarnsOnce(const std::string& variable, const std::string& value) {
  const std::string log = InitializationLog();
  return CheckOneWarning(log, variable, value,
                         "using the default, " + DefaultOf(variable));
}

class InvalidValue : public testing::TestWithParam<VariableValue> {};

TEST_P(InvalidValue, IsReportedByOneWarning) {
  MX_SPEC("api.env.general.invalid-value-warns",
          "api.log.level.default-when-unset");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", nullptr);
  ScopedEnvironment variable(GetParam().variable, GetParam().value);
  MX_EXPECT_IN_FRESH_PROCESS(WarnsOnce(GetParam().variable, GetParam().value));
}

// Runs in the fresh process, at the debug level: the runtime initializes,
// and the default is in force. The runtime's debug line is what shows the
// setting in force, so that part is checked where the backend has the
// runtime's log (the logging capability); the initialization everywhere.
std::string DefaultApplies(const std::string& variable, bool with_log) {
  bool initialized = false;
  const std::string log = InitializationLog(&initialized);
  std::string problems = initialized ? "" : "the runtime did not initialize; ";
  if (with_log) {
    problems += CheckSettingLine(log, variable, DefaultOf(variable),
                                 /*defaulted=*/true);
  }
  return problems;
}

TEST_P(InvalidValue, MeansTheDefault) {
  MX_SPEC("api.env.general.invalid-value-uses-default",
          "api.env.general.settings-logged-at-debug",
          "api.module.loading.invalid-value-is-lazy",
          "api.cache.disable.invalid-value-enables",
          "api.cache.size.invalid-value-uses-default");
  const bool with_log = Claimed("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  ScopedEnvironment variable(GetParam().variable, GetParam().value);
  MX_EXPECT_IN_FRESH_PROCESS(DefaultApplies(GetParam().variable, with_log));
}

INSTANTIATE_TEST_SUITE_P(Values, InvalidValue,
                         testing::ValuesIn(kInvalidValues), VariableValueName);

// --- MACA_CACHE_PATH set but empty: the default directory. ---

std::string EmptyCachePath(const std::string& home) {
  const std::string log = InitializationLog();
  return CheckOneWarning(log, "MACA_CACHE_PATH", "",
                         "using the default, ~/.metax/shadercache") +
         CheckSettingLine(log, "MACA_CACHE_PATH", home + "/.metax/shadercache",
                          /*defaulted=*/true);
}

TEST(CachePath, EmptyIsReportedAndMeansTheDefault) {
  MX_SPEC("api.env.general.invalid-value-warns",
          "api.env.general.invalid-value-uses-default",
          "api.cache.location.default-directory");
  MX_REQUIRE_CAPABILITY("logging");
  const char* tmp = getenv("TEST_TMPDIR");
  const std::string home = std::string(tmp != nullptr ? tmp : "/tmp");
  ScopedEnvironment home_variable("HOME", home.c_str());
  ScopedEnvironment path("MACA_CACHE_PATH", "");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(EmptyCachePath(home));
}

// --- A warning is a log message: levels below warning hide it. ---

struct SilencedCase {
  const char* test_name;
  const char* level;
  const char* variable;
  const char* value;
};

std::string SilencedName(const testing::TestParamInfo<SilencedCase>& info) {
  return info.param.test_name;
}

std::string NothingLogged() {
  const std::string log = InitializationLog();
  return log.empty() ? "" : "the runtime wrote: " + log;
}

class SilencedWarning : public testing::TestWithParam<SilencedCase> {};

TEST_P(SilencedWarning, IsNotPrinted) {
  MX_SPEC("api.env.general.invalid-value-warns",
          "api.log.level.off-silences-runtime",
          "api.log.level.threshold-filters");
  ScopedEnvironment level("MXLOG_LEVEL", GetParam().level);
  ScopedEnvironment variable(GetParam().variable, GetParam().value);
  MX_EXPECT_IN_FRESH_PROCESS(NothingLogged());
}

INSTANTIATE_TEST_SUITE_P(
    Levels, SilencedWarning,
    testing::Values(
        SilencedCase{"OffSyncPolicy", "off", "MACA_SYNC_POLICY", "9"},
        SilencedCase{"OffTrapHandler", "off", "MACA_TRAP_HANDLER", "5"},
        SilencedCase{"OffKernelTimeout", "off", "MACA_KERNEL_TIMEOUT", "x"},
        SilencedCase{"OffDeviceOrder", "off", "MACA_DEVICE_ORDER", "x"},
        SilencedCase{"OffVisibleDevices", "off", "MACA_VISIBLE_DEVICES",
                     "0,99"},
        SilencedCase{"ErrorSyncPolicy", "error", "MACA_SYNC_POLICY", "9"},
        SilencedCase{"ErrorLaunchMode", "error", "MACA_LAUNCH_MODE", "9"},
        SilencedCase{"ErrorMpsMode", "error", "MACA_MPS_MODE", "9"},
        SilencedCase{"ErrorHangTimeout", "error", "MACA_MONITOR_HANG_TIMEOUT",
                     "x"},
        SilencedCase{"ErrorPriorityQueue", "error",
                     "MACA_PRIORITY_QUEUE_POLICY", "0x999"},
        SilencedCase{"OffModuleLoading", "off", "MACA_MODULE_LOADING", "x"},
        SilencedCase{"ErrorCacheDisable", "error", "MACA_CACHE_DISABLE", "x"},
        SilencedCase{"ErrorCacheMaxsize", "error", "MACA_CACHE_MAXSIZE", "x"},
        SilencedCase{"ErrorCachePath", "error", "MACA_CACHE_PATH", ""}),
    SilencedName);

// The control: at the warning level the same values are reported.
class ShownWarning : public testing::TestWithParam<SilencedCase> {};

std::string SomeWarning(const std::string& variable) {
  const std::string log = InitializationLog();
  return HasLogLine(log, 'W', variable) ? "" : "no warning in: '" + log + "'";
}

TEST_P(ShownWarning, IsPrinted) {
  MX_SPEC("api.env.general.invalid-value-warns",
          "api.log.level.threshold-filters");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", GetParam().level);
  ScopedEnvironment variable(GetParam().variable, GetParam().value);
  MX_EXPECT_IN_FRESH_PROCESS(SomeWarning(GetParam().variable));
}

INSTANTIATE_TEST_SUITE_P(
    Levels, ShownWarning,
    testing::Values(
        SilencedCase{"WarningSyncPolicy", "warning", "MACA_SYNC_POLICY", "9"},
        SilencedCase{"WarningVisibleDevices", "warning", "MACA_VISIBLE_DEVICES",
                     "0,99"},
        SilencedCase{"InfoTrapHandler", "info", "MACA_TRAP_HANDLER", "5"},
        SilencedCase{"DebugKernelTimeout", "debug", "MACA_KERNEL_TIMEOUT", "x"},
        SilencedCase{"InfoModuleLoading", "info", "MACA_MODULE_LOADING", "x"},
        SilencedCase{"WarningCacheDisable", "warning", "MACA_CACHE_DISABLE",
                     "x"},
        SilencedCase{"InfoCacheMaxsize", "info", "MACA_CACHE_MAXSIZE", "x"},
        SilencedCase{"WarningCachePath", "warning", "MACA_CACHE_PATH", ""}),
    SilencedName);

// --- Numbers above a timeout's range are clamped, with a warning. ---

class ClampedValue : public testing::TestWithParam<VariableValue> {};

std::string ClampedTo(const std::string& variable, const std::string& value,
                      const std::string& shown) {
  const std::string log = InitializationLog();
  std::string problems =
      CheckOneWarning(log, variable, value, "using " + shown);
  problems += CheckSettingLine(log, variable, shown, /*defaulted=*/false);
  return problems;
}

TEST_P(ClampedValue, UsesTheLargestValue) {
  MX_SPEC("api.env.kernel-timeout.out-of-range",
          "api.env.monitor-hang-timeout.out-of-range",
          "api.env.general.invalid-value-warns");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  ScopedEnvironment variable(GetParam().variable, GetParam().value);
  MX_EXPECT_IN_FRESH_PROCESS(
      ClampedTo(GetParam().variable, GetParam().value, GetParam().shown));
}

INSTANTIATE_TEST_SUITE_P(
    Values, ClampedValue,
    testing::Values(VariableValue{"KernelTimeoutJustAbove",
                                  "MACA_KERNEL_TIMEOUT", "60001", "60000"},
                    VariableValue{"KernelTimeoutHuge", "MACA_KERNEL_TIMEOUT",
                                  "99999999999999999999999", "60000"},
                    VariableValue{"HangTimeoutJustAbove",
                                  "MACA_MONITOR_HANG_TIMEOUT", "65536",
                                  "65535"},
                    VariableValue{"HangTimeoutHexAbove",
                                  "MACA_MONITOR_HANG_TIMEOUT", "0x10000",
                                  "65535"}),
    VariableValueName);

// --- MACA_VISIBLE_DEVICES: the entry that ends the list is named. ---

std::string NamesEntry(const std::string& entry) {
  const std::string log = InitializationLog();
  const std::vector<std::string> warnings =
      LogLines(log, 'W', "MACA_VISIBLE_DEVICES");
  if (warnings.size() != 1) return "expected one warning in: '" + log + "'";
  return warnings[0].find("\"" + entry + "\"") != std::string::npos
             ? ""
             : "the warning does not name " + entry + ": " + warnings[0];
}

TEST(VisibleDevicesWarning, NamesTheEntryThatEndsTheList) {
  MX_SPEC("api.env.general.invalid-value-warns",
          "api.env.visible-devices.invalid-entry-truncates");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", nullptr);
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", "0,99,1");
  MX_EXPECT_IN_FRESH_PROCESS(NamesEntry("99"));
}

TEST(VisibleDevicesWarning, NamesARepeatedEntry) {
  MX_SPEC("api.env.general.invalid-value-warns",
          "api.env.visible-devices.duplicate-entry");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", nullptr);
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", "0,0");
  MX_EXPECT_IN_FRESH_PROCESS(NamesEntry("0"));
}

std::string NoVisibleDevicesWarning() {
  return CheckNoWarning(InitializationLog(), "MACA_VISIBLE_DEVICES");
}

TEST(VisibleDevicesWarning, NoneForAValidList) {
  MX_SPEC("api.env.general.invalid-value-warns",
          "api.env.visible-devices.index-entries");
  ScopedEnvironment level("MXLOG_LEVEL", nullptr);
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", "0");
  MX_EXPECT_IN_FRESH_PROCESS(NoVisibleDevicesWarning());
}

// An empty value is valid: it selects no device, and nothing is warned.
TEST(VisibleDevicesWarning, NoneForAnEmptyValue) {
  MX_SPEC("api.env.general.invalid-value-warns",
          "api.env.visible-devices.none-visible");
  ScopedEnvironment level("MXLOG_LEVEL", nullptr);
  ScopedEnvironment visible("MACA_VISIBLE_DEVICES", "");
  MX_EXPECT_IN_FRESH_PROCESS(NoVisibleDevicesWarning());
}

}  // namespace
}  // namespace mxcts::conformance
