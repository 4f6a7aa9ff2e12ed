// mutate: self-validation of the conformance suite by mutation. Breaks each
// clause-tagged check of the reference (finder.h) one at a time with the
// operators of mutator.h, rebuilds, runs only the tests that name the
// check's clauses, and reports which mutants no test kills.
//
// Usage: mutate --workspace=DIR [--list] [--out=FILE] [--resume]
//               [--roots=DIR,...] [--tests=DIR] [--spec_dir=DIR]
//               [--operators=negate,skip,drop] [--chapter=NAME,...]
//               [--changed[=REV]] [--shard=I/N] [--max=N] [--only=ID,...]
//               [--timeout=S] [--equivalents=FILE]
//               [--bazel_flags=FLAGS] [--query_command=CMD]
//               [--build_command=CMD] [--test_command=CMD] [--log_dir=DIR]
//
// DIR is a scratch checkout: each mutant is written into its file there,
// built and tested, and the file is restored; never point it at a tree you
// edit (tools/run_mutation makes one). Paths in the other flags are relative
// to DIR. The tests naming a clause are found by scanning --tests for
// MX_SPEC (tools/spec/test_source_scanner.h); --query_command maps their
// source files to test targets. The commands are run by sh in DIR with
// {labels} (the sources as Bazel labels), {files} (their paths), {targets}
// (the query's answer, one per line), {tests} (--tests) and {bazel_flags}
// replaced. Status per mutant: see results.h.
//
// --changed[=REV] keeps only checks in files that differ from REV (default:
// the merge base of HEAD and main). --shard=I/N keeps every Nth mutant
// starting at the Ith (0-based) after the other filters; --max caps the
// count after that. --only keeps the mutants with those IDs (to rerun the
// survivors of a run after adding tests).
//
// The mutants --equivalents lists (equivalents.h; default
// tools/mutate/equivalent_mutants.tsv, if the workspace has it) are not
// run: each gets the status "equivalent", and --list shows the reason. An
// entry that matches no mutant of the files searched is reported (its check
// was edited or removed: look at the reason again).
//
// Before a mutant, its tests are run unmutated (once per set of tests); if
// they fail, the mutant is "broken", not killed.
//
// Exit status: 0 when run (whatever the mutants' fate; the results file
// tells), 2 on bad flags or an unreadable input.
// Tested by finder_test.cc, mutator_test.cc, results_test.cc and
// mutate_smoke_test.sh.

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "tools/mutate/equivalents.h"
#include "tools/mutate/finder.h"
#include "tools/mutate/mutator.h"
#include "tools/mutate/results.h"
#include "tools/spec/clause_index.h"
#include "tools/spec/file_io.h"
#include "tools/spec/test_source_scanner.h"

ABSL_FLAG(std::string, workspace, "", "the scratch checkout to mutate in");
ABSL_FLAG(bool, list, false, "list the selected mutants and stop");
ABSL_FLAG(std::string, out, "", "write the results (TSV) here");
ABSL_FLAG(bool, resume, false,
          "keep --out's results and skip the mutants it already has");
ABSL_FLAG(std::string, roots, "reference/runtime,reference/device",
          "directories whose sources are mutated");
ABSL_FLAG(std::string, tests, "conformance",
          "directory of the test sources (*_test.cc) that name clauses");
ABSL_FLAG(std::string, spec_dir, "docs/spec", "the spec's directory");
ABSL_FLAG(std::string, operators, "negate,skip,drop", "operators to apply");
ABSL_FLAG(std::string, chapter, "", "only checks of these chapters");
ABSL_FLAG(std::string, changed, "",
          "only checks in files changed since this revision");
ABSL_FLAG(std::string, shard, "0/1", "I/N: run the Ith of N shards");
ABSL_FLAG(int, max, 0, "at most this many mutants (0: no limit)");
ABSL_FLAG(std::string, only, "",
          "only these mutant IDs (comma-separated), e.g. to rerun survivors");
ABSL_FLAG(int, timeout, 900, "seconds per mutant, build and test together");
ABSL_FLAG(std::string, equivalents, "",
          "the equivalent mutants' file (default: "
          "tools/mutate/equivalent_mutants.tsv in the workspace, if there)");
