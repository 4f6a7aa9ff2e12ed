// Copyright mxcts authors.
//
// Level names and the filter of log_level.h. Names match without regard to
// case, because users write both `debug` and `DEBUG`; nothing else is
// forgiven (no spaces, no abbreviations, no numbers), so a typo is seen as
// one: the caller warns about it.
//
// Tested by log_level_test.cc.

#include "reference/logging/log_level.h"

#include <cctype>
#include <string_view>

namespace mxcts::logging {
namespace {

bool EqualsIgnoringCase(std::string_view text, std::string_view name) {
  if (text.size() != name.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::tolower(c) != name[i]) return false;
  }
  return true;
}

constexpr LogLevel kLevels[] = {LogLevel::kOff, LogLevel::kError,
                                LogLevel::kWarning, LogLevel::kInfo,
                                LogLevel::kDebug};

}  // namespace

bool Prints(LogLevel level, Severity severity) {
  // [api.log.level.threshold-filters] [api.log.level.off-silences-runtime]
  if (level == LogLevel::kOff) return false;
  // [api.log.mclog.filtered-by-mxlog-level] Verbose ranks below debug.
  if (severity == Severity::kVerbose) return level == LogLevel::kDebug;
  return static_cast<int>(severity) <= static_cast<int>(level);
}

std::optional<LogLevel> ParseLogLevel(std::string_view text) {
  // [api.log.level.values] [api.log.level.invalid-value-uses-default]
  for (LogLevel level : kLevels) {
    if (EqualsIgnoringCase(text, LogLevelName(level))) return level;
  }
  return std::nullopt;
}

const char* LogLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kOff:
      return "off";
    case LogLevel::kError:
      return "error";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kDebug:
      return "debug";
  }
  return "info";
}

char SeverityLetter(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return 'E';
    case Severity::kWarning:
      return 'W';
    case Severity::kInfo:
      return 'I';
    case Severity::kDebug:
      return 'D';
    case Severity::kVerbose:
      return 'V';
  }
  return 'E';
}

}  // namespace mxcts::logging
