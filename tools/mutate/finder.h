// -----------------------------------------------------------------------------
// File: finder.h
// -----------------------------------------------------------------------------
//
// Finds the clause-tagged checks of a reference source: the places where
// the reference says, in a comment, which spec clause a check implements.
// These are what tools/mutate mutates (mutator.h).
//
// A clause tag is a bracketed clause ID inside a comment, e.g.
// `// [api.memory.malloc-host.size-zero]`. Two kinds of statement are
// checks:
//
//   * an `if` (or `else if`) statement, tagged when a clause tag is
//       - in a comment on one of the lines from `if (` to its body's `{`
//         (a trailing comment: `if (size == 0) {  // [id]`), or
//       - in the comment-only lines directly above the `if` (no blank or
//         code line between), or
//       - in the comment-only lines that open its body;
//   * an `MX_RETURN_IF_ERROR(...);` statement, tagged by a comment directly
//     above it or trailing on its line.
//
// Anything else (an `if` with no tag near it, a tag above a function or a
// declaration, `if constexpr`, an `if` with an init-statement) is not a
// check. This is lexical, not a C++ parse; it relies on the reference's
// style (one statement per line, tags beside the code they describe).
//
// Example:
//
//   for (const TaggedCheck& check : FindTaggedChecks(path, text))
//     Print(check.line, check.clauses);

#ifndef MXCTS_TOOLS_MUTATE_FINDER_H_
#define MXCTS_TOOLS_MUTATE_FINDER_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace mxcts::mutate {

enum class CheckKind {
  kIf,             // if (CONDITION) ...
  kReturnIfError,  // MX_RETURN_IF_ERROR(...);
};

struct TaggedCheck {
  std::string file;
  int line = 0;  // 1-based line of the `if` or the macro
  CheckKind kind = CheckKind::kIf;
  // The clause IDs tagging it, in order of appearance, without duplicates.
  std::vector<std::string> clauses;
  // Offsets into the source text. kIf: [begin, end) is the condition
  // between the parentheses. kReturnIfError: the whole statement,
  // semicolon included.
  size_t begin = 0;
  size_t end = 0;
};

// Returns the clause IDs in bracket tags inside the comments of `text`.
// Exposed for tests.
std::vector<std::string> ClauseTagsIn(absl::string_view comment_text);

// Returns the tagged checks of one source, in source order.
std::vector<TaggedCheck> FindTaggedChecks(absl::string_view file,
                                          absl::string_view text);

}  // namespace mxcts::mutate

#endif  // MXCTS_TOOLS_MUTATE_FINDER_H_
