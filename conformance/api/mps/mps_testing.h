// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/mps/mps_testing.h
// -----------------------------------------------------------------------------
//
// What the multi-process service tests (docs/spec/api-mps.md) share: the
// settings of MACA_MPS_MODE a child process can start with (unset, the two
// values the chapter defines, and values it leaves
// implementation-defined), StartChild, which starts a child role
// (child_process.h) with one of them, and reading one field of the
// "key=value;" reports the children send.
//
//   std::unique_ptr<ChildProcess> child = StartChild(kShared, "Workload");
//   std::string report = child->Receive();
//   ReportField(report, "init");   // "mcSuccess"
//
// Every process of a test runs without an MPS server: none is started.
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h>.

#ifndef MXCTS_CONFORMANCE_API_MPS_MPS_TESTING_H_
#define MXCTS_CONFORMANCE_API_MPS_MPS_TESTING_H_

#include <gtest/gtest.h>
#include <mc_runtime.h>

#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "conformance/api/testing/child_process.h"
#include "conformance/testing/fresh_process.h"

namespace mxcts::conformance::mps {

// A setting of MACA_MPS_MODE: its name in test names, and its value (null:
// the variable is unset).
struct ModeSetting {
  const char* name;
  const char* value;
};

// Test results show a setting by its name.
inline void PrintTo(const ModeSetting& setting, std::ostream* out) {
  *out << setting.name;
}

inline constexpr ModeSetting kUnset{"Unset", nullptr};
inline constexpr ModeSetting kExclusive{"Exclusive", "0"};
inline constexpr ModeSetting kShared{"Shared", "1"};

// Unset, 0 and 1: the settings api.mps.mode.values defines.
inline std::vector<ModeSetting> DefinedModes() {
  return {kUnset, kExclusive, kShared};
}

// 0 and 1: the settings in which a process is an MPS client of either
// kind.
inline std::vector<ModeSetting> ClientModes() { return {kExclusive, kShared}; }

// Values other than 0 and 1, whose effect is implementation-defined
// [api.mps.mode.invalid-value-implementation-defined].
inline std::vector<ModeSetting> InvalidModes() {
  return {{"Empty", ""},         {"Two", "2"},           {"MinusOne", "-1"},
          {"LeadingZero", "01"}, {"LeadingSpace", " 1"}, {"Hex", "0x1"},
          {"Word", "shared"}};
}

// The name of an instantiation over settings: the setting's name.
inline std::string ModeSettingName(
    const testing::TestParamInfo<ModeSetting>& info) {
  return info.param.name;
}

// Starts the test binary in child role `role` with `argument`, with
// MACA_MPS_MODE as `mode` says (whatever this process has) and the
// variables of `environment` added.
inline std::unique_ptr<ChildProcess> StartChild(
    const ModeSetting& mode, const std::string& role,
    const std::string& argument = "",
    const std::vector<std::pair<std::string, std::string>>& environment = {}) {
  ScopedEnvironment setting("MACA_MPS_MODE", mode.value);
  return std::make_unique<ChildProcess>(role, argument, environment);
}

// The value of `key` in a report "key=value;key=value;", or "(none)" if it
// has none.
inline std::string ReportField(const std::string& report,
                               const std::string& key) {
  const std::string start = key + "=";
  size_t at = 0;
  while (at < report.size()) {
    size_t end = report.find(';', at);
    if (end == std::string::npos) end = report.size();
    if (report.compare(at, start.size(), start) == 0) {
      return report.substr(at + start.size(), end - at - start.size());
    }
    at = end + 1;
  }
  return "(none)";
}

}  // namespace mxcts::conformance::mps

// After MX_SPEC: skips the test unless the backend claims the
// multi-process service.
#define MX_MPS_REQUIRE() MX_REQUIRE_CAPABILITY("multi_process_service")

#endif  // MXCTS_CONFORMANCE_API_MPS_MPS_TESTING_H_
