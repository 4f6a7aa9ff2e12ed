// -----------------------------------------------------------------------------
// File: mutator.h
// -----------------------------------------------------------------------------
//
// The mutation operators of tools/mutate. Each turns one clause-tagged check
// (finder.h) into a mutant: the source with that one check broken, which a
// test of the clause should notice.
//
//   negate  `if (C)` becomes `if (!(C))`: the check fires exactly when it
//           should not.
//   skip    `if (C)` becomes `if (false && (C))`: the check never fires, so
//           its early return or error is removed and the code after it runs
//           (an `else` branch always runs).
//   drop    `MX_RETURN_IF_ERROR(E);` becomes `static_cast<void>(0);`: the
//           checking call is not made and its error never returned.
//
// `negate` and `skip` apply to tagged `if`s, `drop` to tagged
// MX_RETURN_IF_ERROR statements. A mutant keeps every line break, so line
// numbers in compiler messages still point at the original lines.
//
// Example:
//
//   for (const Mutant& mutant : MakeMutants(FindTaggedChecks(path, text)))
//     Build(ApplyMutant(text, mutant));

#ifndef MXCTS_TOOLS_MUTATE_MUTATOR_H_
#define MXCTS_TOOLS_MUTATE_MUTATOR_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "tools/mutate/finder.h"

namespace mxcts::mutate {

enum class Operator { kNegate, kSkip, kDrop };

// "negate", "skip", "drop".
absl::string_view OperatorName(Operator op);

// Parses an operator name; false when unknown.
bool ParseOperator(absl::string_view name, Operator* op);

struct Mutant {
  TaggedCheck check;
  Operator op = Operator::kNegate;

  // "FILE:LINE:OPERATOR"; the second of two such mutants on one line (two
  // checks there) gets "#2", and so on.
  std::string id;
};

// The mutants of `checks`: negate and skip for each `if`, drop for each
// MX_RETURN_IF_ERROR, in order. IDs are made unique.
std::vector<Mutant> MakeMutants(const std::vector<TaggedCheck>& checks);

// Returns `text` (the source the check was found in) with the mutant
// applied.
std::string ApplyMutant(absl::string_view text, const Mutant& mutant);

}  // namespace mxcts::mutate

#endif  // MXCTS_TOOLS_MUTATE_MUTATOR_H_
