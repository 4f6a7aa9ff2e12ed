// Reading and writing tools/mutate's results file and scoring it
// (results.h). Tested by results_test.cc.

#include "tools/mutate/results.h"

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace mxcts::mutate {
namespace {

constexpr absl::string_view kHeader =
    "id\tfile\tline\toperator\tclauses\tchapter\tstatus\tseconds\ttargets";

constexpr MutantStatus kStatuses[] = {
    MutantStatus::kKilled,     MutantStatus::kSurvived, MutantStatus::kNoTests,
    MutantStatus::kBuildError, MutantStatus::kTimeout,  MutantStatus::kBroken,
    MutantStatus::kEquivalent};

std::vector<std::string> SplitList(absl::string_view text) {
  if (text.empty()) return {};
  return absl::StrSplit(text, ',');
}

}  // namespace

absl::string_view MutantStatusName(MutantStatus status) {
  switch (status) {
    case MutantStatus::kKilled:
      return "killed";
    case MutantStatus::kSurvived:
      return "survived";
    case MutantStatus::kNoTests:
      return "no-tests";
    case MutantStatus::kBuildError:
      return "build-error";
    case MutantStatus::kTimeout:
      return "timeout";
    case MutantStatus::kBroken:
      return "broken";
    case MutantStatus::kEquivalent:
      return "equivalent";
  }
  return "?";
}

void MutationCounts::Add(MutantStatus status) {
  ++total;
  switch (status) {
    case MutantStatus::kKilled:
      ++killed;
      break;
    case MutantStatus::kSurvived:
      ++survived;
      break;
    case MutantStatus::kNoTests:
      ++no_tests;
      break;
    case MutantStatus::kBuildError:
      ++build_errors;
      break;
    case MutantStatus::kTimeout:
      ++timeouts;
      break;
    case MutantStatus::kBroken:
      ++broken;
      break;
    case MutantStatus::kEquivalent:
      ++equivalent;
      break;
  }
}

std::optional<double> MutationCounts::Score() const {
  if (killed + survived == 0) return std::nullopt;
  return static_cast<double>(killed) / (killed + survived);
}

std::string ResultsHeader() { return absl::StrCat(kHeader, "\n"); }

std::string FormatResult(const MutantResult& result) {
  return absl::StrFormat("%s\t%s\t%d\t%s\t%s\t%s\t%s\t%.1f\t%s\n", result.id,
                         result.file, result.line, result.op,
                         absl::StrJoin(result.clauses, ","), result.chapter,
                         MutantStatusName(result.status), result.seconds,
                         absl::StrJoin(result.targets, ","));
}

absl::StatusOr<std::vector<MutantResult>> ParseResults(absl::string_view file,
                                                       absl::string_view text) {
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  if (lines.empty() || lines[0] != kHeader) {
    return absl::InvalidArgumentError(absl::StrCat(
        file, ":1: not a tools/mutate results file (expected the header \"",
        kHeader, "\")"));
  }
  std::vector<MutantResult> results;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    auto bad = [&](absl::string_view why) {
      return absl::InvalidArgumentError(
          absl::StrCat(file, ":", i + 1, ": ", why));
    };
    std::vector<absl::string_view> fields = absl::StrSplit(lines[i], '\t');
    if (fields.size() != 9) {
      return bad(absl::StrCat("expected 9 tab-separated fields, found ",
                              fields.size()));
    }
    MutantResult result;
    result.id = std::string(fields[0]);
    result.file = std::string(fields[1]);
    if (!absl::SimpleAtoi(fields[2], &result.line)) {
      return bad(absl::StrCat("line \"", fields[2], "\" is not a number"));
    }
    result.op = std::string(fields[3]);
    result.clauses = SplitList(fields[4]);
    result.chapter = std::string(fields[5]);
    bool known = false;
    for (MutantStatus status : kStatuses) {
      if (MutantStatusName(status) == fields[6]) {
        result.status = status;
        known = true;
      }
    }
    if (!known) return bad(absl::StrCat("unknown status \"", fields[6], "\""));
    if (!absl::SimpleAtod(fields[7], &result.seconds)) {
      return bad(absl::StrCat("seconds \"", fields[7], "\" is not a number"));
    }
    result.targets = SplitList(fields[8]);
    results.push_back(std::move(result));
  }
  return results;
}

std::map<std::string, MutationCounts> CountsByChapter(
    const std::vector<MutantResult>& results) {
  std::map<std::string, MutationCounts> counts;
  for (const MutantResult& result : results) {
    counts[result.chapter].Add(result.status);
  }
  return counts;
}

std::string FormatScore(const MutationCounts& counts) {
  std::optional<double> score = counts.Score();
  if (!score.has_value()) return "-";
  return absl::StrFormat("%.1f%%", 100 * *score);
}

std::string SummaryTable(const std::vector<MutantResult>& results) {
  std::string out =
      absl::StrFormat("%-32s %6s %6s %8s %8s %6s %7s %6s %5s %6s\n", "chapter",
                      "total", "killed", "survived", "no-tests", "build",
                      "timeout", "broken", "equiv", "score");
  MutationCounts total;
  auto row = [&out](absl::string_view name, const MutationCounts& counts) {
    absl::StrAppendFormat(&out, "%-32s %6d %6d %8d %8d %6d %7d %6d %5d %6s\n",
                          name.empty() ? "(no chapter)" : name, counts.total,
                          counts.killed, counts.survived, counts.no_tests,
                          counts.build_errors, counts.timeouts, counts.broken,
                          counts.equivalent, FormatScore(counts));
  };
  for (const auto& [chapter, counts] : CountsByChapter(results)) {
    row(chapter, counts);
  }
  for (const MutantResult& result : results) total.Add(result.status);
  row("total", total);
  return out;
}

}  // namespace mxcts::mutate
