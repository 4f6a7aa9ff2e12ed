// Copyright mxcts authors.
//
// The C++ lexer of the MXMACA translator. It splits preprocessed C++ (the
// output of `g++ -E`) into tokens that keep their exact place in the source,
// so that the translator can rewrite the text around them without touching
// anything else. Whitespace and comments are not tokens; they stay in the
// text between tokens.
//
// Tokens follow C++17's phase-3 rules: identifiers (keywords included),
// pp-numbers (digit separators included), string and character literals
// with their encoding prefixes, raw strings and user-defined suffixes, and
// punctuators by maximal munch, digraphs included (with the `<::` rule).
// A line whose first non-blank character is `#` (a line marker
// `# 12 "a.cu" 1 3`, a `#pragma`) is one kDirective token up to the end of
// its line. `<<<` is not a token: the translator recognizes it as `<<`
// followed by an adjacent `<`.
//
//   LexResult lexed = Lex("int x = 1;\n");
//   // lexed.tokens: int, x, =, 1, ;   lexed.errors: empty

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_LEXER_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_LEXER_H_

#include <string>
#include <string_view>
#include <vector>

namespace mxcts::compiler {

enum class TokenKind {
  kIdentifier,  // identifiers and keywords
  kNumber,      // pp-number
  kString,      // string literal, prefix and ud-suffix included
  kCharacter,   // character literal, prefix and ud-suffix included
  kPunctuator,
  kDirective,  // a whole `#...` line, without its newline
  kOther,      // a character that starts no token: `\`, `@`, a control char
};

struct Token {
  TokenKind kind = TokenKind::kOther;
  std::string_view text;  // a view into the lexed source
  int offset = 0;         // of the first byte in the source
  int line = 1;           // 1-based physical line of the first byte
  int column = 1;         // 1-based byte column of the first byte

  int end() const { return offset + static_cast<int>(text.size()); }
  bool Is(std::string_view spelling) const;  // canonical spelling equals
};

struct LexError {
  int offset = 0;
  int line = 1;
  int column = 1;
  std::string message;
};

struct LexResult {
  std::vector<Token> tokens;
  std::vector<LexError> errors;  // unterminated literals and comments
};

// Splits `source` into tokens. Never fails: malformed input yields tokens
// (an unterminated literal ends at the end of its line) plus errors. The
// token views point into `source`, which must outlive the result.
LexResult Lex(std::string_view source);

// The spelling of a punctuator with digraphs replaced (`<:` is `[`, `%>` is
// `}`, `%:` is `#`); any other token's text unchanged.
std::string_view CanonicalSpelling(const Token& token);

}  // namespace mxcts::compiler

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_LEXER_H_
