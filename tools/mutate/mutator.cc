// The mutation operators (mutator.h). Tested by mutator_test.cc.

#include "tools/mutate/mutator.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"

namespace mxcts::mutate {

absl::string_view OperatorName(Operator op) {
  switch (op) {
    case Operator::kNegate:
      return "negate";
    case Operator::kSkip:
      return "skip";
    case Operator::kDrop:
      return "drop";
  }
  return "?";
}

bool ParseOperator(absl::string_view name, Operator* op) {
  for (Operator candidate :
       {Operator::kNegate, Operator::kSkip, Operator::kDrop}) {
    if (OperatorName(candidate) == name) {
      *op = candidate;
      return true;
    }
  }
  return false;
}

std::vector<Mutant> MakeMutants(const std::vector<TaggedCheck>& checks) {
  std::vector<Mutant> mutants;
  std::map<std::string, int> seen;
  auto add = [&](const TaggedCheck& check, Operator op) {
    Mutant mutant;
    mutant.check = check;
    mutant.op = op;
    mutant.id =
        absl::StrCat(check.file, ":", check.line, ":", OperatorName(op));
    const int count = ++seen[mutant.id];
    if (count > 1) absl::StrAppend(&mutant.id, "#", count);
    mutants.push_back(std::move(mutant));
  };
  for (const TaggedCheck& check : checks) {
    if (check.kind == CheckKind::kIf) {
      add(check, Operator::kNegate);
      add(check, Operator::kSkip);
    } else {
      add(check, Operator::kDrop);
    }
  }
  return mutants;
}

std::string ApplyMutant(absl::string_view text, const Mutant& mutant) {
  const TaggedCheck& check = mutant.check;
  const absl::string_view before = text.substr(0, check.begin);
  const absl::string_view middle =
      text.substr(check.begin, check.end - check.begin);
  const absl::string_view after = text.substr(check.end);
  switch (mutant.op) {
    case Operator::kNegate:
      return absl::StrCat(before, "!(", middle, ")", after);
    case Operator::kSkip:
      return absl::StrCat(before, "false && (", middle, ")", after);
    case Operator::kDrop: {
      // Keep the statement's line breaks so later lines keep their numbers.
      const std::string breaks(std::count(middle.begin(), middle.end(), '\n'),
                               '\n');
      return absl::StrCat(before, "static_cast<void>(0);", breaks, after);
    }
  }
  return std::string(text);
}

}  // namespace mxcts::mutate
