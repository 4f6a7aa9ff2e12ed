// spec_coverage: writes the spec coverage report.
//
// Usage:
//   bazel run //tools/spec_coverage -- --out=DIR
//       [--results=[NAME=]DIR[,[NAME=]DIR...]] [--spec_dir=docs/spec]
//       [--sources=conformance] [--exclude=conformance/testing]
//       [--mutation=FILE[,FILE...]] [--expectations=NAME=FILE[,...]]
//
// Reads the spec, scans the conformance test sources (*_test.cc under each
// --sources directory) for tests and their MX_SPEC clauses, reads each
// backend's test results (backend_results.h: the test.xml files under DIR,
// as in bazel-testlogs, or the results of `tools/certify run` when DIR holds
// its summary.txt; the backend is called NAME, or DIR's last component; a
// NAME given with several DIRs is one run split over machines,
// tools/run_conformance --shard, whose parts are merged and must not
// overlap), and writes into --out: index.html, coverage.json and summary.md
// (each atomically), and with several backends side_by_side.md, every
// clause's status on each backend. The summary is also printed. A failed
// case is an expected failure where its XML carries the expectation
// runner's mark or the backend's --expectations file lists it. Paths under
// --exclude (support code and its self-tests, not conformance tests) are
// skipped in sources and results. Relative paths are taken from the directory
// `bazel run` was started in. --mutation reads tools/mutate results files (the
// shards of one run, say) and adds a mutation score per chapter to the report.
//
// Exit status: 0 report written; 1 the spec has problems (run spec_index);
// 2 bad arguments or unreadable input or output.
// Tested by spec_coverage_cli_test.sh; the model and reports by
// coverage_test.cc and report_test.cc.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "conformance/testing/expectations.h"
#include "tools/mutate/results.h"
#include "tools/spec/clause_index.h"
#include "tools/spec/file_io.h"
#include "tools/spec/test_results.h"
#include "tools/spec/test_source_scanner.h"
#include "tools/spec_coverage/backend_results.h"
#include "tools/spec_coverage/coverage.h"
#include "tools/spec_coverage/report.h"

ABSL_FLAG(std::string, spec_dir, "docs/spec", "the spec's directory");
ABSL_FLAG(std::string, sources, "conformance",
          "comma-separated directories of conformance test sources");
ABSL_FLAG(std::string, exclude, "conformance/testing",
          "comma-separated path parts whose sources and results are skipped");
ABSL_FLAG(std::string, results, "",
          "comma-separated [NAME=]DIR of test results, one per backend; "
          "a NAME repeated merges its DIRs (one run split over machines)");
ABSL_FLAG(std::string, out, "", "directory the report is written to");
ABSL_FLAG(std::string, mutation, "",
          "comma-separated tools/mutate results files");
ABSL_FLAG(std::string, expectations, "",
          "comma-separated NAME=FILE: the expectations file "
          "(conformance/expectations/*.txt) of the backend NAME of --results; "
          "the failures it lists count as expected failures");

namespace {

int Fail(const absl::Status& status) {
  std::fprintf(stderr, "spec_coverage: %s\n",
               std::string(status.message()).c_str());
  return 2;
}

bool Excluded(const std::string& path,
              const std::vector<std::string>& excluded) {
  // Source files; results are excluded as they are read
  // (backend_results.h).
  for (const std::string& part : excluded) {
    if (!part.empty() && absl::StrContains(path, part)) return true;
  }
  return false;
}

std::vector<std::string> SplitList(const std::string& text) {
  return absl::StrSplit(text, ',', absl::SkipEmpty());
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Writes the spec coverage report. Usage: spec_coverage --out=DIR "
      "[--results=[NAME=]DIR,...] [--expectations=NAME=FILE,...] "
      "[--spec_dir=DIR] [--sources=DIR,...] [--mutation=FILE,...]");
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  absl::Status entered = mxcts::spec::EnterUserDirectory();
  if (!entered.ok()) {
    std::fprintf(stderr, "%s: %s\n", "spec_coverage",
                 std::string(entered.message()).c_str());
    return 2;
  }
  if (positional.size() > 1 || absl::GetFlag(FLAGS_out).empty()) {
    std::fprintf(stderr,
                 "usage: spec_coverage --out=DIR [--results=[NAME=]DIR,...] "
                 "[--expectations=NAME=FILE,...] [--spec_dir=DIR] "
                 "[--sources=DIR,...] [--mutation=FILE,...]\n");
    return 2;
  }
  const std::vector<std::string> excluded =
      SplitList(absl::GetFlag(FLAGS_exclude));

  std::vector<mxcts::spec::Diagnostic> problems;
  absl::StatusOr<mxcts::spec::SpecIndex> index =
      mxcts::spec::LoadSpecDirectory(absl::GetFlag(FLAGS_spec_dir), &problems);
  if (!index.ok()) return Fail(index.status());
  if (!problems.empty()) {
    for (const auto& problem : problems) {
      std::fprintf(stderr, "%s\n", problem.ToString().c_str());
    }
    std::fprintf(stderr,
                 "spec_coverage: the spec has %zu problems; fix them first\n",
                 problems.size());
    return 1;
  }

