// Copyright mxcts authors.
//
// reference/logging/log_level.h: the severities of log messages and the
// levels of MXLOG_LEVEL that filter them (docs/spec/api-logging.md,
// "Levels").
//
// A message has a severity; the process has a level, the lowest severity
// printed. The order is verbose < debug < info < warning < error
// [api.log.level.threshold-filters]; `off` prints nothing
// [api.log.level.off-silences-runtime], and verbose messages (LOGV) are
// printed only at `debug` [api.log.mclog.filtered-by-mxlog-level].
//
//   std::optional<LogLevel> level = ParseLogLevel("warning");
//   if (level && Prints(*level, Severity::kError)) ...

#ifndef MXCTS_REFERENCE_LOGGING_LOG_LEVEL_H_
#define MXCTS_REFERENCE_LOGGING_LOG_LEVEL_H_

#include <optional>
#include <string_view>

namespace mxcts::logging {

// How serious one message is, from the most to the least.
enum class Severity {
  kError = 1,
  kWarning = 2,
  kInfo = 3,
  kDebug = 4,
  kVerbose = 5,
};

// The values of MXLOG_LEVEL: the least serious severity printed.
// [api.log.level.values]
enum class LogLevel {
  kOff = 0,
  kError = 1,
  kWarning = 2,
  kInfo = 3,
  kDebug = 4,
};

// The level when MXLOG_LEVEL is unset or invalid: info, so that warnings
// (an invalid environment variable among them) are seen, while debug
// detail (settings, API errors) is not. [api.log.level.default-when-unset]
inline constexpr LogLevel kDefaultLogLevel = LogLevel::kInfo;

// Whether a message of `severity` is printed at `level`. Verbose messages
// print at debug, the lowest level there is.
bool Prints(LogLevel level, Severity severity);

// The level named by `text`: off, error, warning, info or debug, in any
// case ("DEBUG", "Warning"); nullopt for anything else, an empty text or
// spaces around a name included. [api.log.level.invalid-value-uses-default]
std::optional<LogLevel> ParseLogLevel(std::string_view text);

// "off", "error", "warning", "info" or "debug".
const char* LogLevelName(LogLevel level);

// The letter of the line prefix: E, W, I, D or V
// [api.log.output.message-format].
char SeverityLetter(Severity severity);

}  // namespace mxcts::logging

#endif  // MXCTS_REFERENCE_LOGGING_LOG_LEVEL_H_
