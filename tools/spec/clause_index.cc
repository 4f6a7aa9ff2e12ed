// Building the clause index.
//
// Each chapter is parsed on its own (spec_parser.cc); this file joins them.
// Live IDs go into one map; a second definition of an ID is reported at
// both places. The alias file is read next: each alias must name an ID that
// is no longer live, and its chain of renames must end at a live clause (or
// at a retirement) without looping. Last, every locked ID must be live or
// aliased; that is the check that catches a clause renamed in place.
//
// Tested by clause_index_test.cc.

#include "tools/spec/clause_index.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "nlohmann/json.hpp"
#include "tools/spec/file_io.h"

namespace mxcts::spec {
namespace {

std::vector<Alias> ParseAliases(const SpecSources::File& file,
                                std::vector<Diagnostic>* diagnostics) {
  std::vector<Alias> aliases;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(file.text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, "#")) continue;
    std::vector<absl::string_view> parts =
        absl::StrSplit(line, absl::MaxSplits(" -> ", 1));
    Alias alias;
    alias.line = line_number;
    if (parts.size() != 2) {
      diagnostics->push_back(
          {file.path, line_number,
           "expected 'old.id -> new.id' or 'old.id -> retired: reason'"});
      continue;
    }
    alias.old_id = std::string(absl::StripAsciiWhitespace(parts[0]));
    absl::string_view target = absl::StripAsciiWhitespace(parts[1]);
    if (absl::ConsumePrefix(&target, "retired:")) {
      alias.retired_reason = std::string(absl::StripAsciiWhitespace(target));
      if (alias.retired_reason.empty()) {
        diagnostics->push_back({file.path, line_number,
                                "a retired ID needs a reason after "
                                "'retired:'"});
      }
    } else {
      alias.new_id = std::string(target);
      if (!IsWellFormedClauseId(alias.new_id)) {
        diagnostics->push_back(
            {file.path, line_number,
             absl::StrCat("malformed clause ID '", alias.new_id, "'")});
      }
    }
    if (!IsWellFormedClauseId(alias.old_id)) {
      diagnostics->push_back(
          {file.path, line_number,
           absl::StrCat("malformed clause ID '", alias.old_id, "'")});
    }
    aliases.push_back(std::move(alias));
  }
  return aliases;
}

std::vector<std::string> ParseLock(const SpecSources::File& file,
                                   std::vector<Diagnostic>* diagnostics) {
  std::set<std::string> ids;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(file.text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, "#")) continue;
    if (!IsWellFormedClauseId(line)) {
      diagnostics->push_back(
          {file.path, line_number,
           absl::StrCat("malformed clause ID '", line, "'")});
      continue;
    }
    ids.emplace(line);
  }
  return std::vector<std::string>(ids.begin(), ids.end());
}

using Json = nlohmann::ordered_json;

Json ClauseJson(const Clause& clause) {
  Json json = Json::object();
  json["id"] = clause.id;
  json["line"] = clause.line;
  json["section"] = clause.section;
  json["kind"] = std::string(ClauseKindName(clause.kind));
  if (clause.kind == ClauseKind::kError) json["error"] = clause.error;
  json["testable"] = clause.testable;
  if (!clause.testable) json["untestable_reason"] = clause.untestable_reason;
  json["source"] = clause.source;
  json["statement"] = clause.statement;
  return json;
}

}  // namespace

const Clause* SpecIndex::Find(absl::string_view id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : it->second;
}

const Clause* SpecIndex::Resolve(absl::string_view id) const {
  std::string current(id);
  // A chain longer than the alias count must loop; BuildSpecIndex reports
  // loops, so stopping is enough here.
  for (size_t steps = 0; steps <= alias_targets_.size(); ++steps) {
    if (const Clause* clause = Find(current)) return clause;
    auto alias = alias_targets_.find(current);
    if (alias == alias_targets_.end() || alias->second.empty()) return nullptr;
    current = alias->second;
  }
  return nullptr;
}

std::string SpecIndex::UpdatedLock() const {
  std::set<std::string> ids(locked_ids_.begin(), locked_ids_.end());
  for (const auto& [id, clause] : by_id_) ids.insert(id);
  std::string out =
      "# Every clause ID docs/spec has published, one per line. An ID listed\n"
      "# here must stay in the spec or get a line in aliases.txt.\n"
      "# Regenerate: bazel run //tools/spec_index -- --update_lock\n";
  for (const std::string& id : ids) absl::StrAppend(&out, id, "\n");
  return out;
}

std::string SpecIndex::ReferableIds() const {
  std::set<std::string> ids;
  for (const auto& [id, clause] : by_id_) ids.insert(id);
  for (const auto& [old_id, new_id] : alias_targets_) {
    if (Resolve(old_id) != nullptr) ids.insert(old_id);
  }
  std::string out;
  for (const std::string& id : ids) absl::StrAppend(&out, id, "\n");
  return out;
}

