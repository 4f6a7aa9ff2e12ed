// Copyright mxcts authors.
//
// reference/logging/log.h: the log sink the reference's libraries share:
// the runtime's own messages (component "MCR") and the mcLog API of
// libmcanalyzer (mxlog/mxlog.h). docs/spec/api-logging.md states the rules.
//
// The level is MXLOG_LEVEL, read once, at the first message or the first
// CurrentLogLevel() of the process [api.log.level.read-at-initialization];
// an invalid value is reported with a warning and the default (info) used
// [api.log.level.invalid-value-uses-default]. Each message is one line on
// standard error [api.log.output.not-on-stdout], written with one write(2)
// so that lines of several threads never interleave
// [api.log.mclog.thread-safe]:
//
//   [MCR][W]environment_settings.cc:120: MACA_SYNC_POLICY=7 is not ...
//
// that is `[component][severity letter]file:line: message`, with the base
// name of the source file [api.log.output.message-format].
//
//   MXCTS_LOG("MCR", Severity::kDebug, "mcMalloc: %zu bytes", size);
//   if (LogEnabled(Severity::kInfo)) { ...costly message... }
//
// Thread safety: every function may be called from any thread, also while
// the process exits.

#ifndef MXCTS_REFERENCE_LOGGING_LOG_H_
#define MXCTS_REFERENCE_LOGGING_LOG_H_

#include <cstdarg>
#include <string>
#include <string_view>

#include "reference/logging/log_level.h"

namespace mxcts::logging {

// The process's level: MXLOG_LEVEL as read at the first call.
LogLevel CurrentLogLevel();

// Whether a message of `severity` is printed at the process's level.
bool LogEnabled(Severity severity);

// The line for a message, newline included: `[component][L]file:line:
// message`, `file` reduced to its base name; a newline inside `message`
// becomes a space, so that one message is one line.
std::string FormatLogLine(std::string_view component, Severity severity,
                          const char* file, int line, std::string_view message);

// Writes the message's line to standard error if `severity` is printed at
// the process's level; else does nothing.
void WriteLog(std::string_view component, Severity severity, const char* file,
              int line, std::string_view message);

// WriteLog of a printf-formatted message. The format is only expanded when
// the message is printed.
void LogPrintf(std::string_view component, Severity severity, const char* file,
               int line, const char* format, ...)
    __attribute__((format(printf, 5, 6)));
void LogVPrintf(std::string_view component, Severity severity, const char* file,
                int line, const char* format, va_list arguments);

// Makes `level` the process's level, as if MXLOG_LEVEL had said so (tests
// of the packages that log).
void SetLogLevelForTesting(LogLevel level);

}  // namespace mxcts::logging

// A message of `component` at `severity` (a logging::Severity), formatted
// as printf does; the arguments are not evaluated unless it is printed.
#define MXCTS_LOG(component, severity, ...)                                \
  do {                                                                     \
    if (::mxcts::logging::LogEnabled(severity)) {                          \
      ::mxcts::logging::LogPrintf(component, severity, __FILE__, __LINE__, \
                                  __VA_ARGS__);                            \
    }                                                                      \
  } while (false)

// The runtime's own messages, component "MCR" as in the runtime guide's
// trap example ([MCR][E]...).
#define MCR_LOGE(...) \
  MXCTS_LOG("MCR", ::mxcts::logging::Severity::kError, __VA_ARGS__)
#define MCR_LOGW(...) \
  MXCTS_LOG("MCR", ::mxcts::logging::Severity::kWarning, __VA_ARGS__)
#define MCR_LOGI(...) \
  MXCTS_LOG("MCR", ::mxcts::logging::Severity::kInfo, __VA_ARGS__)
#define MCR_LOGD(...) \
  MXCTS_LOG("MCR", ::mxcts::logging::Severity::kDebug, __VA_ARGS__)

#endif  // MXCTS_REFERENCE_LOGGING_LOG_H_
