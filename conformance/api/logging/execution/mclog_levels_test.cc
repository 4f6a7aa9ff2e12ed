// Copyright mxcts authors.
//
// Conformance: the mcLog macros and MXLOG_LEVEL (docs/spec/api-logging.md,
// "Levels" and "The mcLog API"). Every macro (LOGE, LOGW, LOGI, LOGD, LOGV)
// is tried at every level (unset, the five names, names in other cases);
// its message is printed exactly when the level lets its severity through,
// so the messages that are not printed are the controls of those that are.
// mcLogGetLevel and mcLogIsEnabled report the same. Each level runs in a
// fresh process, since MXLOG_LEVEL is read once.

#include <mc_runtime.h>
#include <mxlog/mxlog.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/captured_output.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// A value of MXLOG_LEVEL (null: unset) and the level it means: 0 off to 4
// debug.
struct LevelCase {
  const char* name;
  const char* value;
  int level;
};

const LevelCase kLevels[] = {
    {"Unset", nullptr, 3},
    {"Off", "off", 0},
    {"Error", "error", 1},
    {"Warning", "warning", 2},
    {"Info", "info", 3},
    {"Debug", "debug", 4},
    {"UpperCaseDebug", "DEBUG", 4},
    {"MixedCaseWarning", "Warning", 2},
    {"UpperCaseOff", "OFF", 0},
};

// The macros: their letter, and the lowest level that prints them.
struct MacroCase {
  const char* name;
  char letter;
  int lowest_level;
};

const MacroCase kMacros[] = {
    {"LOGE", 'E', 1}, {"LOGW", 'W', 2}, {"LOGI", 'I', 3},
    {"LOGD", 'D', 4}, {"LOGV", 'V', 4},
};

// Writes the message of `letter`'s macro; returns its line number.
int LogWith(char letter, int number) {
  switch (letter) {
    case 'E':
      LOGE("message %d of %s", number, "LOGE");
      return __LINE__ - 1;
    case 'W':
      LOGW("message %d of %s", number, "LOGW");
      return __LINE__ - 1;
    case 'I':
      LOGI("message %d of %s", number, "LOGI");
      return __LINE__ - 1;
    case 'D':
      LOGD("message %d of %s", number, "LOGD");
      return __LINE__ - 1;
    default:
      LOGV("message %d of %s", number, "LOGV");
      return __LINE__ - 1;
  }
}

std::string MacroAtLevel(const MacroCase& macro, int level) {
  CapturedStderr capture;
  const int line = LogWith(macro.letter, 42);
  const std::string log = capture.Stop();
  const bool printed = level >= macro.lowest_level;
  const std::string expected = std::string("[APP][") + macro.letter +
                               "]mclog_levels_test.cc:" + std::to_string(line) +
                               ": message 42 of " + macro.name + "\n";
  if (printed && log != expected) {
    return "expected '" + expected + "', the log is '" + log + "'";
  }
  if (!printed && !log.empty()) return "printed at a lower level: " + log;
  return "";
}

using LevelAndMacro = std::tuple<LevelCase, MacroCase>;

class McLogMacro : public testing::TestWithParam<LevelAndMacro> {};

TEST_P(McLogMacro, PrintedExactlyWhenTheLevelLetsItThrough) {
  MX_SPEC("api.log.mclog.level-macros", "api.log.mclog.filtered-by-mxlog-level",
          "api.log.level.values", "api.log.level.threshold-filters",
          "api.log.level.default-when-unset",
          "api.log.level.invalid-value-uses-default",
          "api.log.output.message-format", "api.log.mclog.header-and-library",
          "api.env.mxlog-level.values");
  MX_REQUIRE_CAPABILITY("logging");
  const LevelCase& level = std::get<0>(GetParam());
  ScopedEnvironment variable("MXLOG_LEVEL", level.value);
  MX_EXPECT_IN_FRESH_PROCESS(
      MacroAtLevel(std::get<1>(GetParam()), level.level));
}

INSTANTIATE_TEST_SUITE_P(Levels, McLogMacro,
                         testing::Combine(testing::ValuesIn(kLevels),
                                          testing::ValuesIn(kMacros)),
                         [](const testing::TestParamInfo<LevelAndMacro>& info) {
                           return std::string(std::get<0>(info.param).name) +
                                  "_" + std::get<1>(info.param).name;
                         });

// --- The level as the API reports it. ---

