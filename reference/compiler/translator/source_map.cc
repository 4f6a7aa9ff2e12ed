// Copyright mxcts authors.
//
// Line markers are parsed as g++ writes them: `#`, optional `line`, a
// decimal line number, an optional quoted file name (with `\\` and `\"`
// escapes) and optional flags. A marker without a file name keeps the
// current file and its system-header flag; a directive that is no line
// marker (`#pragma`) is ignored. Lookup is a binary search over the markers
// by physical line.
//
// Tested by diagnostics_test.cc (positions) and function_rewrites_test.cc
// (system headers).

#include "reference/compiler/translator/source_map.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace mxcts::compiler::translator_internal {
namespace {

void SkipSpaces(std::string_view text, size_t& at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
}

}  // namespace

SourceMap::SourceMap(const std::vector<Token>& tokens) {
  std::string file = "<input>";
  bool system_header = false;
  for (const Token& token : tokens) {
    if (token.kind != TokenKind::kDirective) continue;
    std::string_view text = token.text;
    size_t at = 1;
    SkipSpaces(text, at);
    if (text.substr(at, 4) == "line") {
      at += 4;
      SkipSpaces(text, at);
    }
    if (at >= text.size() ||
        !std::isdigit(static_cast<unsigned char>(text[at]))) {
      continue;
    }
    long number = 0;
    while (at < text.size() &&
           std::isdigit(static_cast<unsigned char>(text[at]))) {
      number = std::min(number * 10 + (text[at] - '0'), 1L << 30);
      ++at;
    }
    SkipSpaces(text, at);
    if (at < text.size() && text[at] == '"') {
      std::string name;
      for (++at; at < text.size() && text[at] != '"'; ++at) {
        if (text[at] == '\\' && at + 1 < text.size()) ++at;
        name.push_back(text[at]);
      }
      ++at;
      file = name;
      system_header = false;
      while (at < text.size()) {
        SkipSpaces(text, at);
        if (at < text.size() && text[at] == '3' &&
            (at + 1 == text.size() || text[at + 1] == ' ')) {
          system_header = true;
        }
        while (at < text.size() && text[at] != ' ' && text[at] != '\t') ++at;
      }
    }
    markers_.push_back(
        {token.line + 1, static_cast<int>(number), file, system_header});
  }
}

PresumedLocation SourceMap::Locate(int physical_line) const {
  auto after = std::upper_bound(
      markers_.begin(), markers_.end(), physical_line,
      [](int line, const Marker& m) { return line < m.first_physical_line; });
  if (after == markers_.begin()) return {"<input>", physical_line, false};
  const Marker& m = *std::prev(after);
  return {m.file, m.presumed_line + (physical_line - m.first_physical_line),
          m.system_header};
}

}  // namespace mxcts::compiler::translator_internal
