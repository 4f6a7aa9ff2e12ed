// Scanning test sources for tests and clause references.
//
// Comments are blanked first (keeping every newline, so offsets map to the
// same lines). Then two regular expressions walk the text: one for test
// macros, one for MX_SPEC(...) argument lists; the matches are merged in
// offset order so that each reference lands in the test defined before it.
// This is lexical, not a C++ parse: it relies on tests being written as
// GoogleTest macros with plain identifiers and on clause IDs being string
// literals, both of which the conformance style requires.
//
// Tested by test_source_scanner_test.cc.

#include "tools/spec/test_source_scanner.h"

#include <algorithm>
#include <utility>

#include "re2/re2.h"

namespace mxcts::spec {
namespace {

re2::StringPiece Piece(absl::string_view text) {
  return re2::StringPiece(text.data(), text.size());
}

struct Match {
  size_t offset;
  bool is_test;
  std::string first;   // suite, or the MX_SPEC argument text
  std::string second;  // test name
};

int LineAt(absl::string_view text, size_t offset) {
  return 1 + static_cast<int>(
                 std::count(text.begin(), text.begin() + offset, '\n'));
}

}  // namespace

std::string BlankOutComments(absl::string_view source) {
  std::string out(source);
  enum class State { kCode, kLineComment, kBlockComment, kString, kChar };
  State state = State::kCode;
  for (size_t i = 0; i < out.size(); ++i) {
    char c = out[i];
    char next = i + 1 < out.size() ? out[i + 1] : '\0';
    switch (state) {
      case State::kCode:
        if (c == '/' && next == '/') {
          state = State::kLineComment;
          out[i] = ' ';
        } else if (c == '/' && next == '*') {
          state = State::kBlockComment;
          out[i] = ' ';
          out[++i] = ' ';
        } else if (c == '"') {
          state = State::kString;
        } else if (c == '\'') {
          state = State::kChar;
        }
        break;
      case State::kLineComment:
        if (c == '\n') {
          state = State::kCode;
        } else {
          out[i] = ' ';
        }
        break;
      case State::kBlockComment:
        if (c == '*' && next == '/') {
          out[i] = ' ';
          out[++i] = ' ';
          state = State::kCode;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
      case State::kString:
      case State::kChar:
        if (c == '\\') {
          ++i;  // the escaped character cannot end the literal
        } else if ((state == State::kString && c == '"') ||
                   (state == State::kChar && c == '\'') || c == '\n') {
          state = State::kCode;
        }
        break;
    }
  }
  return out;
}

ScannedSource ScanTestSource(absl::string_view file, absl::string_view text) {
  static const LazyRE2 kTestMacro = {
      R"(\b(?:TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P)\s*\(\s*(\w+)\s*,)"
      R"(\s*(\w+)\s*\))"};
  static const LazyRE2 kSpecMacro = {R"(\bMX_SPEC\s*\(([^)]*)\))"};
  static const LazyRE2 kStringLiteral = {R"re("([^"\\]*)")re"};

  const std::string code = BlankOutComments(text);
  std::vector<Match> matches;
  re2::StringPiece rest = Piece(code);
  std::string first;
  std::string second;
  while (RE2::FindAndConsume(&rest, *kTestMacro, &first, &second)) {
    // The match ends at rest.data(); search back for the macro's start.
    size_t end = rest.data() - code.data();
    size_t start = code.rfind(first, end);
    start = code.rfind('(', start);
    matches.push_back({start, true, first, second});
  }
  rest = Piece(code);
  while (RE2::FindAndConsume(&rest, *kSpecMacro, &first)) {
    size_t end = rest.data() - code.data();
    matches.push_back({end - first.size() - 1, false, first, ""});
  }
  std::sort(matches.begin(), matches.end(),
            [](const Match& a, const Match& b) { return a.offset < b.offset; });

  ScannedSource scanned;
  for (const Match& match : matches) {
    const int line = LineAt(code, match.offset);
    if (match.is_test) {
      scanned.tests.push_back(
          {match.first, match.second, std::string(file), line, {}});
      continue;
    }
    std::vector<ClauseReference>& target = scanned.tests.empty()
                                               ? scanned.stray_references
                                               : scanned.tests.back().clauses;
    re2::StringPiece arguments = Piece(match.first);
    std::string id;
    while (RE2::FindAndConsume(&arguments, *kStringLiteral, &id)) {
      target.push_back({id, line});
    }
  }
  return scanned;
}

}  // namespace mxcts::spec