ABSL_FLAG(std::string, bazel_flags, "--test_timeout=120",
          "flags for {bazel_flags} in the commands");
ABSL_FLAG(std::string, query_command,
          "bazel query --noshow_progress "
          "'tests(rdeps(//{tests}/..., set({labels})))'",
          "prints the test targets of the sources");
ABSL_FLAG(std::string, build_command,
          "bazel build --noshow_progress {bazel_flags} {targets}",
          "builds the targets");
ABSL_FLAG(std::string, test_command,
          "bazel test --noshow_progress {bazel_flags} {targets}",
          "runs the targets' tests; fails when one fails");
ABSL_FLAG(std::string, log_dir, "",
          "keep each mutant's build and test output here");

namespace {

using mxcts::mutate::MutantResult;
using mxcts::mutate::MutantStatus;
namespace fs = std::filesystem;

// What --changed with no value means.
constexpr char kMergeBase[] = "@merge-base";

int Fail(const std::string& message) {
  std::fprintf(stderr, "mutate: %s\n", message.c_str());
  return 2;
}

std::vector<std::string> SplitList(const std::string& text) {
  return absl::StrSplit(text, ',', absl::SkipEmpty());
}

// Runs `command` with sh in `dir` under `timeout` seconds; its output goes
// to `log` (appended). Returns the exit status, 124 on timeout.
int RunCommand(const std::string& dir, const std::string& command, int timeout,
               const std::string& log) {
  const std::string quoted =
      absl::StrCat("'", absl::StrReplaceAll(command, {{"'", "'\\''"}}), "'");
  const std::string line =
      absl::StrCat("cd '", dir, "' && timeout -k 10 ", std::max(timeout, 1),
                   " sh -c ", quoted, " >>'", log, "' 2>&1");
  const int status = std::system(line.c_str());
  if (status == -1 || !WIFEXITED(status)) return 125;
  const int code = WEXITSTATUS(status);
  return code == 137 ? 124 : code;
}

// Runs `command` in `dir` and returns its standard output, or nullopt when
// it fails.
std::optional<std::string> Capture(const std::string& dir,
                                   const std::string& command) {
  const std::string line = absl::StrCat("cd '", dir, "' && ", command);
  FILE* pipe = popen(line.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  const int status = pclose(pipe);
  if (status != 0) return std::nullopt;
  return out;
}

// The Bazel label of a source file: its nearest enclosing package.
std::string LabelOf(const std::string& workspace, const std::string& file) {
  fs::path dir = fs::path(file).parent_path();
  while (!dir.empty()) {
    if (fs::exists(fs::path(workspace) / dir / "BUILD") ||
        fs::exists(fs::path(workspace) / dir / "BUILD.bazel")) {
      break;
    }
    dir = dir.parent_path();
  }
  const std::string package = dir.string();
  const std::string name =
      package.empty() ? file : file.substr(package.size() + 1);
  return absl::StrCat("//", package, ":", name);
}

std::string Expand(const std::string& pattern,
                   const std::map<std::string, std::string>& values) {
  std::vector<std::pair<std::string, std::string>> replacements;
  for (const auto& [key, value] : values) {
    replacements.push_back({absl::StrCat("{", key, "}"), value});
  }
  return absl::StrReplaceAll(pattern, replacements);
}

// The reference's own sources. Tests, test support and the API fuzzer
// (a `fuzz` directory) are excluded: the fuzzer's checks are the checks of a
// test program, tagged with the clause they verify, and no conformance test
// runs the fuzzer, so a mutant of one would always "survive".
bool IsMutatedSource(const std::string& path) {
  return (absl::EndsWith(path, ".cc") || absl::EndsWith(path, ".h")) &&
         !absl::EndsWith(path, "_test.cc") &&
         !absl::EndsWith(path, "_test.h") &&
         !absl::EndsWith(path, "_test_util.h") &&
         !absl::StrContains(path, "/testing/") &&
         !absl::StrContains(path, "/fuzz/") &&
         !absl::StrContains(path, "/testdata/");
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Mutates the reference's clause-tagged checks and runs their tests. "
      "Usage: mutate --workspace=DIR [--out=FILE] [--list] ...");
  // `--changed` alone means "since the merge base with main".
  std::vector<std::string> arguments(argv, argv + argc);
  std::vector<char*> pointers;
  for (std::string& argument : arguments) {
    if (argument == "--changed")
      argument = absl::StrCat("--changed=", kMergeBase);
    pointers.push_back(argument.data());
  }
  std::vector<char*> positional = absl::ParseCommandLine(
      static_cast<int>(pointers.size()), pointers.data());
  const std::string workspace = absl::GetFlag(FLAGS_workspace);
  if (positional.size() > 1 || workspace.empty()) {
    return Fail("usage: mutate --workspace=DIR [--out=FILE] [--list] ...");
  }
  if (!fs::is_directory(workspace)) {
    return Fail(absl::StrCat(workspace, ": not a directory"));
  }
  std::vector<mxcts::mutate::Operator> operators;
  for (const std::string& name : SplitList(absl::GetFlag(FLAGS_operators))) {
    mxcts::mutate::Operator op;
    if (!mxcts::mutate::ParseOperator(name, &op)) {
      return Fail(absl::StrCat("--operators: unknown operator \"", name,
                               "\" (negate, skip, drop)"));
    }
    operators.push_back(op);
  }
  int shard = 0;
  int shards = 1;
  {
    std::vector<std::string> parts =
        absl::StrSplit(absl::GetFlag(FLAGS_shard), '/');
    if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &shard) ||
        !absl::SimpleAtoi(parts[1], &shards) || shards < 1 || shard < 0 ||
        shard >= shards) {
      return Fail(absl::StrCat("--shard=", absl::GetFlag(FLAGS_shard),
                               ": expected I/N with 0 <= I < N"));
    }
  }

  // The spec, for each clause's chapter and aliases.
  std::vector<mxcts::spec::Diagnostic> problems;
  absl::StatusOr<mxcts::spec::SpecIndex> index = mxcts::spec::LoadSpecDirectory(
      (fs::path(workspace) / absl::GetFlag(FLAGS_spec_dir)).string(),
      &problems);
  if (!index.ok()) return Fail(std::string(index.status().message()));
  auto canonical = [&index](const std::string& id) {
    const mxcts::spec::Clause* clause = index->Resolve(id);
    return clause != nullptr ? clause->id : id;
  };

  // The tests naming each clause: clause ID -> test source files.
  std::map<std::string, std::set<std::string>> tests_of;
  {
    const std::string root = absl::GetFlag(FLAGS_tests);
    absl::StatusOr<std::vector<std::string>> files = mxcts::spec::FindFiles(
        (fs::path(workspace) / root).string(), {"_test.cc"});
    if (!files.ok()) return Fail(std::string(files.status().message()));
    for (const std::string& path : *files) {
      absl::StatusOr<std::string> text = mxcts::spec::ReadFile(path);
      if (!text.ok()) return Fail(std::string(text.status().message()));
      const std::string relative =
          fs::path(path).lexically_relative(workspace).string();
      for (const auto& test :
           mxcts::spec::ScanTestSource(relative, *text).tests) {
        if (absl::StartsWith(test.name, "DISABLED_")) continue;
        for (const auto& reference : test.clauses) {
          tests_of[canonical(reference.id)].insert(relative);
        }
      }
    }
  }

  // Files to mutate, maybe only the changed ones.
  std::set<std::string> changed_files;
  const std::string changed = absl::GetFlag(FLAGS_changed);
  if (!changed.empty()) {
    std::string revision = changed;
    if (revision == kMergeBase) {
      std::optional<std::string> base =
          Capture(workspace, "git merge-base HEAD main");
      if (!base.has_value()) {
        return Fail("--changed: no merge base of HEAD and main in " +
                    workspace);
      }
      revision = std::string(absl::StripAsciiWhitespace(*base));
    }
    std::optional<std::string> names = Capture(
        workspace, absl::StrCat("git diff --name-only '", revision, "' --"));
    if (!names.has_value()) {
      return Fail(absl::StrCat("--changed: git diff against '", revision,
                               "' failed in ", workspace));
    }
    for (absl::string_view name : absl::StrSplit(*names, '\n')) {
      if (!name.empty()) changed_files.insert(std::string(name));
    }
  }

  // Equivalent mutants: an explicit --equivalents must exist.
  std::vector<mxcts::mutate::Equivalent> equivalents;
  {
    std::string path = absl::GetFlag(FLAGS_equivalents);
    const bool given = !path.empty();
    if (!given) path = "tools/mutate/equivalent_mutants.tsv";
    const std::string full = (fs::path(workspace) / path).string();
    if (given || fs::exists(full)) {
      absl::StatusOr<std::string> text = mxcts::spec::ReadFile(full);
      if (!text.ok()) return Fail(std::string(text.status().message()));
      absl::StatusOr<std::vector<mxcts::mutate::Equivalent>> table =
          mxcts::mutate::ParseEquivalents(path, *text);
      if (!table.ok()) return Fail(std::string(table.status().message()));
      equivalents = std::move(*table);
    }
  }
  // Mutant ID -> the reason it is equivalent.
  std::map<std::string, std::string> equivalent_reason;
  std::set<const mxcts::mutate::Equivalent*> matched;
  std::set<std::string> searched_files;

  std::vector<mxcts::mutate::Mutant> mutants;
  for (const std::string& root : SplitList(absl::GetFlag(FLAGS_roots))) {
    absl::StatusOr<std::vector<std::string>> files = mxcts::spec::FindFiles(
        (fs::path(workspace) / root).string(), {".cc", ".h"});
    if (!files.ok()) return Fail(std::string(files.status().message()));
    for (const std::string& path : *files) {
      const std::string relative =
          fs::path(path).lexically_relative(workspace).string();
      if (!IsMutatedSource(relative)) continue;
      if (!changed.empty() && changed_files.count(relative) == 0) continue;
      absl::StatusOr<std::string> text = mxcts::spec::ReadFile(path);
      if (!text.ok()) return Fail(std::string(text.status().message()));
      searched_files.insert(relative);
      for (auto& mutant : mxcts::mutate::MakeMutants(
               mxcts::mutate::FindTaggedChecks(relative, *text))) {
        if (const mxcts::mutate::Equivalent* entry =
                mxcts::mutate::FindEquivalent(
                    equivalents, mutant,
                    mxcts::mutate::CheckText(*text, mutant.check))) {
          equivalent_reason[mutant.id] = entry->reason;
          matched.insert(entry);
        }
        if (std::find(operators.begin(), operators.end(), mutant.op) !=
            operators.end()) {
          mutants.push_back(std::move(mutant));
        }
      }
    }
  }
  for (const mxcts::mutate::Equivalent& entry : equivalents) {
    if (matched.count(&entry) == 0 && searched_files.count(entry.file) != 0) {
      std::fprintf(stderr,
                   "mutate: equivalents line %d: no %s mutant of \"%s\" in "
                   "%s (was the check changed? look at the reason again)\n",
                   entry.line, entry.op.c_str(), entry.check.c_str(),
                   entry.file.c_str());
    }
  }
  auto chapter_of = [&](const mxcts::mutate::Mutant& mutant) {
    for (const std::string& id : mutant.check.clauses) {
      const mxcts::spec::Clause* clause = index->Resolve(id);
      if (clause != nullptr) return clause->chapter;
    }
    return std::string();
  };
  const std::vector<std::string> chapters =
      SplitList(absl::GetFlag(FLAGS_chapter));
  const std::vector<std::string> only = SplitList(absl::GetFlag(FLAGS_only));
  std::vector<mxcts::mutate::Mutant> selected;
  int position = 0;
  for (auto& mutant : mutants) {
    if (!only.empty() &&
        std::find(only.begin(), only.end(), mutant.id) == only.end()) {
      continue;
    }
    if (!chapters.empty() && std::find(chapters.begin(), chapters.end(),
                                       chapter_of(mutant)) == chapters.end()) {
      continue;
    }
    if (position++ % shards != shard) continue;
    selected.push_back(std::move(mutant));
  }
  const int max = absl::GetFlag(FLAGS_max);
  if (max > 0 && static_cast<int>(selected.size()) > max) selected.resize(max);

  auto test_files_of = [&](const mxcts::mutate::Mutant& mutant) {
    std::set<std::string> files;
    for (const std::string& id : mutant.check.clauses) {
      auto it = tests_of.find(canonical(id));
      if (it != tests_of.end())
        files.insert(it->second.begin(), it->second.end());
    }
    return files;
  };

  if (absl::GetFlag(FLAGS_list)) {
    for (const auto& mutant : selected) {
      auto equivalent = equivalent_reason.find(mutant.id);
      std::printf("%s\t%s\t%s\t%zu test sources%s%s\n", mutant.id.c_str(),
                  absl::StrJoin(mutant.check.clauses, ",").c_str(),
                  chapter_of(mutant).c_str(), test_files_of(mutant).size(),
                  equivalent != equivalent_reason.end() ? "\tequivalent: " : "",
                  equivalent != equivalent_reason.end()
                      ? equivalent->second.c_str()
                      : "");
    }
    std::printf("%zu mutants\n", selected.size());
    return 0;
  }

  // Results kept from an earlier run (--resume).
  const std::string out = absl::GetFlag(FLAGS_out);
  std::vector<MutantResult> results;
  std::set<std::string> done;
  if (absl::GetFlag(FLAGS_resume) && !out.empty() && fs::exists(out)) {
    absl::StatusOr<std::string> text = mxcts::spec::ReadFile(out);
    if (!text.ok()) return Fail(std::string(text.status().message()));
    absl::StatusOr<std::vector<MutantResult>> earlier =
        mxcts::mutate::ParseResults(out, *text);
    if (!earlier.ok()) return Fail(std::string(earlier.status().message()));
    results = *earlier;
    for (const auto& result : results) done.insert(result.id);
  }
  auto save = [&]() -> bool {
    if (out.empty()) return true;
    std::string text = mxcts::mutate::ResultsHeader();
    for (const auto& result : results) {
      absl::StrAppend(&text, mxcts::mutate::FormatResult(result));
    }
    absl::Status status = mxcts::spec::WriteFileAtomically(out, text);
    if (!status.ok()) {
      std::fprintf(stderr, "mutate: %s\n",
                   std::string(status.message()).c_str());
    }
    return status.ok();
  };
  std::string log_dir = absl::GetFlag(FLAGS_log_dir);
  if (log_dir.empty()) {
    log_dir = (fs::temp_directory_path() /
               absl::StrCat("mxcts-mutate-logs-", getpid()))
                  .string();
  }
  if (!mxcts::spec::MakeDirectories(log_dir).ok()) {
    return Fail(absl::StrCat(log_dir, ": cannot create the log directory"));
  }
  log_dir = fs::absolute(log_dir).string();

  std::map<std::string, std::string> common = {
      {"tests", absl::GetFlag(FLAGS_tests)},
      {"bazel_flags", absl::GetFlag(FLAGS_bazel_flags)}};
  std::map<std::string, std::vector<std::string>> query_cache;
  auto targets_of = [&](const std::set<std::string>& files)
      -> std::optional<std::vector<std::string>> {
    std::vector<std::string> labels;
    for (const std::string& file : files) {
      labels.push_back(LabelOf(workspace, file));
    }
    const std::string key = absl::StrJoin(labels, " ");
    auto it = query_cache.find(key);
    if (it != query_cache.end()) return it->second;
    std::map<std::string, std::string> values = common;
    values["labels"] = key;
    values["files"] = absl::StrJoin(files, " ");
    std::optional<std::string> answer =
        Capture(workspace, Expand(absl::GetFlag(FLAGS_query_command), values));
    if (!answer.has_value()) return std::nullopt;
    std::vector<std::string> targets;
    for (absl::string_view line : absl::StrSplit(*answer, '\n')) {
      line = absl::StripAsciiWhitespace(line);
      if (!line.empty()) targets.push_back(std::string(line));
    }
    query_cache[key] = targets;
    return targets;
  };

  std::set<std::string> baseline_ok;  // target sets passing unmutated
  int count = 0;
  for (const auto& mutant : selected) {
    ++count;
    if (done.count(mutant.id)) continue;
    MutantResult result;
    result.id = mutant.id;
    result.file = mutant.check.file;
    result.line = mutant.check.line;
    result.op = std::string(mxcts::mutate::OperatorName(mutant.op));
    result.clauses = mutant.check.clauses;
    result.chapter = chapter_of(mutant);
    const auto start = std::chrono::steady_clock::now();
    const std::set<std::string> files = test_files_of(mutant);
    if (equivalent_reason.count(mutant.id) != 0) {
      result.status = MutantStatus::kEquivalent;
    } else if (files.empty()) {
      result.status = MutantStatus::kNoTests;
    } else {
      std::optional<std::vector<std::string>> targets = targets_of(files);
      if (!targets.has_value()) {
        return Fail(absl::StrCat("the query for ", mutant.id,
                                 "'s tests failed in ", workspace));
      }
      result.targets = *targets;
      if (result.targets.empty()) result.status = MutantStatus::kNoTests;
    }
    std::string log;
    std::string name = absl::StrReplaceAll(mutant.id, {{"/", "_"}, {":", "_"}});
    std::map<std::string, std::string> values = common;
    values["targets"] = absl::StrJoin(result.targets, " ");
    const int limit = absl::GetFlag(FLAGS_timeout);
    // The unmutated tests must pass, or the mutant would look killed; each
    // set of targets is checked once (Bazel keeps what it built for the
    // build after the mutant's).
    if (!result.targets.empty() && !baseline_ok.count(values["targets"])) {
      log = absl::StrCat(log_dir, "/", name, ".baseline.log");
      if (RunCommand(workspace,
                     Expand(absl::GetFlag(FLAGS_test_command), values), limit,
                     log) == 0) {
        baseline_ok.insert(values["targets"]);
      } else {
        result.status = MutantStatus::kBroken;
        result.targets.clear();
      }
    }
    if (!result.targets.empty()) {
      const std::string path =
          (fs::path(workspace) / mutant.check.file).string();
      absl::StatusOr<std::string> original = mxcts::spec::ReadFile(path);
      if (!original.ok()) return Fail(std::string(original.status().message()));
      std::string name =
          absl::StrReplaceAll(mutant.id, {{"/", "_"}, {":", "_"}});
      log = absl::StrCat(log_dir, "/", name, ".log");
      absl::Status written = mxcts::spec::WriteFileAtomically(
          path, mxcts::mutate::ApplyMutant(*original, mutant));
      if (!written.ok()) return Fail(std::string(written.message()));
      const int built = RunCommand(
          workspace, Expand(absl::GetFlag(FLAGS_build_command), values), limit,
          log);
      if (built == 124) {
        result.status = MutantStatus::kTimeout;
      } else if (built != 0) {
        result.status = MutantStatus::kBuildError;
      } else {
        const int elapsed =
            static_cast<int>(std::chrono::duration<double>(
                                 std::chrono::steady_clock::now() - start)
                                 .count());
        const int tested = RunCommand(
            workspace, Expand(absl::GetFlag(FLAGS_test_command), values),
            limit - elapsed, log);
        result.status = tested == 0     ? MutantStatus::kSurvived
                        : tested == 124 ? MutantStatus::kTimeout
                                        : MutantStatus::kKilled;
      }
      written = mxcts::spec::WriteFileAtomically(path, *original);
      if (!written.ok()) return Fail(std::string(written.message()));
    }
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    std::printf("[%d/%zu] %-11s %6.1fs %s %s\n", count, selected.size(),
                std::string(MutantStatusName(result.status)).c_str(),
                result.seconds, result.id.c_str(),
                result.status == MutantStatus::kBuildError ||
                        result.status == MutantStatus::kBroken
                    ? log.c_str()
                    : "");
    std::fflush(stdout);
    results.push_back(std::move(result));
    if (!save()) return 2;
  }
  std::printf("%s", mxcts::mutate::SummaryTable(results).c_str());
  return 0;
}
