// -----------------------------------------------------------------------------
// File: conformance/testing/captured_output.h
// -----------------------------------------------------------------------------
//
// What a piece of a test writes to standard error: the runtime's log lines
// (docs/spec/api-logging.md), warnings about the environment, trap
// diagnostics. The capture redirects file descriptor 2, so it sees what the
// C library, the runtime's write(2) calls and other libraries write, until
// Stop() puts the descriptor back and returns the text:
//
//   std::string InvalidValueWarns() {
//     CapturedStderr capture;
//     int count = 0;
//     mcGetDeviceCount(&count);          // the runtime reads its variables
//     const std::string log = capture.Stop();
//     return HasLogLine(log, 'W', "MACA_SYNC_POLICY") ? "" : "no warning";
//   }
//
// Use it in the fresh process of MX_EXPECT_IN_FRESH_PROCESS (the runtime
// logs its settings once per process). Header-only: test sources compiled
// by a backend's driver include it.

#ifndef MXCTS_CONFORMANCE_TESTING_CAPTURED_OUTPUT_H_
#define MXCTS_CONFORMANCE_TESTING_CAPTURED_OUTPUT_H_

#include <stdio.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

namespace mxcts::conformance {

// Redirects standard error into a temporary file from construction to
// Stop() (or destruction).
class CapturedStderr {
 public:
  CapturedStderr() {
    std::fflush(stderr);
    file_ = std::tmpfile();
    saved_ = ::dup(STDERR_FILENO);
    if (file_ != nullptr && saved_ >= 0) {
      ::dup2(::fileno(file_), STDERR_FILENO);
    }
  }
  ~CapturedStderr() { Stop(); }
  CapturedStderr(const CapturedStderr&) = delete;
  CapturedStderr& operator=(const CapturedStderr&) = delete;

  // Restores standard error and returns what was written to it since the
  // capture started; "" on a second call.
  std::string Stop() {
    if (file_ == nullptr) return "";
    std::fflush(stderr);
    if (saved_ >= 0) {
      ::dup2(saved_, STDERR_FILENO);
      ::close(saved_);
      saved_ = -1;
    }
    std::string text;
    std::rewind(file_);
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof(buffer), file_)) > 0;) {
      text.append(buffer, n);
    }
    std::fclose(file_);
    file_ = nullptr;
    return text;
  }

 private:
  FILE* file_ = nullptr;
  int saved_ = -1;
};

// The lines of `text`, without their newlines.
inline std::vector<std::string> LinesOf(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// The log lines of `text` (docs/spec/api-logging.md: "[component][L]
// file:line: message") whose severity letter is `severity` (0: any) and
// whose text contains `needle`.
inline std::vector<std::string> LogLines(const std::string& text, char severity,
                                         const std::string& needle) {
  std::vector<std::string> found;
  for (const std::string& line : LinesOf(text)) {
    if (line.empty() || line[0] != '[') continue;
    const size_t close = line.find("][");
    if (close == std::string::npos || close + 3 >= line.size() ||
        line[close + 3] != ']') {
      continue;
    }
    if (severity != 0 && line[close + 2] != severity) continue;
    if (line.find(needle) == std::string::npos) continue;
    found.push_back(line);
  }
  return found;
}

inline bool HasLogLine(const std::string& text, char severity,
                       const std::string& needle) {
  return !LogLines(text, severity, needle).empty();
}

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_CAPTURED_OUTPUT_H_