std::string ReportedLevel(int level) {
  std::string problems;
  if (static_cast<int>(mcLogGetLevel()) != level) {
    problems += "mcLogGetLevel is " + std::to_string(mcLogGetLevel()) + "; ";
  }
  for (const MacroCase& macro : kMacros) {
    const mcLogLevel message =
        static_cast<mcLogLevel>(macro.letter == 'V' ? 5 : macro.lowest_level);
    const int enabled = mcLogIsEnabled(message);
    if (enabled != (level >= macro.lowest_level ? 1 : 0)) {
      problems += std::string("mcLogIsEnabled of ") + macro.name + " is " +
                  std::to_string(enabled) + "; ";
    }
  }
  if (mcLogIsEnabled(MCLOG_LEVEL_OFF) != 0) {
    problems += "mcLogIsEnabled(MCLOG_LEVEL_OFF) is not 0; ";
  }
  return problems;
}

class McLogLevel : public testing::TestWithParam<LevelCase> {};

TEST_P(McLogLevel, IsReported) {
  MX_SPEC("api.log.level.values", "api.log.mclog.filtered-by-mxlog-level",
          "api.log.level.default-when-unset");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment variable("MXLOG_LEVEL", GetParam().value);
  MX_EXPECT_IN_FRESH_PROCESS(ReportedLevel(GetParam().level));
}

INSTANTIATE_TEST_SUITE_P(Levels, McLogLevel, testing::ValuesIn(kLevels),
                         [](const testing::TestParamInfo<LevelCase>& info) {
                           return std::string(info.param.name);
                         });

// --- Invalid values: a warning, and the default (info). ---

std::string DefaultAfterWarning(const std::string& value) {
  CapturedStderr capture;
  const int level = static_cast<int>(mcLogGetLevel());
  LOGI("info %d", 1);
  LOGD("debug %d", 2);
  const std::string log = capture.Stop();
  std::string problems;
  if (level != MCLOG_LEVEL_INFO) problems += "the level is not info; ";
  const std::vector<std::string> warnings = LogLines(log, 'W', "MXLOG_LEVEL");
  if (warnings.size() != 1 ||
      warnings[0].find("\"" + value + "\"") == std::string::npos) {
    problems += "no one warning naming the value; ";
  }
  if (!HasLogLine(log, 'I', "info 1")) problems += "LOGI was not printed; ";
  if (HasLogLine(log, 'D', "debug 2")) problems += "LOGD was printed; ";
  return problems.empty() ? "" : problems + "log: " + log;
}

class InvalidLevel : public testing::TestWithParam<const char*> {};

TEST_P(InvalidLevel, WarnsAndMeansTheDefault) {
  MX_SPEC("api.log.level.invalid-value-uses-default",
          "api.log.level.default-when-unset");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment variable("MXLOG_LEVEL", GetParam());
  MX_EXPECT_IN_FRESH_PROCESS(DefaultAfterWarning(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Values, InvalidLevel,
                         testing::Values("verbose", "warn", "3", "", " info",
                                         "infox", "none"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           return "Value" + std::to_string(info.index);
                         });

// The control: a valid level gives no warning.
std::string NoLevelWarning() {
  CapturedStderr capture;
  (void)mcLogGetLevel();
  LOGI("x");
  const std::string log = capture.Stop();
  return HasLogLine(log, 'W', "MXLOG_LEVEL") ? "a warning: " + log : "";
}

TEST(InvalidLevel, ControlValidLevelGivesNoWarning) {
  MX_SPEC("api.log.level.invalid-value-uses-default");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment variable("MXLOG_LEVEL", "info");
  MX_EXPECT_IN_FRESH_PROCESS(NoLevelWarning());
}

// --- Read once. ---

std::string LaterChangeIgnored() {
  CapturedStderr capture;
  LOGE("first");
  setenv("MXLOG_LEVEL", "off", 1);
  LOGE("second");
  const std::string log = capture.Stop();
  return HasLogLine(log, 'E', "second") ? "" : "the change took effect: " + log;
}

TEST(McLogReadOnce, LaterChangeHasNoEffect) {
  MX_SPEC("api.log.level.read-at-initialization");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment variable("MXLOG_LEVEL", "error");
  MX_EXPECT_IN_FRESH_PROCESS(LaterChangeIgnored());
}

}  // namespace
}  // namespace mxcts::conformance
