// Parsing a spec chapter.
//
// The chapter is read line by line with a small state machine. A `### `
// heading opens a clause; the lines after it, up to the next heading, are
// the clause's body. The body is a statement (any lines before the first
// field) followed by a field list (`- key: value` lines); a field list may
// not be followed by more statement text, because a reader would take that
// text for part of the next clause. Each problem becomes a Diagnostic naming
// the file and line, and parsing continues so that one run reports all.
//
// Tested by spec_parser_test.cc.

#include "tools/spec/spec_parser.h"

#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "re2/re2.h"

namespace mxcts::spec {
namespace {

// Debian's RE2 takes its own StringPiece rather than absl::string_view.
re2::StringPiece Piece(absl::string_view text) {
  return re2::StringPiece(text.data(), text.size());
}

// Values of the `error` field: an mcError_t or mcrtcResult enumerator, or a
// compile-time diagnostic.
bool IsValidErrorName(absl::string_view error) {
  static const LazyRE2 kErrorName = {
      R"((mc[A-Z][A-Za-z0-9]*|MCRTC_[A-Z0-9_]+|diagnostic))"};
  return RE2::FullMatch(Piece(error), *kErrorName);
}

bool ParseKind(absl::string_view text, ClauseKind* kind) {
  for (ClauseKind candidate :
       {ClauseKind::kRequirement, ClauseKind::kError, ClauseKind::kUndefined,
        ClauseKind::kImplementationDefined}) {
    if (text == ClauseKindName(candidate)) {
      *kind = candidate;
      return true;
    }
  }
  return false;
}

// Collects the lines of one clause and turns them into a Clause.
class ClauseBuilder {
 public:
  ClauseBuilder(Clause clause, std::vector<Diagnostic>* diagnostics)
      : clause_(std::move(clause)), diagnostics_(diagnostics) {}

  void AddLine(int line_number, absl::string_view line) {
    static const LazyRE2 kField = {R"(- ([a-z-]+):(.*))"};
    std::string key;
    std::string value;
    if (RE2::FullMatch(Piece(line), *kField, &key, &value)) {
      AddField(line_number, key, absl::StripAsciiWhitespace(value));
      return;
    }
    if (absl::StripAsciiWhitespace(line).empty()) return;
    // Text after the field list is informative prose that leads into what
    // follows; it is not part of the statement.
    if (!fields_seen_.empty()) return;
    statement_.emplace_back(line);
  }

  // Checks the collected clause and returns it.
  Clause Finish() {
    // Surrounding blank lines are not part of the statement.
    clause_.statement = absl::StrJoin(statement_, "\n");
    if (statement_.empty()) Report(clause_.line, "the statement is empty");
    for (absl::string_view required : {"kind", "testability", "source"}) {
      if (!HasField(required)) {
        Report(clause_.line, absl::StrCat("missing field '", required, "'"));
      }
    }
    if (HasField("kind")) {
      if (clause_.kind == ClauseKind::kError && !HasField("error")) {
        Report(clause_.line,
               "a clause of kind 'error' needs an 'error' field naming the "
               "mcError_t, mcrtcResult or 'diagnostic'");
      }
      if (clause_.kind != ClauseKind::kError && HasField("error")) {
        Report(clause_.line,
               "an 'error' field belongs only to a clause of kind 'error'");
      }
    }
    return std::move(clause_);
  }

 private:
  bool HasField(absl::string_view key) const {
    for (const std::string& seen : fields_seen_) {
      if (seen == key) return true;
    }
    return false;
  }

  void AddField(int line_number, const std::string& key,
                absl::string_view value) {
    if (HasField(key)) {
      Report(line_number, absl::StrCat("field '", key, "' given twice"));
      return;
    }
    fields_seen_.push_back(key);
    if (value.empty()) {
      Report(line_number, absl::StrCat("field '", key, "' is empty"));
      return;
    }
    if (key == "kind") {
      if (!ParseKind(value, &clause_.kind)) {
        Report(line_number, absl::StrCat("unknown kind '", value,
                                         "' (requirement, error, undefined, "
                                         "implementation-defined)"));
      }
    } else if (key == "error") {
      if (!IsValidErrorName(value)) {
        Report(line_number,
               absl::StrCat("error '", value,
                            "' is not an mcError_t or mcrtcResult enumerator "
                            "or 'diagnostic'"));
      }
      clause_.error = std::string(value);
    } else if (key == "testability") {
      if (value == "testable") {
        clause_.testable = true;
      } else if (absl::ConsumePrefix(&value, "untestable:") &&
                 !absl::StripAsciiWhitespace(value).empty()) {
        clause_.testable = false;
        clause_.untestable_reason =
            std::string(absl::StripAsciiWhitespace(value));
      } else {
        Report(line_number,
               "testability must be 'testable' or 'untestable: <reason>'");
      }
    } else if (key == "source") {
      clause_.source = std::string(value);
    } else {
      Report(line_number, absl::StrCat("unknown field '", key,
                                       "' (kind, error, testability, source)"));
    }
  }

  void Report(int line_number, std::string message) {
    diagnostics_->push_back(
        {clause_.file, line_number,
         absl::StrCat("clause ", clause_.id, ": ", std::move(message))});
  }

