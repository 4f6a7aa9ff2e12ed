// Copyright mxcts authors.
//
// The translator's output is the input with edits applied: insertions at a
// byte offset and replacements of a byte range. Applying them keeps the line
// structure of the input: a replaced range's newlines and line markers are
// written again after its replacement text,
// so every later line keeps its number and its line marker. Text next to an
// edit is separated by a space where two tokens could otherwise merge.
// Internal to the translator.
//
//   EditList edits;
//   edits.Replace(body_begin, body_end, "{ __builtin_trap(); }");
//   edits.Insert(offset, " int x;");
//   std::string out = edits.Apply(source, lexed.tokens);

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_EDIT_LIST_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_EDIT_LIST_H_

#include <string>
#include <string_view>
#include <vector>

#include "reference/compiler/translator/lexer.h"

namespace mxcts::compiler::translator_internal {

class EditList {
 public:
  // Inserts `text` (one line, no newline) at byte `offset`. Insertions at
  // one offset keep their order.
  void Insert(int offset, std::string text);
  // Replaces bytes [begin, end) by `text` (one line, no newline). A
  // replacement overlapping one that starts earlier, or nested in a larger
  // one starting at the same byte, is dropped; so is an insertion strictly
  // inside a replaced range. Callers rely on this: a replaced function body
  // takes the edits found inside it with it.
  void Replace(int begin, int end, std::string text);

  bool empty() const { return edits_.empty(); }

  // `source` with the edits applied. `tokens` are the lexer's tokens of
  // `source`; its line markers are kept when a replaced range contains them.
  std::string Apply(std::string_view source,
                    const std::vector<Token>& tokens) const;

 private:
  struct Edit {
    int begin;
    int end;
    std::string text;
    int sequence;
  };
  std::vector<Edit> edits_;
};

}  // namespace mxcts::compiler::translator_internal

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_EDIT_LIST_H_
