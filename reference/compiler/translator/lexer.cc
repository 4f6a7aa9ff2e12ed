// Copyright mxcts authors.
//
// A single forward pass over the bytes. The lexer keeps the physical line
// and column of the current byte, so every token knows where it starts; a
// newline inside a token (a raw string, a block comment) advances the line
// count like any other. Errors never stop the pass: an unterminated quoted
// literal ends before the newline that should have closed it, an
// unterminated block comment or raw string ends at the end of the source.
//
// Punctuators are matched longest first from a fixed table, which gives
// C++'s maximal munch; the one exception C++ makes, `<::` lexing as `<` `::`
// unless a `:` or `>` follows, is applied before the table. Bytes of 0x80 and
// above continue identifiers, as g++ accepts UTF-8 in identifiers.
//
// Tested by lexer_test.cc.

#include "reference/compiler/translator/lexer.h"

namespace mxcts::compiler {
namespace {

bool IsIdentifierStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '$' || c >= 0x80;
}

bool IsIdentifierContinue(unsigned char c) {
  return IsIdentifierStart(c) || (c >= '0' && c <= '9');
}

bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }

bool IsHorizontalSpace(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

// Longer before shorter, so the first match is the longest.
constexpr std::string_view kPunctuators[] = {
    "%:%:", "<<=", ">>=", "->*", "...", "<=>", "::", "->", ".*", "++",
    "--",   "<<",  ">>",  "<=",  ">=",  "==",  "!=", "&&", "||", "+=",
    "-=",   "*=",  "/=",  "%=",  "&=",  "|=",  "^=", "##", "<:", ":>",
    "<%",   "%>",  "%:",  "{",   "}",   "[",   "]",  "(",  ")",  ";",
    ":",    "?",   ".",   "~",   "!",   "+",   "-",
};
constexpr std::string_view kSingleCharPunctuators = "*/%^&|=<>,#";

class Lexer {
 public:
  explicit Lexer(std::string_view source) : source_(source) {}

  LexResult Run() {
    bool at_line_start = true;
    while (position_ < source_.size()) {
      unsigned char c = source_[position_];
      if (c == '\n') {
        Advance(1);
        at_line_start = true;
        continue;
      }
      if (IsHorizontalSpace(c)) {
        Advance(1);
        continue;
      }
      if (c == '/' && Peek(1) == '/') {
        while (position_ < source_.size() && source_[position_] != '\n') {
          Advance(1);
        }
        continue;
      }
      if (c == '/' && Peek(1) == '*') {
        SkipBlockComment();
        continue;
      }
      if (c == '#' && at_line_start) {
        LexDirective();
        continue;
      }
      at_line_start = false;
      LexToken();
    }
    return std::move(result_);
  }

 private:
  unsigned char Peek(size_t ahead) const {
    size_t at = position_ + ahead;
    return at < source_.size() ? source_[at] : '\0';
  }

  // Moves `count` bytes forward, keeping line and column.
  void Advance(size_t count) {
    for (size_t i = 0; i < count && position_ < source_.size(); ++i) {
      if (source_[position_] == '\n') {
        ++line_;
        column_ = 1;
      } else {
        ++column_;
      }
      ++position_;
    }
  }

  void Error(size_t offset, int line, int column, std::string message) {
    result_.errors.push_back(
        {static_cast<int>(offset), line, column, std::move(message)});
  }

  void SkipBlockComment() {
    size_t start = position_;
    int line = line_, column = column_;
    Advance(2);
    while (position_ < source_.size()) {
      if (source_[position_] == '*' && Peek(1) == '/') {
        Advance(2);
        return;
      }
      Advance(1);
    }
    Error(start, line, column, "unterminated comment");
  }

  void LexDirective() {
    size_t start = position_;
    int line = line_, column = column_;
    while (position_ < source_.size() && source_[position_] != '\n') {
      Advance(1);
    }
    Emit(TokenKind::kDirective, start, line, column);
  }

  void Emit(TokenKind kind, size_t start, int line, int column) {
    Token token;
    token.kind = kind;
    token.text = source_.substr(start, position_ - start);
    token.offset = static_cast<int>(start);
    token.line = line;
    token.column = column;
    result_.tokens.push_back(token);
  }

  void LexToken() {
    size_t start = position_;
    int line = line_, column = column_;
    unsigned char c = source_[position_];
    if (IsIdentifierStart(c)) {
      size_t end = position_;
      while (end < source_.size() && IsIdentifierContinue(source_[end])) ++end;
      std::string_view word = source_.substr(position_, end - position_);
      unsigned char next = end < source_.size() ? source_[end] : '\0';
      bool string_prefix = word == "L" || word == "u" || word == "U" ||
                           word == "u8" || word == "R" || word == "LR" ||
                           word == "uR" || word == "UR" || word == "u8R";
      if (string_prefix && next == '"') {
        Advance(word.size());
        if (word.back() == 'R') {
          LexRawString(start, line, column);
        } else {
          LexQuoted('"', TokenKind::kString, start, line, column);
        }
        return;
      }
      bool char_prefix =
          word == "L" || word == "u" || word == "U" || word == "u8";
      if (char_prefix && next == '\'') {
        Advance(word.size());
        LexQuoted('\'', TokenKind::kCharacter, start, line, column);
        return;
      }
      Advance(word.size());
      Emit(TokenKind::kIdentifier, start, line, column);
      return;
    }
    if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) {
      LexNumber(start, line, column);
      return;
    }
    if (c == '"') {
      LexQuoted('"', TokenKind::kString, start, line, column);
      return;
    }
    if (c == '\'') {
      LexQuoted('\'', TokenKind::kCharacter, start, line, column);
      return;
    }
    size_t length = PunctuatorLength();
    if (length > 0) {
      Advance(length);
      Emit(TokenKind::kPunctuator, start, line, column);
      return;
    }
    Advance(1);
    Emit(TokenKind::kOther, start, line, column);
  }

  // pp-number: digit or .digit, then digits, identifier characters, dots,
  // exponent signs (e+ E- p+ P-) and digit separators ('digit, 'letter).
  void LexNumber(size_t start, int line, int column) {
    Advance(1);
    while (position_ < source_.size()) {
      unsigned char c = source_[position_];
      unsigned char next = Peek(1);
      if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') &&
          (next == '+' || next == '-')) {
        Advance(2);
      } else if (c == '\'' && IsIdentifierContinue(next)) {
        Advance(2);
      } else if (IsIdentifierContinue(c) || c == '.') {
        Advance(1);
      } else {
        break;
      }
    }
    Emit(TokenKind::kNumber, start, line, column);
  }

  void SkipSuffix() {
    while (position_ < source_.size() &&
           IsIdentifierContinue(source_[position_])) {
      Advance(1);
    }
  }

  // A "..." or '...' literal starting at the quote under the cursor.
  void LexQuoted(char quote, TokenKind kind, size_t start, int line,
                 int column) {
    Advance(1);
    while (true) {
      if (position_ >= source_.size() || source_[position_] == '\n') {
        Error(start, line, column,
              quote == '"' ? "unterminated string literal"
                           : "unterminated character literal");
        Emit(kind, start, line, column);
        return;
      }
      unsigned char c = source_[position_];
      if (c == '\\' && position_ + 1 < source_.size()) {
        Advance(2);
        continue;
      }
      Advance(1);
      if (c == static_cast<unsigned char>(quote)) break;
    }
    SkipSuffix();
    Emit(kind, start, line, column);
  }

  // R"delim( ... )delim" starting at the quote under the cursor.
  void LexRawString(size_t start, int line, int column) {
    Advance(1);
    size_t delimiter_start = position_;
    while (position_ < source_.size() && position_ - delimiter_start <= 16) {
      unsigned char c = source_[position_];
      if (c == '(' || c == ')' || c == '\\' || c == '"' || c == ' ' ||
          c == '\t' || c == '\v' || c == '\f' || c == '\n') {
        break;
      }
      Advance(1);
    }
    if (position_ >= source_.size() || source_[position_] != '(' ||
        position_ - delimiter_start > 16) {
      Error(start, line, column, "invalid raw string delimiter");
      Emit(TokenKind::kString, start, line, column);
      return;
    }
    std::string closing = ")";
    closing.append(
        source_.substr(delimiter_start, position_ - delimiter_start));
    closing.push_back('"');
    size_t close = source_.find(closing, position_ + 1);
    if (close == std::string_view::npos) {
      Advance(source_.size() - position_);
      Error(start, line, column, "unterminated raw string literal");
      Emit(TokenKind::kString, start, line, column);
      return;
    }
    Advance(close + closing.size() - position_);
    SkipSuffix();
    Emit(TokenKind::kString, start, line, column);
  }

  size_t PunctuatorLength() const {
    std::string_view rest = source_.substr(position_);
    // [lex.pptoken]/3: `<::` is `<` `::` unless `:` or `>` follows.
    if (rest.size() >= 3 && rest.substr(0, 3) == "<::" &&
        (rest.size() == 3 || (rest[3] != ':' && rest[3] != '>'))) {
      return 1;
    }
    for (std::string_view punctuator : kPunctuators) {
      if (rest.substr(0, punctuator.size()) == punctuator) {
        return punctuator.size();
      }
    }
    return kSingleCharPunctuators.find(rest[0]) != std::string_view::npos ? 1
                                                                          : 0;
  }

  std::string_view source_;
  size_t position_ = 0;
  int line_ = 1;
  int column_ = 1;
  LexResult result_;
};

}  // namespace

bool Token::Is(std::string_view spelling) const {
  return CanonicalSpelling(*this) == spelling;
}

LexResult Lex(std::string_view source) { return Lexer(source).Run(); }

std::string_view CanonicalSpelling(const Token& token) {
  if (token.kind != TokenKind::kPunctuator) return token.text;
  if (token.text == "<:") return "[";
  if (token.text == ":>") return "]";
  if (token.text == "<%") return "{";
  if (token.text == "%>") return "}";
  if (token.text == "%:") return "#";
  if (token.text == "%:%:") return "##";
  return token.text;
}

}  // namespace mxcts::compiler
