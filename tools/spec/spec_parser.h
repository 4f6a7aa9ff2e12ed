// -----------------------------------------------------------------------------
// File: spec_parser.h
// -----------------------------------------------------------------------------
//
// Parses one chapter of the MXMACA specification (a Markdown file of
// docs/spec) into its clauses. The form is defined in docs/spec/README.md:
// a `# Title` line, a `Clause prefix:` line, `##` sections, and one `### <id>`
// heading per clause followed by its statement and a `- key: value` field
// list (kind, error, testability, source).
//
// The parser reports every problem it finds, each with the file and line,
// and keeps going, so one run of the lint lists all of a chapter's mistakes.
//
// Example:
//
//   std::vector<mxcts::spec::Diagnostic> problems;
//   mxcts::spec::Chapter chapter =
//       mxcts::spec::ParseChapter("docs/spec/api-stream.md", text, &problems);
//   for (const auto& clause : chapter.clauses) Use(clause.id, clause.kind);
//   for (const auto& problem : problems) Report(problem.ToString());

#ifndef MXCTS_TOOLS_SPEC_SPEC_PARSER_H_
#define MXCTS_TOOLS_SPEC_SPEC_PARSER_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace mxcts::spec {

// What a clause states.
enum class ClauseKind {
  kRequirement,            // what must happen
  kError,                  // which error a misuse returns (Clause::error)
  kUndefined,              // the behaviour is undefined
  kImplementationDefined,  // an implementation chooses and documents
};

// Returns the spelling used in the spec ("requirement", "error",
// "undefined", "implementation-defined").
absl::string_view ClauseKindName(ClauseKind kind);

// One normative rule.
struct Clause {
  std::string id;         // e.g. "api.stream.wait-event.orders-later-work"
  std::string chapter;    // the chapter's name (its file name without .md)
  std::string file;       // the path the chapter was parsed from
  int line = 0;           // 1-based line of the clause's heading
  std::string section;    // the enclosing `##` heading, or "" before any
  std::string statement;  // the statement's lines, joined by '\n'
  ClauseKind kind = ClauseKind::kRequirement;
  std::string error;  // kError only: mcError_t, mcrtcResult or "diagnostic"
  bool testable = true;
  std::string untestable_reason;  // set when !testable
  std::string source;             // where the rule comes from
};

// One chapter file.
struct Chapter {
  std::string name;                   // file name without directory and ".md"
  std::string file;                   // the path as given to ParseChapter
  std::string title;                  // text of the `# ` line
  std::vector<std::string> prefixes;  // from the `Clause prefix:` line
  std::vector<Clause> clauses;        // in file order
};

// A problem found in a spec file (or in the spec as a whole: line 0).
struct Diagnostic {
  std::string file;
  int line = 0;
  std::string message;

  // "file:line: message", or "file: message" when line is 0.
  std::string ToString() const;
};

// Returns true when `id` has the clause ID form: at least three components
// separated by '.', each one or more lowercase ASCII words of letters and
// digits joined by single '-', the first word holding a letter (so that no
// component is a bare number).
bool IsWellFormedClauseId(absl::string_view id);

// Parses the chapter `text` read from `file`. Every problem is appended to
// `diagnostics` (which must not be null); the returned chapter holds every
// clause whose heading was found, including those with problems, so that
// callers can still detect duplicates across files. A chapter parsed without
// new diagnostics is well formed.
Chapter ParseChapter(absl::string_view file, absl::string_view text,
                     std::vector<Diagnostic>* diagnostics);

}  // namespace mxcts::spec

#endif  // MXCTS_TOOLS_SPEC_SPEC_PARSER_H_