  Clause clause_;
  std::vector<Diagnostic>* diagnostics_;
  std::vector<std::string> statement_;
  std::vector<std::string> fields_seen_;
};

std::string ChapterName(absl::string_view file) {
  absl::string_view name = file;
  size_t slash = name.rfind('/');
  if (slash != absl::string_view::npos) name.remove_prefix(slash + 1);
  absl::ConsumeSuffix(&name, ".md");
  return std::string(name);
}

}  // namespace

absl::string_view ClauseKindName(ClauseKind kind) {
  switch (kind) {
    case ClauseKind::kRequirement:
      return "requirement";
    case ClauseKind::kError:
      return "error";
    case ClauseKind::kUndefined:
      return "undefined";
    case ClauseKind::kImplementationDefined:
      return "implementation-defined";
  }
  return "requirement";
}

std::string Diagnostic::ToString() const {
  if (line == 0) return absl::StrCat(file, ": ", message);
  return absl::StrCat(file, ":", line, ": ", message);
}

bool IsWellFormedClauseId(absl::string_view id) {
  // Each component's first word holds a letter, so that no component is a
  // bare section number.
  static const LazyRE2 kClauseId = {
      R"([a-z0-9]*[a-z][a-z0-9]*(-[a-z0-9]+)*)"
      R"((\.[a-z0-9]*[a-z][a-z0-9]*(-[a-z0-9]+)*){2,})"};
  return RE2::FullMatch(Piece(id), *kClauseId);
}

Chapter ParseChapter(absl::string_view file, absl::string_view text,
                     std::vector<Diagnostic>* diagnostics) {
  Chapter chapter;
  chapter.file = std::string(file);
  chapter.name = ChapterName(file);
  auto report = [&](int line, std::string message) {
    diagnostics->push_back({chapter.file, line, std::move(message)});
  };

  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  if (lines.empty() || !absl::StartsWith(lines[0], "# ")) {
    report(1, "the first line must be the chapter title, '# Title'");
  } else {
    chapter.title = std::string(absl::StripAsciiWhitespace(lines[0].substr(2)));
  }

  bool have_prefix_line = false;
  std::string section;
  std::optional<ClauseBuilder> open_clause;
  auto close_clause = [&]() {
    if (open_clause) chapter.clauses.push_back(open_clause->Finish());
    open_clause.reset();
  };

  bool in_code_block = false;
  for (size_t index = 0; index < lines.size(); ++index) {
    const int line_number = static_cast<int>(index) + 1;
    absl::string_view line = absl::StripTrailingAsciiWhitespace(lines[index]);
    // Fenced code blocks (examples in prose) hold no headings or fields.
    if (absl::StartsWith(line, "```")) in_code_block = !in_code_block;
    if (in_code_block || absl::StartsWith(line, "```")) {
      if (open_clause) open_clause->AddLine(line_number, line);
      continue;
    }
    if (absl::StartsWith(line, "Clause prefix:") && !have_prefix_line) {
      have_prefix_line = true;
      static const LazyRE2 kQuoted = {"`([^`]*)`"};
      re2::StringPiece rest = Piece(line);
      std::string prefix;
      while (RE2::FindAndConsume(&rest, *kQuoted, &prefix)) {
        if (!IsWellFormedClauseId(prefix + ".x.x")) {
          report(line_number,
                 absl::StrCat("malformed clause prefix '", prefix, "'"));
        }
        chapter.prefixes.push_back(prefix);
      }
      if (chapter.prefixes.empty()) {
        report(line_number,
               "the 'Clause prefix:' line names no back-quoted prefix");
      }
      continue;
    }
    if (absl::StartsWith(line, "#")) {
      close_clause();
      if (absl::StartsWith(line, "### ")) {
        Clause clause;
        clause.id = std::string(absl::StripAsciiWhitespace(line.substr(4)));
        clause.chapter = chapter.name;
        clause.file = chapter.file;
        clause.line = line_number;
        clause.section = section;
        if (!IsWellFormedClauseId(clause.id)) {
          report(line_number,
                 absl::StrCat("malformed clause ID '", clause.id,
                              "': use lowercase words joined by '-', at "
                              "least three components joined by '.'"));
        } else if (!have_prefix_line) {
          report(line_number,
                 "clause before the 'Clause prefix:' line of the chapter");
        } else {
          bool prefix_matches = false;
          for (const std::string& prefix : chapter.prefixes) {
            if (absl::StartsWith(clause.id, absl::StrCat(prefix, "."))) {
              prefix_matches = true;
            }
          }
          if (!prefix_matches) {
            report(line_number,
                   absl::StrCat("clause ID '", clause.id,
                                "' does not start with a prefix of this "
                                "chapter (",
                                absl::StrJoin(chapter.prefixes, ", "), ")"));
          }
        }
        open_clause.emplace(std::move(clause), diagnostics);
      } else if (absl::StartsWith(line, "## ")) {
        section = std::string(absl::StripAsciiWhitespace(line.substr(3)));
      } else if (line_number != 1 && !absl::StartsWith(line, "#### ")) {
        report(line_number,
               "unexpected heading level: '#' is the title, '##' a section, "
               "'###' a clause");
      }
      continue;
    }
    if (open_clause) open_clause->AddLine(line_number, line);
  }
  close_clause();
  if (in_code_block) {
    report(static_cast<int>(lines.size()), "unterminated ``` code block");
  }
  if (!have_prefix_line) {
    report(1, "the chapter has no 'Clause prefix:' line");
  }
  return chapter;
}

}  // namespace mxcts::spec
