// Copyright mxcts authors.
//
// Brackets are paired once, with a stack, when the stream is built; an
// unbalanced closer pairs with nothing and the openers it would have closed
// stay open until their own closer (or forever). Template argument lists
// cannot be paired that way, because `<` and `>` are also operators, so
// MatchAngle decides per list: it only runs where the grammar expects a
// template argument list (after a name in a declaration), counts nested
// lists that open after a name, treats `>>` as two closers, skips bracket
// groups whole, and gives up at a `;` or an unbalanced closer.
//
// Tested by translator_test.cc and the rewrite tests, which depend on it.

#include "reference/compiler/translator/token_stream.h"

#include <algorithm>
#include <unordered_set>

namespace mxcts::compiler::translator_internal {
namespace {

const std::unordered_set<std::string_view>& Keywords() {
  static const auto* const kKeywords = new std::unordered_set<std::string_view>{
      "alignas", "alignof", "asm", "auto", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "concept", "const",
      "consteval", "constexpr", "constinit", "const_cast", "continue",
      "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export",
      "extern", "false", "float", "for", "friend", "goto", "if", "inline",
      "int", "long", "mutable", "namespace", "new", "noexcept", "nullptr",
      "operator", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof",
      "static", "static_assert", "static_cast", "struct", "switch", "template",
      "this", "thread_local", "throw", "true", "try", "typedef", "typeid",
      "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
      "wchar_t", "while",
      // GNU spellings.
      "__attribute__", "__attribute", "__asm__", "__asm", "__inline",
      "__inline__", "__restrict", "__restrict__", "__typeof__", "__typeof",
      "typeof", "__decltype", "__extension__", "__alignof__", "__alignof",
      "__const", "__const__", "__volatile", "__volatile__", "__signed",
      "__signed__", "__int128", "__label__", "_Complex", "__complex__",
      "__real__", "__imag__", "__thread", "__float128", "__underlying_type",
      "_Alignas", "_Static_assert", "__declspec"};
  return *kKeywords;
}

bool IsOpener(std::string_view s) { return s == "(" || s == "[" || s == "{"; }
bool IsCloser(std::string_view s) { return s == ")" || s == "]" || s == "}"; }

}  // namespace

bool IsKeywordSpelling(std::string_view word) {
  return Keywords().count(word) > 0;
}

bool IsSimpleTypeKeyword(std::string_view word) {
  static const auto* const kTypes = new std::unordered_set<std::string_view>{
      "void",      "char",       "char8_t",  "char16_t", "char32_t",
      "wchar_t",   "bool",       "short",    "int",      "long",
      "signed",    "unsigned",   "float",    "double",   "auto",
      "__int128",  "__signed__", "__signed", "_Complex", "__complex__",
      "__float128"};
  return kTypes->count(word) > 0;
}

TokenStream::TokenStream(const std::vector<Token>& tokens) {
  for (const Token& token : tokens) {
    if (token.kind != TokenKind::kDirective) tokens_.push_back(token);
  }
  match_.assign(tokens_.size(), -1);
  std::vector<int> open;
  for (int i = 0; i < size(); ++i) {
    if (tokens_[i].kind != TokenKind::kPunctuator) continue;
    std::string_view s = CanonicalSpelling(tokens_[i]);
    if (IsOpener(s)) {
      open.push_back(i);
    } else if (IsCloser(s)) {
      std::string_view want = s == ")" ? "(" : s == "]" ? "[" : "{";
      // A closer pairs with the innermost opener of its kind, closing any
      // mismatched openers above it only when a `}` ends a block.
      auto it = std::find_if(open.rbegin(), open.rend(), [&](int o) {
        return CanonicalSpelling(tokens_[o]) == want;
      });
      if (it == open.rend()) continue;
      if (it != open.rbegin() && s != "}") continue;
      int partner = *it;
      open.erase(std::next(it).base(), open.end());
      match_[partner] = i;
      match_[i] = partner;
    }
  }
}

bool TokenStream::Is(int i, std::string_view spelling) const {
  return i >= 0 && i < size() && tokens_[i].kind != TokenKind::kString &&
         tokens_[i].kind != TokenKind::kCharacter &&
         CanonicalSpelling(tokens_[i]) == spelling;
}

bool TokenStream::IsIdentifier(int i) const {
  return i >= 0 && i < size() && tokens_[i].kind == TokenKind::kIdentifier;
}

bool TokenStream::IsKeyword(int i) const {
  return IsIdentifier(i) && IsKeywordSpelling(tokens_[i].text);
}

bool TokenStream::IsName(int i) const {
  return IsIdentifier(i) && !IsKeywordSpelling(tokens_[i].text);
}

int TokenStream::Match(int i) const {
  return i >= 0 && i < size() ? match_[i] : -1;
}

int TokenStream::SkipGroup(int i, int end) const {
  int partner = Match(i);
  if (partner < i) return end;
  return std::min(partner + 1, end);
}

bool TokenStream::Adjacent(int i) const {
  return i >= 0 && i + 1 < size() && tokens_[i].end() == tokens_[i + 1].offset;
}

bool TokenStream::IsLaunchOpen(int i) const {
  return Is(i, "<<") && Is(i + 1, "<") && Adjacent(i);
}

bool TokenStream::IsLaunchClose(int i) const {
  return Is(i, ">>") && Is(i + 1, ">") && Adjacent(i);
}

bool TokenStream::OpensTemplateArguments(int i) const {
  if (!Is(i, "<") || IsLaunchOpen(i - 1)) return false;
  if (IsName(i - 1) || Is(i - 1, "template")) return true;
  return Is(i - 1, "static_cast") || Is(i - 1, "const_cast") ||
         Is(i - 1, "reinterpret_cast") || Is(i - 1, "dynamic_cast");
}

int TokenStream::MatchAngle(int i, int end) const {
  int depth = 1;
  end = std::min(end, size());
  for (int k = i + 1; k < end;) {
    std::string_view s = CanonicalSpelling(tokens_[k]);
    if (tokens_[k].kind == TokenKind::kPunctuator) {
      if (IsOpener(s)) {
        int partner = Match(k);
        if (partner < k || partner >= end) return -1;
        k = partner + 1;
        continue;
      }
      if (IsCloser(s) || s == ";") return -1;
      if (s == "<" && OpensTemplateArguments(k)) ++depth;
      if (s == ">") --depth;
      if (s == ">>") depth -= 2;
      if (depth <= 0) return k;
    }
    ++k;
  }
  return -1;
}

int TokenStream::SkipOne(int i, int end, bool angles) const {
  if (i >= end) return end;
  if (tokens_[i].kind == TokenKind::kPunctuator &&
      IsOpener(CanonicalSpelling(tokens_[i]))) {
    return SkipGroup(i, end);
  }
  if (angles && OpensTemplateArguments(i)) {
    int close = MatchAngle(i, end);
    if (close > i) return close + 1;
  }
  return i + 1;
}

std::vector<Range> TokenStream::SplitTopLevel(int begin, int end,
                                              std::string_view separator,
                                              bool angles) const {
  std::vector<Range> parts;
  if (begin >= end) return parts;
  int start = begin;
  for (int k = begin; k < end;) {
    if (Is(k, separator)) {
      parts.push_back({start, k});
      start = ++k;
      continue;
    }
    k = SkipOne(k, end, angles);
  }
  parts.push_back({start, end});
  return parts;
}

int TokenStream::FindTopLevel(int begin, int end, std::string_view spelling,
                              bool angles) const {
  for (int k = begin; k < end;) {
    if (Is(k, spelling)) return k;
    k = SkipOne(k, end, angles);
  }
  return -1;
}

std::string TokenStream::Text(int begin, int end) const {
  std::string text;
  for (int k = std::max(begin, 0); k < end && k < size(); ++k) {
    if (!text.empty()) text.push_back(' ');
    text.append(tokens_[k].text);
  }
  return text;
}

}  // namespace mxcts::compiler::translator_internal