std::string SpecIndex::ToJson() const {
  Json json = Json::object();
  json["clause_count"] = clause_count();
  Json& chapters = json["chapters"] = Json::array();
  for (const Chapter& chapter : chapters_) {
    Json entry = Json::object();
    entry["name"] = chapter.name;
    entry["file"] = chapter.file;
    entry["title"] = chapter.title;
    entry["prefixes"] = chapter.prefixes;
    Json& clauses = entry["clauses"] = Json::array();
    for (const Clause& clause : chapter.clauses) {
      clauses.push_back(ClauseJson(clause));
    }
    chapters.push_back(std::move(entry));
  }
  Json& aliases = json["aliases"] = Json::array();
  for (const Alias& alias : aliases_) {
    Json entry = Json::object();
    entry["old"] = alias.old_id;
    if (alias.new_id.empty()) {
      entry["retired"] = alias.retired_reason;
    } else {
      entry["new"] = alias.new_id;
    }
    aliases.push_back(std::move(entry));
  }
  // Spec text is UTF-8; a stray invalid byte becomes U+FFFD rather than
  // aborting the index.
  return json.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

SpecIndex BuildSpecIndex(const SpecSources& sources,
                         std::vector<Diagnostic>* diagnostics) {
  SpecIndex index;
  std::vector<const SpecSources::File*> chapter_files;
  for (const SpecSources::File& file : sources.chapters) {
    chapter_files.push_back(&file);
  }
  std::sort(chapter_files.begin(), chapter_files.end(),
            [](const SpecSources::File* a, const SpecSources::File* b) {
              return a->path < b->path;
            });
  for (const SpecSources::File* file : chapter_files) {
    index.chapters_.push_back(
        ParseChapter(file->path, file->text, diagnostics));
    if (index.chapters_.back().clauses.empty()) {
      diagnostics->push_back({file->path, 0, "the chapter has no clauses"});
    }
  }
  if (index.chapters_.empty()) {
    diagnostics->push_back({"(spec)", 0, "no chapter files"});
  }

  // Chapters no longer move, so pointers into them stay valid.
  for (const Chapter& chapter : index.chapters_) {
    for (const Clause& clause : chapter.clauses) {
      auto [it, inserted] = index.by_id_.emplace(clause.id, &clause);
      if (!inserted) {
        diagnostics->push_back(
            {clause.file, clause.line,
             absl::StrCat("duplicate clause ID '", clause.id,
                          "', first defined at ", it->second->file, ":",
                          it->second->line)});
      }
    }
  }

  index.aliases_ = ParseAliases(sources.aliases, diagnostics);
  for (const Alias& alias : index.aliases_) {
    auto [it, inserted] =
        index.alias_targets_.emplace(alias.old_id, alias.new_id);
    if (!inserted) {
      diagnostics->push_back(
          {sources.aliases.path, alias.line,
           absl::StrCat("'", alias.old_id, "' is aliased twice")});
    }
    if (index.Find(alias.old_id) != nullptr) {
      diagnostics->push_back(
          {sources.aliases.path, alias.line,
           absl::StrCat("'", alias.old_id,
                        "' is aliased but is still a clause of the spec")});
    }
  }
  for (const Alias& alias : index.aliases_) {
    if (alias.new_id.empty()) continue;
    if (index.Resolve(alias.old_id) == nullptr) {
      diagnostics->push_back(
          {sources.aliases.path, alias.line,
           absl::StrCat("alias '", alias.old_id, " -> ", alias.new_id,
                        "' leads to no clause (unknown target or a loop)")});
    }
  }

  index.locked_ids_ = ParseLock(sources.lock, diagnostics);
  for (const std::string& id : index.locked_ids_) {
    if (index.Find(id) == nullptr &&
        index.alias_targets_.find(id) == index.alias_targets_.end()) {
      diagnostics->push_back(
          {sources.lock.path, 0,
           absl::StrCat("clause '", id,
                        "' was published but is no longer in the spec; if "
                        "it was renamed or removed, add 'old -> new' or 'old "
                        "-> retired: reason' to aliases.txt")});
    }
  }
  return index;
}

absl::StatusOr<SpecIndex> LoadSpecFiles(const std::vector<std::string>& paths,
                                        std::vector<Diagnostic>* diagnostics) {
  SpecSources sources;
  for (const std::string& path : paths) {
    absl::StatusOr<std::string> text = ReadFile(path);
    if (!text.ok()) return text.status();
    SpecSources::File file{path, *std::move(text)};
    if (absl::EndsWith(path, "aliases.txt")) {
      sources.aliases = std::move(file);
    } else if (absl::EndsWith(path, "clauses.lock")) {
      sources.lock = std::move(file);
    } else if (absl::EndsWith(path, ".md") &&
               !absl::EndsWith(path, "README.md")) {
      sources.chapters.push_back(std::move(file));
    }
  }
  return BuildSpecIndex(sources, diagnostics);
}

absl::StatusOr<SpecIndex> LoadSpecDirectory(
    const std::string& dir, std::vector<Diagnostic>* diagnostics) {
  absl::StatusOr<std::vector<std::string>> names = ListFiles(dir);
  if (!names.ok()) return names.status();
  std::vector<std::string> paths;
  for (const std::string& name : *names) {
    paths.push_back(absl::StrCat(dir, "/", name));
  }
  return LoadSpecFiles(paths, diagnostics);
}

}  // namespace mxcts::spec
