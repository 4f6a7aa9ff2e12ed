// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/environment/environment_cases.h
// -----------------------------------------------------------------------------
//
// The variables of the runtime guide's table 4.1 that the runtime reads
// (docs/spec/api-environment.md), with valid and invalid values, and the
// fresh-process checks the environment tests share. A value is set in the
// environment of a fresh process; the process initializes the runtime
// (mcGetDeviceCount) with standard error captured and checks the log
// lines: the warning about an invalid value
// [api.env.general.invalid-value-warns] and, with MXLOG_LEVEL=debug, the
// setting in force [api.env.general.settings-logged-at-debug].
//
// Host code only.

#ifndef MXCTS_CONFORMANCE_API_ENVIRONMENT_ENVIRONMENT_CASES_H_
#define MXCTS_CONFORMANCE_API_ENVIRONMENT_ENVIRONMENT_CASES_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/testing/captured_output.h"

namespace mxcts::conformance {

// One variable and one value. `shown` is the value the runtime then uses,
// as its debug line writes it.
struct VariableValue {
  const char* test_name;
  const char* variable;
  const char* value;
  const char* shown;
};

inline std::string VariableValueName(
    const testing::TestParamInfo<VariableValue>& info) {
  return info.param.test_name;
}

// The variables the runtime reads, each with its default as shown.
// MACA_VISIBLE_DEVICES and MACA_CACHE_PATH, whose defaults depend on the
// machine, have tests of their own.
struct VariableDefault {
  const char* variable;
  const char* shown;
};

inline const std::vector<VariableDefault>& RuntimeVariables() {
  static const std::vector<VariableDefault> variables = {
      {"MACA_DEVICE_ORDER", "FASTEST_FIRST"},
      {"MACA_LAUNCH_BLOCKING", "0"},
      {"MACA_TRAP_HANDLER", "1"},
      {"MACA_GRAPH_LAUNCH_MODE", "0"},
      {"MACA_DIRECT_DISPATCH", "0"},
      {"MACA_LAUNCH_MODE", "1"},
      {"MACA_CPU_THREAD_POLICY", "0"},
      {"MACA_SYNC_POLICY", "0"},
      {"MACA_PRIORITY_QUEUE_POLICY", "0"},
      {"MACA_MPS_MODE", "0"},
      {"MACA_HOTSPOT_MEMSTACK", "0"},
      {"MACA_KERNEL_TIMEOUT", "0"},
      {"MACA_MONITOR_HANG_TIMEOUT", "0"},
      {"MACA_MODULE_LOADING", "LAZY"},
      {"MACA_CACHE_DISABLE", "0"},
      {"MACA_CACHE_MAXSIZE", "268435456"},
  };
  return variables;
}

inline std::string DefaultOf(const std::string& variable) {
  for (const VariableDefault& v : RuntimeVariables()) {
    if (variable == v.variable) return v.shown;
  }
  return "?";
}

// Initializes the runtime with standard error captured; returns the log.
// `initialized`, if given, says whether mcGetDeviceCount succeeded.
inline std::string InitializationLog(bool* initialized = nullptr) {
  CapturedStderr capture;
  int count = 0;
  const mcError_t error = mcGetDeviceCount(&count);
  if (initialized != nullptr) *initialized = error == mcSuccess && count > 0;
  return capture.Stop();
}

// "" if `log` holds the debug line of `variable` showing `shown`, marked
// "(default)" or not as `defaulted` says.
inline std::string CheckSettingLine(const std::string& log,
                                    const std::string& variable,
                                    const std::string& shown, bool defaulted) {
  const std::string expected = "environment: " + variable + "=" + shown +
                               (defaulted ? " (default)" : "");
  const std::vector<std::string> lines =
      LogLines(log, 'D', "environment: " + variable + "=");
  if (lines.size() != 1) {
    return "expected one debug line for " + variable + ", found " +
           std::to_string(lines.size()) + " in: " + log;
  }
  const std::string& line = lines[0];
  if (line.size() < expected.size() ||
      line.compare(line.size() - expected.size(), expected.size(), expected) !=
          0) {
    return "the setting line is '" + line + "', expected it to end with '" +
           expected + "'";
  }
  return "";
}

// "" if `log` holds exactly one warning about `variable` set to `value`,
// naming the value that applies instead (`applies`).
inline std::string CheckOneWarning(const std::string& log,
                                   const std::string& variable,
                                   const std::string& value,
                                   const std::string& applies) {
  const std::vector<std::string> warnings = LogLines(log, 'W', variable);
  if (warnings.size() != 1) {
    return "expected one warning about " + variable + ", found " +
           std::to_string(warnings.size()) + " in: '" + log + "'";
  }
  const std::string& line = warnings[0];
  if (line.find(variable + "=\"" + value + "\"") == std::string::npos) {
    return "the warning does not quote the value: " + line;
  }
  const std::string tail = " " + applies;
  if (line.size() < tail.size() ||
      line.compare(line.size() - tail.size(), tail.size(), tail) != 0) {
    return "the warning does not end with what applies (" + applies +
           "): " + line;
  }
  return "";
}

// "" if `log` holds no warning about `variable`.
inline std::string CheckNoWarning(const std::string& log,
                                  const std::string& variable) {
  const std::vector<std::string> warnings = LogLines(log, 'W', variable);
  return warnings.empty() ? "" : "unexpected warning: " + warnings[0];
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_ENVIRONMENT_ENVIRONMENT_CASES_H_