  std::vector<mxcts::spec::ScannedSource> sources;
  for (const std::string& dir : SplitList(absl::GetFlag(FLAGS_sources))) {
    absl::StatusOr<std::vector<std::string>> files =
        mxcts::spec::FindFiles(dir, {"_test.cc"});
    if (!files.ok()) return Fail(files.status());
    for (const std::string& file : *files) {
      if (Excluded(file, excluded)) continue;
      absl::StatusOr<std::string> text = mxcts::spec::ReadFile(file);
      if (!text.ok()) return Fail(text.status());
      sources.push_back(mxcts::spec::ScanTestSource(file, *text));
    }
  }

  // The directories of each backend, backends in order of first mention: a
  // backend named more than once is one run split over machines, whose
  // parts are merged.
  std::vector<std::pair<std::string, std::vector<std::string>>> backend_dirs;
  for (const std::string& entry : SplitList(absl::GetFlag(FLAGS_results))) {
    std::vector<std::string> parts =
        absl::StrSplit(entry, absl::MaxSplits('=', 1));
    std::string dir = parts.size() == 2 ? parts[1] : parts[0];
    std::string name = parts.size() == 2 ? parts[0] : "";
    if (name.empty()) {
      std::vector<std::string> components =
          absl::StrSplit(dir, '/', absl::SkipEmpty());
      name = components.empty() ? dir : components.back();
    }
    auto known = std::find_if(
        backend_dirs.begin(), backend_dirs.end(),
        [&name](const auto& backend) { return backend.first == name; });
    if (known == backend_dirs.end()) {
      backend_dirs.push_back({name, {dir}});
    } else {
      known->second.push_back(dir);
    }
  }
  // Each backend's expectations file, if given.
  std::map<std::string, std::vector<mxcts::conformance::Expectation>>
      expectations;
  for (const std::string& entry :
       SplitList(absl::GetFlag(FLAGS_expectations))) {
    std::vector<std::string> parts =
        absl::StrSplit(entry, absl::MaxSplits('=', 1));
    if (parts.size() != 2 || parts[0].empty() || parts[1].empty()) {
      std::fprintf(stderr,
                   "spec_coverage: --expectations entry '%s' is not "
                   "NAME=FILE\n",
                   entry.c_str());
      return 2;
    }
    const bool known = std::any_of(
        backend_dirs.begin(), backend_dirs.end(),
        [&parts](const auto& backend) { return backend.first == parts[0]; });
    if (!known) {
      std::fprintf(stderr,
                   "spec_coverage: --expectations names backend '%s', which "
                   "--results does not\n",
                   parts[0].c_str());
      return 2;
    }
    absl::StatusOr<std::vector<mxcts::conformance::Expectation>> parsed =
        mxcts::conformance::ReadExpectations(parts[1]);
    if (!parsed.ok()) return Fail(parsed.status());
    expectations[parts[0]] = *std::move(parsed);
  }

  std::vector<mxcts::spec::BackendResults> backends;
  std::vector<std::string> notes;
  for (const auto& [name, dirs] : backend_dirs) {
    mxcts::spec::BackendReadOptions options;
    options.excluded = excluded;
    options.expectations = expectations[name];
    absl::StatusOr<mxcts::spec::BackendResults> backend =
        mxcts::spec::ReadBackendResults(name, dirs, options, &notes);
    if (!backend.ok()) return Fail(backend.status());
    backends.push_back(*std::move(backend));
  }

  mxcts::spec::CoverageModel model =
      mxcts::spec::BuildCoverage(*index, sources, backends);
  model.problems.insert(model.problems.end(), notes.begin(), notes.end());
  if (!absl::GetFlag(FLAGS_mutation).empty()) {
    std::vector<mxcts::mutate::MutantResult> mutants;
    for (const std::string& file : SplitList(absl::GetFlag(FLAGS_mutation))) {
      absl::StatusOr<std::string> text = mxcts::spec::ReadFile(file);
      if (!text.ok()) return Fail(text.status());
      absl::StatusOr<std::vector<mxcts::mutate::MutantResult>> parsed =
          mxcts::mutate::ParseResults(file, *text);
      if (!parsed.ok()) return Fail(parsed.status());
      mutants.insert(mutants.end(), parsed->begin(), parsed->end());
    }
    mxcts::spec::AddMutationResults(mutants, &model);
  }
  const std::string out = absl::GetFlag(FLAGS_out);
  absl::Status status = mxcts::spec::MakeDirectories(out);
  if (!status.ok()) return Fail(status);
  const std::string summary = mxcts::spec::CoverageMarkdown(model);
  std::vector<std::pair<std::string, std::string>> files = {
      {"index.html", mxcts::spec::CoverageHtml(model)},
      {"coverage.json", mxcts::spec::CoverageJson(model)},
      {"summary.md", summary}};
  if (model.backends.size() > 1) {
    files.push_back(
        {"side_by_side.md", mxcts::spec::CoverageSideBySideMarkdown(model)});
  }
  for (const auto& [name, contents] : files) {
    status = mxcts::spec::WriteFileAtomically(absl::StrCat(out, "/", name),
                                              contents);
    if (!status.ok()) return Fail(status);
  }
  std::printf("%s\nspec_coverage: report written to %s/index.html\n",
              summary.c_str(), std::filesystem::absolute(out).c_str());
  if (model.backends.size() > 1) {
    std::printf("spec_coverage: backends side by side in %s/side_by_side.md\n",
                std::filesystem::absolute(out).c_str());
  }
  return 0;
}
