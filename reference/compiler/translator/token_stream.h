// Copyright mxcts authors.
//
// The tokens the translator's parsers walk: the lexer's tokens without
// directive lines, each bracket paired with its partner, plus the small
// syntactic predicates every parser needs (keywords, template argument
// lists, splitting at top-level commas). Internal to the translator.
//
//   TokenStream stream(Lex(text).tokens);
//   int close = stream.Match(open);          // the `)` of a `(`
//   for (Range r : stream.SplitTopLevel(open + 1, close, ",", true)) ...

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_TOKEN_STREAM_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_TOKEN_STREAM_H_

#include <string>
#include <string_view>
#include <vector>

#include "reference/compiler/translator/lexer.h"

namespace mxcts::compiler::translator_internal {

// A half-open range of token indices.
struct Range {
  int begin = 0;
  int end = 0;
  bool empty() const { return begin >= end; }
};

class TokenStream {
 public:
  // Keeps every token of `tokens` that is not a directive.
  explicit TokenStream(const std::vector<Token>& tokens);

  int size() const { return static_cast<int>(tokens_.size()); }
  const Token& at(int i) const { return tokens_[i]; }

  // True when token `i` exists and its canonical spelling is `spelling`.
  bool Is(int i, std::string_view spelling) const;
  // True when token `i` exists and is an identifier that is not a keyword.
  bool IsName(int i) const;
  bool IsIdentifier(int i) const;
  // True when token `i` exists and is a keyword (or a GNU keyword spelling).
  bool IsKeyword(int i) const;

  // The partner of the bracket at `i` (`(` `[` `{` and their closers), or -1
  // for an unbalanced bracket or a token that is no bracket.
  int Match(int i) const;
  // One past the bracket group opening at `i`, or `end` when unbalanced.
  int SkipGroup(int i, int end) const;

  // True when tokens `i` and `i + 1` touch (no space between them).
  bool Adjacent(int i) const;
  // `<<<` starting at token `i` (a `<<` touching a `<`).
  bool IsLaunchOpen(int i) const;
  // `>>>` starting at token `i` (a `>>` touching a `>`).
  bool IsLaunchClose(int i) const;

  // For a `<` at `i` opening a template argument list (it follows a name or
  // `template`): the index of the token that closes it (`>` or the `>>`
  // that closes it and an inner list), or -1 when no closer is found before
  // `end`, a `;` or an unbalanced closing bracket.
  int MatchAngle(int i, int end) const;
  // True when the `<` at `i` follows a name, `template`, or `operator X`.
  bool OpensTemplateArguments(int i) const;
  // The index after the construct starting at `i`: a bracket group, a
  // template argument list (when `angles` and OpensTemplateArguments), or
  // the single token.
  int SkipOne(int i, int end, bool angles) const;

  // Splits [begin, end) at the top-level tokens spelled `separator`.
  // Returns one range per part, the empty input giving no part.
  std::vector<Range> SplitTopLevel(int begin, int end,
                                   std::string_view separator,
                                   bool angles) const;
  // The first top-level token in [begin, end) spelled `spelling`, or -1.
  int FindTopLevel(int begin, int end, std::string_view spelling,
                   bool angles) const;

  // The tokens of [begin, end) joined by single spaces: always re-lexes to
  // the same tokens, on one line.
  std::string Text(int begin, int end) const;
  std::string Text(Range range) const { return Text(range.begin, range.end); }

 private:
  std::vector<Token> tokens_;
  std::vector<int> match_;
};

// True for C++ keywords and the GNU spellings g++ treats as keywords.
bool IsKeywordSpelling(std::string_view word);
// True for the keywords that name or build a type (int, unsigned, ...).
bool IsSimpleTypeKeyword(std::string_view word);

}  // namespace mxcts::compiler::translator_internal

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_TOKEN_STREAM_H_
