// Finding clause-tagged checks: comments are blanked (test_source_scanner.h)
// so that code can be matched without being fooled by comments, and each
// line's comment text is kept apart to read its clause tags. Offsets are
// the same in both, since blanking keeps every character's position.
//
// Tested by finder_test.cc.

#include "tools/mutate/finder.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "re2/re2.h"
#include "tools/spec/test_source_scanner.h"

namespace mxcts::mutate {
namespace {

// One source line: its code (comments blanked) and its comment text.
struct Line {
  size_t begin = 0;  // offset of its first character
  size_t end = 0;    // offset of its newline (or of the text's end)
  std::vector<std::string> tags;
  bool comment_only = false;  // no code, some comment
};

std::vector<Line> SplitLines(absl::string_view text, absl::string_view code) {
  std::vector<Line> lines;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find('\n', begin);
    if (end == absl::string_view::npos) end = text.size();
    Line line;
    line.begin = begin;
    line.end = end;
    std::string comment(end - begin, ' ');
    bool has_code = false;
    for (size_t i = begin; i < end; ++i) {
      if (code[i] != text[i]) {
        comment[i - begin] = text[i];
      } else if (!absl::ascii_isspace(static_cast<unsigned char>(code[i]))) {
        has_code = true;
      }
    }
    line.tags = ClauseTagsIn(comment);
    line.comment_only =
        !has_code && !absl::StripAsciiWhitespace(comment).empty();
    lines.push_back(std::move(line));
    if (end == text.size()) break;
    begin = end + 1;
  }
  return lines;
}

// The index of the line holding `offset`.
int LineIndex(const std::vector<Line>& lines, size_t offset) {
  auto it = std::upper_bound(
      lines.begin(), lines.end(), offset,
      [](size_t value, const Line& line) { return value < line.begin; });
  return static_cast<int>(it - lines.begin()) - 1;
}

// The offset of the parenthesis closing the one at `open`, skipping string
// and character literals; npos if unbalanced.
size_t MatchingParen(absl::string_view code, size_t open) {
  int depth = 0;
  for (size_t i = open; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '"' || c == '\'') {
      for (++i; i < code.size() && code[i] != c; ++i) {
        if (code[i] == '\\') ++i;
      }
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')' && --depth == 0) return i;
  }
  return absl::string_view::npos;
}

// True when `condition` has a top-level ';' (an if with an init-statement).
bool HasInitStatement(absl::string_view condition) {
  int depth = 0;
  for (char c : condition) {
    if (c == '(' || c == '{' || c == '[') ++depth;
    if (c == ')' || c == '}' || c == ']') --depth;
    if (c == ';' && depth == 0) return true;
  }
  return false;
}

void AddTags(const std::vector<std::string>& tags,
             std::vector<std::string>* out) {
  for (const std::string& tag : tags) {
    if (std::find(out->begin(), out->end(), tag) == out->end()) {
      out->push_back(tag);
    }
  }
}

// Tags of the comment-only lines directly above line `index`, top first.
std::vector<std::string> TagsAbove(const std::vector<Line>& lines, int index) {
  int first = index;
  while (first > 0 && lines[first - 1].comment_only) --first;
  std::vector<std::string> tags;
  for (int i = first; i < index; ++i) AddTags(lines[i].tags, &tags);
  return tags;
}

// Tags of the comment-only lines directly below line `index`.
std::vector<std::string> TagsBelow(const std::vector<Line>& lines, int index) {
  std::vector<std::string> tags;
  for (int i = index + 1;
       i < static_cast<int>(lines.size()) && lines[i].comment_only; ++i) {
    AddTags(lines[i].tags, &tags);
  }
  return tags;
}

// Tags on the lines [first, last].
std::vector<std::string> TagsOn(const std::vector<Line>& lines, int first,
                                int last) {
  std::vector<std::string> tags;
  for (int i = first; i <= last; ++i) AddTags(lines[i].tags, &tags);
  return tags;
}

}  // namespace

std::vector<std::string> ClauseTagsIn(absl::string_view comment_text) {
  static const LazyRE2 kTag = {
      R"(\[([a-z][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*){2,})\])"};
  std::vector<std::string> tags;
  re2::StringPiece rest(comment_text.data(), comment_text.size());
  std::string id;
  while (RE2::FindAndConsume(&rest, *kTag, &id)) AddTags({id}, &tags);
  return tags;
}

std::vector<TaggedCheck> FindTaggedChecks(absl::string_view file,
                                          absl::string_view text) {
  static const LazyRE2 kCheck = {R"(\b(if|MX_RETURN_IF_ERROR)\s*\()"};
  const std::string code = spec::BlankOutComments(text);
  const std::vector<Line> lines = SplitLines(text, code);
  std::vector<TaggedCheck> checks;

  re2::StringPiece rest(code);
  std::string keyword;
  while (RE2::FindAndConsume(&rest, *kCheck, &keyword)) {
    const size_t open = rest.data() - code.data() - 1;
    const size_t start = code.rfind(keyword, open);
    // `#if (...)` is the preprocessor's.
    size_t before = start;
    while (before > 0 && (code[before - 1] == ' ' || code[before - 1] == '\t'))
      --before;
    if (before > 0 && code[before - 1] == '#') continue;
    const size_t close = MatchingParen(code, open);
    if (close == std::string::npos) continue;
    const int first_line = LineIndex(lines, start);

    TaggedCheck check;
    check.file = std::string(file);
    check.line = first_line + 1;
    if (keyword == "if") {
      const absl::string_view condition =
          absl::string_view(code).substr(open + 1, close - open - 1);
      if (HasInitStatement(condition)) continue;
      check.kind = CheckKind::kIf;
      check.begin = open + 1;
      check.end = close;
      size_t body = close + 1;
      while (body < code.size() &&
             absl::ascii_isspace(static_cast<unsigned char>(code[body])))
        ++body;
      const bool braced = body < code.size() && code[body] == '{';
      const int head_last = LineIndex(lines, braced ? body : close);
      AddTags(TagsAbove(lines, first_line), &check.clauses);
      AddTags(TagsOn(lines, first_line, head_last), &check.clauses);
      if (braced) AddTags(TagsBelow(lines, head_last), &check.clauses);
    } else {
      size_t semicolon = close + 1;
      while (semicolon < code.size() &&
             absl::ascii_isspace(static_cast<unsigned char>(code[semicolon])))
        ++semicolon;
      if (semicolon >= code.size() || code[semicolon] != ';') continue;
      check.kind = CheckKind::kReturnIfError;
      check.begin = start;
      check.end = semicolon + 1;
      AddTags(TagsAbove(lines, first_line), &check.clauses);
      AddTags(TagsOn(lines, first_line, LineIndex(lines, semicolon)),
              &check.clauses);
    }
    if (!check.clauses.empty()) checks.push_back(std::move(check));
  }
  return checks;
}

}  // namespace mxcts::mutate
