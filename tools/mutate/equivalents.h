// -----------------------------------------------------------------------------
// File: equivalents.h
// -----------------------------------------------------------------------------
//
// The mutants that no test can kill because they do not change what a
// program observes through the public API (equivalent mutants), each with
// the reason. tools/mutate gives them the status "equivalent" instead of
// running them, and they do not count in the mutation score (results.h).
//
// The file (tools/mutate/equivalent_mutants.tsv) is TSV, one mutant a line;
// blank lines and lines starting with '#' are ignored:
//
//   file  operator  check  reason
//
// `check` is the text of the mutated check with every run of white space
// made one space: the condition of an `if` (between its parentheses) or the
// whole MX_RETURN_IF_ERROR statement. It names the mutant by its content,
// not by its line, so an entry outlives edits elsewhere in the file; an
// entry whose check was edited matches nothing, and tools/mutate says so,
// so that the reason is looked at again.
//
// Example:
//
//   absl::StatusOr<std::vector<Equivalent>> table =
//       ParseEquivalents(path, text);
//   const Equivalent* e = FindEquivalent(*table, mutant, CheckText(source,
//                                                         mutant.check));

#ifndef MXCTS_TOOLS_MUTATE_EQUIVALENTS_H_
#define MXCTS_TOOLS_MUTATE_EQUIVALENTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/mutate/finder.h"
#include "tools/mutate/mutator.h"

namespace mxcts::mutate {

struct Equivalent {
  std::string file;
  std::string op;     // "negate", "skip" or "drop"
  std::string check;  // white space collapsed (CheckText)
  std::string reason;
  int line = 0;  // its line in the equivalents file, for messages
};

// The check's text in `source` (the file it was found in), each run of
// white space made one space and the ends trimmed.
std::string CheckText(absl::string_view source, const TaggedCheck& check);

// Parses an equivalents file. Fails on a line without four fields, an
// unknown operator or an empty reason, naming `file` and the line.
absl::StatusOr<std::vector<Equivalent>> ParseEquivalents(
    absl::string_view file, absl::string_view text);

// The entry naming `mutant` (whose check has text `check_text`), or null.
const Equivalent* FindEquivalent(const std::vector<Equivalent>& table,
                                 const Mutant& mutant,
                                 absl::string_view check_text);

}  // namespace mxcts::mutate

#endif  // MXCTS_TOOLS_MUTATE_EQUIVALENTS_H_
