// Copyright mxcts authors.
//
// ==========================================================================
// mxlog/mxlog.h: the mcLog API of the mcanalyzer library
// ==========================================================================
//
// Programs write their own log messages through the logging scheme of the
// MXMACA runtime: each message has a level, is printed only when
// MXLOG_LEVEL lets that level through, and appears as one line on standard
// error with the program's tag, the level and the source location
// (docs/spec/api-logging.md, "The mcLog API"). Link with -lmcanalyzer:
//
//   #define MXLOG_TAG "SAXPY"       // optional, before the include
//   #include <mxlog/mxlog.h>
//
//   LOGI("running %d blocks", blocks);
//   if (error != mcSuccess) LOGE("launch failed: %s", mcGetErrorString(error));
//
//   $ mxcc saxpy.cu -o saxpy -lmcanalyzer
//   $ MXLOG_LEVEL=info ./saxpy
//   [SAXPY][I]saxpy.cu:12: running 4 blocks
//
// Levels, from the most to the least serious: error (LOGE), warning (LOGW),
// info (LOGI), debug (LOGD), verbose (LOGV). MXLOG_LEVEL (off, error,
// warning, info or debug, in any case; read once, at the library's first
// use; unset or invalid: info) is the least serious level printed; verbose
// messages are printed only at debug [api.log.mclog.filtered-by-mxlog-level].
// A macro evaluates its arguments only when its message is printed.
//
// Thread safety: every function and macro may be used from any thread;
// each message is written whole, never interleaved with another
// [api.log.mclog.thread-safe].

#ifndef MXLOG_MXLOG_H_
#define MXLOG_MXLOG_H_

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

// The levels of messages, and (off to debug) of MXLOG_LEVEL.
typedef enum mcLogLevel {
  MCLOG_LEVEL_OFF = 0,
  MCLOG_LEVEL_ERROR = 1,
  MCLOG_LEVEL_WARNING = 2,
  MCLOG_LEVEL_INFO = 3,
  MCLOG_LEVEL_DEBUG = 4,
  MCLOG_LEVEL_VERBOSE = 5
} mcLogLevel;

// The level MXLOG_LEVEL set for the process: MCLOG_LEVEL_OFF to
// MCLOG_LEVEL_DEBUG.
mcLogLevel mcLogGetLevel(void);

// 1 if a message of `level` (MCLOG_LEVEL_ERROR to MCLOG_LEVEL_VERBOSE) is
// printed at the process's level, else 0; 0 for any other value.
int mcLogIsEnabled(mcLogLevel level);

// Writes one message of `level`, formatted from `format` and the arguments
// as printf does, as the line "[tag][L]file:line: message" (L: E, W, I, D or
// V; `file` reduced to its base name) on standard error, if `level` is
// printed. A null `tag` is "APP", a null `file` "?", a null `format`
// "(null)"; a level other than MCLOG_LEVEL_ERROR to MCLOG_LEVEL_VERBOSE
// writes nothing. [api.log.mclog.formatting] [api.log.output.message-format]
void mcLogPrint(mcLogLevel level, const char* tag, const char* file, int line,
                const char* format, ...) __attribute__((format(printf, 5, 6)));

// mcLogPrint with a va_list.
void mcLogVPrint(mcLogLevel level, const char* tag, const char* file, int line,
                 const char* format, va_list arguments)
    __attribute__((format(printf, 5, 0)));

#ifdef __cplusplus
}  // extern "C"
#endif

// The component of the program's messages: define it, as a string
// literal, before including this header. [api.log.mclog.tag]
#ifndef MXLOG_TAG
#define MXLOG_TAG "APP"
#endif

// One message at each level, printf-style. [api.log.mclog.level-macros]
#define MXLOG_AT_LEVEL_(level, ...)                                  \
  do {                                                               \
    if (mcLogIsEnabled(level)) {                                     \
      mcLogPrint(level, MXLOG_TAG, __FILE__, __LINE__, __VA_ARGS__); \
    }                                                                \
  } while (0)
#define LOGE(...) MXLOG_AT_LEVEL_(MCLOG_LEVEL_ERROR, __VA_ARGS__)
#define LOGW(...) MXLOG_AT_LEVEL_(MCLOG_LEVEL_WARNING, __VA_ARGS__)
#define LOGI(...) MXLOG_AT_LEVEL_(MCLOG_LEVEL_INFO, __VA_ARGS__)
#define LOGD(...) MXLOG_AT_LEVEL_(MCLOG_LEVEL_DEBUG, __VA_ARGS__)
#define LOGV(...) MXLOG_AT_LEVEL_(MCLOG_LEVEL_VERBOSE, __VA_ARGS__)

#endif  // MXLOG_MXLOG_H_
