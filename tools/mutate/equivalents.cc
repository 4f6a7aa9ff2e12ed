// The equivalent mutants' file of tools/mutate (equivalents.h). Tested by
// equivalents_test.cc.

#include "tools/mutate/equivalents.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace mxcts::mutate {

std::string CheckText(absl::string_view source, const TaggedCheck& check) {
  if (check.begin > check.end || check.end > source.size()) return "";
  std::string text;
  bool space = false;
  for (char c : source.substr(check.begin, check.end - check.begin)) {
    if (absl::ascii_isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !text.empty()) text += ' ';
    space = false;
    text += c;
  }
  return text;
}

absl::StatusOr<std::vector<Equivalent>> ParseEquivalents(
    absl::string_view file, absl::string_view text) {
  std::vector<Equivalent> table;
  int number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++number;
    absl::ConsumeSuffix(&line, "\r");
    if (absl::StripAsciiWhitespace(line).empty() ||
        absl::StartsWith(line, "#")) {
      continue;
    }
    auto bad = [&](absl::string_view why) {
      return absl::InvalidArgumentError(
          absl::StrCat(file, ":", number, ": ", why));
    };
    std::vector<absl::string_view> fields = absl::StrSplit(line, '\t');
    if (fields.size() != 4) {
      return bad(absl::StrCat(
          "expected 4 tab-separated fields (file, operator, check, reason), "
          "found ",
          fields.size()));
    }
    Operator op;
    if (!ParseOperator(fields[1], &op)) {
      return bad(absl::StrCat("unknown operator \"", fields[1],
                              "\" (negate, skip, drop)"));
    }
    Equivalent entry;
    entry.file = std::string(absl::StripAsciiWhitespace(fields[0]));
    entry.op = std::string(fields[1]);
    TaggedCheck whole;
    whole.begin = 0;
    whole.end = fields[2].size();
    entry.check = CheckText(fields[2], whole);
    entry.reason = std::string(absl::StripAsciiWhitespace(fields[3]));
    entry.line = number;
    if (entry.file.empty() || entry.check.empty()) {
      return bad("the file and the check must not be empty");
    }
    if (entry.reason.empty()) {
      return bad("no reason: say why no test can kill the mutant");
    }
    table.push_back(std::move(entry));
  }
  return table;
}

const Equivalent* FindEquivalent(const std::vector<Equivalent>& table,
                                 const Mutant& mutant,
                                 absl::string_view check_text) {
  for (const Equivalent& entry : table) {
    if (entry.file == mutant.check.file &&
        entry.op == OperatorName(mutant.op) && entry.check == check_text) {
      return &entry;
    }
  }
  return nullptr;
}

}  // namespace mxcts::mutate
