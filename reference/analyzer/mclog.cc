// Copyright mxcts authors.
//
// The mcLog API of libmcanalyzer (mxlog/mxlog.h) over the reference's log
// sink (reference/logging): the same level, read from MXLOG_LEVEL once, and
// the same line format as the runtime's own messages, with the program's
// tag as the component. Arguments the header leaves to the implementation
// are made harmless rather than undefined: a null tag, file or format
// prints a placeholder, an unknown level prints nothing.
//
// Tested by mclog_test.cc and conformance/api/logging.

#include <cstdarg>

#include "mxlog/mxlog.h"
#include "reference/logging/log.h"
#include "reference/logging/log_level.h"

namespace {

using mxcts::logging::Severity;

// The severity of a message level; false for a level no message has.
bool ToSeverity(mcLogLevel level, Severity* severity) {
  switch (level) {
    case MCLOG_LEVEL_ERROR:
      *severity = Severity::kError;
      return true;
    case MCLOG_LEVEL_WARNING:
      *severity = Severity::kWarning;
      return true;
    case MCLOG_LEVEL_INFO:
      *severity = Severity::kInfo;
      return true;
    case MCLOG_LEVEL_DEBUG:
      *severity = Severity::kDebug;
      return true;
    case MCLOG_LEVEL_VERBOSE:
      *severity = Severity::kVerbose;
      return true;
    default:
      return false;
  }
}

}  // namespace

extern "C" {

mcLogLevel mcLogGetLevel(void) {
  // [api.log.level.read-at-initialization]
  return static_cast<mcLogLevel>(mxcts::logging::CurrentLogLevel());
}

int mcLogIsEnabled(mcLogLevel level) {
  Severity severity;
  if (!ToSeverity(level, &severity)) return 0;
  // [api.log.mclog.filtered-by-mxlog-level]
  return mxcts::logging::LogEnabled(severity) ? 1 : 0;
}

void mcLogVPrint(mcLogLevel level, const char* tag, const char* file, int line,
                 const char* format, va_list arguments) {
  Severity severity;
  if (!ToSeverity(level, &severity)) return;
  // [api.log.mclog.formatting] [api.log.mclog.tag]
  mxcts::logging::LogVPrintf(tag != nullptr ? tag : "APP", severity,
                             file != nullptr ? file : "?", line, format,
                             arguments);
}

void mcLogPrint(mcLogLevel level, const char* tag, const char* file, int line,
                const char* format, ...) {
  va_list arguments;
  va_start(arguments, format);
  mcLogVPrint(level, tag, file, line, format, arguments);
  va_end(arguments);
}

}  // extern "C"
