// Copyright mxcts authors.
//
// The progress of a GoogleTest binary, from its console output. Output is
// cut into lines; each line is cleaned of ANSI escape sequences (a user may
// force --gtest_color=yes) and searched for the start marker first, then
// the end markers. The name after an end marker is not compared with the
// running case: GoogleTest runs one case at a time, and the failure lines
// of its closing summary come after every case has ended.
//
// Tested by gtest_progress_test.cc.

#include "conformance/testing/gtest_progress.h"

#include <iterator>

#include "absl/strings/ascii.h"
#include "absl/strings/str_join.h"

namespace mxcts::conformance {
namespace {

constexpr absl::string_view kStart = "[ RUN      ] ";
constexpr absl::string_view kEnds[] = {"[       OK ] ", "[  FAILED  ] ",
                                       "[  SKIPPED ] "};
constexpr const char* kEndWords[] = {"OK", "FAILED", "SKIPPED"};

// `line` without ESC [ ... letter sequences.
std::string WithoutEscapes(absl::string_view line) {
  std::string clean;
  clean.reserve(line.size());
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
      i += 2;
      while (i < line.size() && !absl::ascii_isalpha(line[i])) ++i;
      continue;
    }
    clean += line[i];
  }
  return clean;
}

}  // namespace

void GtestProgress::Feed(absl::string_view chunk) {
  while (!chunk.empty()) {
    const size_t newline = chunk.find('\n');
    if (newline == absl::string_view::npos) {
      partial_.append(chunk.data(), chunk.size());
      return;
    }
    partial_.append(chunk.data(), newline);
    chunk.remove_prefix(newline + 1);
    Line(partial_);
    partial_.clear();
  }
}

void GtestProgress::Line(absl::string_view raw) {
  const std::string clean = WithoutEscapes(raw);
  const absl::string_view line = clean;
  const size_t start = line.find(kStart);
  if (start != absl::string_view::npos) {
    current_ = std::string(
        absl::StripAsciiWhitespace(line.substr(start + kStart.size())));
    started_.push_back(current_);
    running_ = true;
    ++events_;
    case_lines_.clear();
    return;
  }
  for (size_t i = 0; running_ && i < std::size(kEnds); ++i) {
    if (line.find(kEnds[i]) != absl::string_view::npos) {
      running_ = false;
      ended_.emplace_back(current_, kEndWords[i]);
      ++events_;
      case_lines_.clear();
      return;
    }
  }
  case_lines_.push_back(clean);
  if (case_lines_.size() > kKeptLines) case_lines_.pop_front();
}

std::string GtestProgress::CaseOutput() const {
  std::string output = absl::StrJoin(case_lines_, "\n");
  if (!partial_.empty()) {
    if (!output.empty()) output += '\n';
    output += WithoutEscapes(partial_);
  }
  return output;
}

}  // namespace mxcts::conformance
