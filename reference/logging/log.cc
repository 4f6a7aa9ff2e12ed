// Copyright mxcts authors.
//
// The sink: a level read once, lines formatted whole and written with one
// write(2). Standard error is unbuffered in C, but a line built by several
// fprintf calls can still be split by another thread's output; a single
// write of the whole line cannot (POSIX keeps writes of a pipe up to
// PIPE_BUF whole, and a file or terminal write is not interleaved by
// another write either). The level lives in an atomic once read, so the
// check that most messages fail costs one load.
//
// The level and its guard are the process's (log_state.h): those of
// libmcruntime.so when the process has it, so that every library of the
// SDK filters by the same level and MXLOG_LEVEL is read, and an invalid
// value warned about, once per process.
//
// Tested by log_test.cc.

#include "reference/logging/log.h"

#include <errno.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>

#include "reference/logging/log_state.h"

// The process's state, defined by libmcruntime.so; null where the process
// has no runtime library.
namespace __mc_internal {
mxcts::logging::LogState& ProcessLogState() __attribute__((weak));
}  // namespace __mc_internal

namespace mxcts::logging {
namespace {

LogState& FindState() {
  if (&__mc_internal::ProcessLogState != nullptr) {
    return __mc_internal::ProcessLogState();
  }
  static LogState* own = new LogState;
  return *own;
}

// Found once; never destroyed.
LogState& State() {
  static LogState& state = FindState();
  return state;
}

void WriteWhole(const std::string& text) {
  const char* data = text.data();
  size_t left = text.size();
  while (left > 0) {
    const ssize_t written = ::write(STDERR_FILENO, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      return;  // nowhere to report it
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
}

void ReadLevel() {
  // [api.log.level.read-at-initialization]
  const char* value = std::getenv("MXLOG_LEVEL");
  LogLevel level = kDefaultLogLevel;  // [api.log.level.default-when-unset]
  bool invalid = false;
  if (value != nullptr) {
    if (std::optional<LogLevel> parsed = ParseLogLevel(value)) {
      level = *parsed;
    } else {
      invalid = true;  // [api.log.level.invalid-value-uses-default]
    }
  }
  int expected = -1;
  State().level.compare_exchange_strong(expected, static_cast<int>(level));
  if (invalid && Prints(CurrentLogLevel(), Severity::kWarning)) {
    WriteWhole(FormatLogLine(
        "MCR", Severity::kWarning, __FILE__, __LINE__,
        std::string("MXLOG_LEVEL=\"") + value +
            "\" is not a level (off, error, warning, info or debug); using "
            "the default, " +
            LogLevelName(kDefaultLogLevel)));
  }
}

}  // namespace

LogLevel CurrentLogLevel() {
  LogState& state = State();
  const int level = state.level.load(std::memory_order_acquire);
  if (level >= 0) return static_cast<LogLevel>(level);
  std::call_once(state.level_read, ReadLevel);
  return static_cast<LogLevel>(state.level.load(std::memory_order_acquire));
}

bool LogEnabled(Severity severity) {
  return Prints(CurrentLogLevel(), severity);
}

std::string FormatLogLine(std::string_view component, Severity severity,
                          const char* file, int line,
                          std::string_view message) {
  // [api.log.output.message-format]
  std::string_view base = file != nullptr ? file : "?";
  if (const size_t slash = base.rfind('/'); slash != std::string_view::npos) {
    base.remove_prefix(slash + 1);
  }
  std::string text;
  text.reserve(component.size() + base.size() + message.size() + 24);
  text += '[';
  text += component;
  text += "][";
  text += SeverityLetter(severity);
  text += ']';
  text += base;
  text += ':';
  text += std::to_string(line);
  text += ": ";
  // A message that ends in a newline (a printf habit) gets no second one.
  while (!message.empty() &&
         (message.back() == '\n' || message.back() == '\r')) {
    message.remove_suffix(1);
  }
  for (char c : message) text += (c == '\n' || c == '\r') ? ' ' : c;
  text += '\n';
  return text;
}

void WriteLog(std::string_view component, Severity severity, const char* file,
              int line, std::string_view message) {
  if (!LogEnabled(severity)) return;
  // [api.log.output.not-on-stdout] [api.log.mclog.thread-safe]
  WriteWhole(FormatLogLine(component, severity, file, line, message));
}

void LogVPrintf(std::string_view component, Severity severity, const char* file,
                int line, const char* format, va_list arguments) {
  if (!LogEnabled(severity)) return;
  if (format == nullptr) format = "(null)";
  char small[512];
  va_list copy;
  va_copy(copy, arguments);
  const int length = std::vsnprintf(small, sizeof(small), format, copy);
  va_end(copy);
  if (length < 0) {
    WriteLog(component, severity, file, line, format);
    return;
  }
  if (static_cast<size_t>(length) < sizeof(small)) {
    WriteLog(component, severity, file, line,
             std::string_view(small, static_cast<size_t>(length)));
    return;
  }
  std::string large(static_cast<size_t>(length) + 1, '\0');
  std::vsnprintf(large.data(), large.size(), format, arguments);
  large.resize(static_cast<size_t>(length));
  WriteLog(component, severity, file, line, large);
}

void LogPrintf(std::string_view component, Severity severity, const char* file,
               int line, const char* format, ...) {
  va_list arguments;
  va_start(arguments, format);
  LogVPrintf(component, severity, file, line, format, arguments);
  va_end(arguments);
}

void SetLogLevelForTesting(LogLevel level) {
  LogState& state = State();
  std::call_once(state.level_read, [] {});
  state.level.store(static_cast<int>(level), std::memory_order_release);
}

}  // namespace mxcts::logging
