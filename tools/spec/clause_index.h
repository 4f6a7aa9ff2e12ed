// -----------------------------------------------------------------------------
// File: clause_index.h
// -----------------------------------------------------------------------------
//
// The whole specification as one index: every chapter of a docs/spec
// directory, its clauses, the alias file and the lock file, checked
// together. This is the lint that keeps clause IDs stable:
//
//   * every chapter parses without problems (see spec_parser.h);
//   * no clause ID is defined twice, in one chapter or across chapters;
//   * every ID in `clauses.lock` (every ID ever published) is either a live
//     clause or has an entry in `aliases.txt`, so a rename never orphans test
//     results or expectation lists;
//   * every alias names an old ID that is no longer live, and points to a
//     live clause or says `retired: <reason>`.
//
// Example:
//
//   std::vector<mxcts::spec::Diagnostic> problems;
//   absl::StatusOr<mxcts::spec::SpecIndex> index =
//       mxcts::spec::LoadSpecDirectory("docs/spec", &problems);
//   if (!index.ok()) Fail(index.status());        // unreadable directory
//   for (auto& problem : problems) Print(problem.ToString());
//   const mxcts::spec::Clause* clause = index->Find("api.stream.sync.waits");

#ifndef MXCTS_TOOLS_SPEC_CLAUSE_INDEX_H_
#define MXCTS_TOOLS_SPEC_CLAUSE_INDEX_H_

#include <map>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/spec/spec_parser.h"

namespace mxcts::spec {

// One line of aliases.txt: `old -> new` or `old -> retired: reason`.
struct Alias {
  std::string old_id;
  std::string new_id;          // empty when retired
  std::string retired_reason;  // set when retired
  int line = 0;
};

// The named inputs of an index, as text. Paths are used in diagnostics.
struct SpecSources {
  struct File {
    std::string path;
    std::string text;
  };
  std::vector<File> chapters;  // each chapter's Markdown
  File aliases;                // aliases.txt (may be empty text)
  File lock;                   // clauses.lock (may be empty text)
};

class SpecIndex {
 public:
  SpecIndex() = default;
  SpecIndex(const SpecIndex&) = delete;
  SpecIndex& operator=(const SpecIndex&) = delete;
  SpecIndex(SpecIndex&&) = default;
  SpecIndex& operator=(SpecIndex&&) = default;

  // Chapters in file-name order.
  const std::vector<Chapter>& chapters() const { return chapters_; }
  const std::vector<Alias>& aliases() const { return aliases_; }
  // The IDs of clauses.lock, sorted.
  const std::vector<std::string>& locked_ids() const { return locked_ids_; }

  // Returns the live clause with this ID, or null.
  const Clause* Find(absl::string_view id) const;

  // Returns the live clause an ID refers to now: the clause itself, or the
  // end of its alias chain. Returns null for an unknown or retired ID.
  const Clause* Resolve(absl::string_view id) const;

  // Returns the number of live clauses.
  int clause_count() const { return static_cast<int>(by_id_.size()); }

  // Returns clauses.lock's new text: its IDs plus every live ID, sorted,
  // one per line.
  std::string UpdatedLock() const;

  // Returns the index as JSON: chapters with their clauses and every field,
  // and the aliases.
  std::string ToJson() const;

  // Returns every ID a test may name, one per line, sorted: live clauses and
  // aliases that resolve to one.
  std::string ReferableIds() const;

  friend SpecIndex BuildSpecIndex(const SpecSources& sources,
                                  std::vector<Diagnostic>* diagnostics);

 private:
  std::vector<Chapter> chapters_;
  std::vector<Alias> aliases_;
  std::vector<std::string> locked_ids_;
  absl::flat_hash_map<std::string, const Clause*> by_id_;
  std::map<std::string, std::string> alias_targets_;  // old -> new or ""
};

// Parses and cross-checks `sources`. Every problem is appended to
// `diagnostics` (not null); the index is usable either way.
SpecIndex BuildSpecIndex(const SpecSources& sources,
                         std::vector<Diagnostic>* diagnostics);

// Reads every `*.md` file of `dir` except README.md as a chapter, plus
// `dir/aliases.txt` and `dir/clauses.lock` when present, and builds the
// index. Fails only when the directory or a file cannot be read (the
// message names it); spec problems go to `diagnostics`. A directory with no
// chapter is a diagnostic.
absl::StatusOr<SpecIndex> LoadSpecDirectory(
    const std::string& dir, std::vector<Diagnostic>* diagnostics);

// Builds the index from explicit files: each path ending in `.md` (other
// than README.md) is a chapter, one ending in `aliases.txt` the aliases, one
// ending in `clauses.lock` the lock. Fails when a file cannot be read.
absl::StatusOr<SpecIndex> LoadSpecFiles(const std::vector<std::string>& paths,
                                        std::vector<Diagnostic>* diagnostics);

}  // namespace mxcts::spec

#endif  // MXCTS_TOOLS_SPEC_CLAUSE_INDEX_H_
