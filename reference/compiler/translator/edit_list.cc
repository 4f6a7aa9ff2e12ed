// Copyright mxcts authors.
//
// Edits are sorted by start; at one start, insertions come first (in the
// order they were made) and then replacements, longest first, so that the
// outermost replacement wins. One pass then copies the source between
// edits. The "skeleton" of a replaced range, its newlines and its line
// markers, follows the replacement text: since a directive always starts a
// line, and a replaced range always starts at a token, the newline before
// each marker of the range is in the range too. Other directives of a
// replaced range (a `#pragma unroll` in a replaced body) go with it.
//
// Tested by translator_test.cc (line preservation).

#include "reference/compiler/translator/edit_list.h"

#include <algorithm>

namespace mxcts::compiler::translator_internal {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f' || c == '\0';
}

// Whether `a` followed by `b` could join into one token, or form a comment.
bool MayMerge(char a, char b) {
  static constexpr std::string_view kStandalone = "()[]{},;";
  if (IsSpace(a) || IsSpace(b)) return false;
  return kStandalone.find(a) == std::string_view::npos &&
         kStandalone.find(b) == std::string_view::npos;
}

// `# 12 "a.cu"` or `#line 12`: what keeps the lines after it numbered.
// Other directives (`#pragma unroll`) belong to the text replaced.
bool IsLineMarker(std::string_view directive) {
  size_t at = directive.find_first_not_of(" \t", 1);
  if (at == std::string_view::npos) return false;
  return (directive[at] >= '0' && directive[at] <= '9') ||
         directive.substr(at, 4) == "line";
}

}  // namespace

void EditList::Insert(int offset, std::string text) {
  edits_.push_back(
      {offset, offset, std::move(text), static_cast<int>(edits_.size())});
}

void EditList::Replace(int begin, int end, std::string text) {
  edits_.push_back({begin, std::max(begin, end), std::move(text),
                    static_cast<int>(edits_.size())});
}

std::string EditList::Apply(std::string_view source,
                            const std::vector<Token>& tokens) const {
  std::vector<const Edit*> order;
  for (const Edit& edit : edits_) order.push_back(&edit);
  std::stable_sort(order.begin(), order.end(),
                   [](const Edit* a, const Edit* b) {
                     if (a->begin != b->begin) return a->begin < b->begin;
                     bool a_insert = a->begin == a->end;
                     bool b_insert = b->begin == b->end;
                     if (a_insert != b_insert) return a_insert;
                     if (a->end != b->end) return a->end > b->end;
                     return a->sequence < b->sequence;
                   });
  std::vector<const Token*> directives;
  for (const Token& token : tokens) {
    if (token.kind == TokenKind::kDirective) directives.push_back(&token);
  }

  std::string out;
  out.reserve(source.size() + source.size() / 8);
  int cursor = 0;
  const int size = static_cast<int>(source.size());
  for (const Edit* edit : order) {
    if (edit->begin < cursor || edit->end > size) continue;
    out.append(source.substr(cursor, edit->begin - cursor));
    std::string text = edit->text;
    // The skeleton of the replaced range.
    auto directive = std::lower_bound(
        directives.begin(), directives.end(), edit->begin,
        [](const Token* d, int offset) { return d->offset < offset; });
    for (int at = edit->begin; at < edit->end;) {
      if (directive != directives.end() && (*directive)->offset == at) {
        if (IsLineMarker((*directive)->text)) text.append((*directive)->text);
        at = (*directive)->end();
        ++directive;
        continue;
      }
      if (source[at] == '\n') text.push_back('\n');
      ++at;
    }
    char before = out.empty() ? '\0' : out.back();
    char after = edit->end < size ? source[edit->end] : '\0';
    if (text.empty()) {
      if (MayMerge(before, after)) out.push_back(' ');
    } else {
      if (MayMerge(before, text.front())) out.push_back(' ');
      out.append(text);
      if (MayMerge(text.back(), after)) out.push_back(' ');
    }
    cursor = edit->end;
  }
  out.append(source.substr(cursor));
  return out;
}

}  // namespace mxcts::compiler::translator_internal
