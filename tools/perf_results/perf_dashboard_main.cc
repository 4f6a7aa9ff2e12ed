// Copyright mxcts authors.
//
// perf_dashboard: the performance history, its regressions and its
// dashboard. tools/perf_dashboard runs it; tools/nightly records with it.
//
// Usage:
//   perf_dashboard record --db=FILE --backend=NAME --commit=SHA
//       [--date=RFC3339] [--source=TEXT] JSON...
//     Records one run measured on this machine: the Google Benchmark JSON
//     files (--benchmark_format=json) of one nightly, together.
//   perf_dashboard import --db=FILE --backend=NAME --commit=SHA
//       [--date=RFC3339] [--cpu_model=TEXT] [--cores=N] [--memory_bytes=N]
//       [--kernel=TEXT] JSON...
//     Records one run measured elsewhere (a GPU machine): the machine is
//     described by the files' context and these flags, the date defaults
//     to the first file's.
//   perf_dashboard detect --db=FILE [--alpha=A] [--min_effect=E]
//       [--min_runs=N] [--window=N]     (tools/perf_results/change_points.h)
//     Prints every detected change, current regressions first.
//   perf_dashboard html --db=FILE --out=FILE.html [detector flags]
//     Writes the dashboard (atomically).
//   perf_dashboard runs --db=FILE
//     Lists the recorded runs.
//   perf_dashboard compare --baseline=JSON[,JSON...] [--tolerance=F]
//       [--candidate_name=NAME] [--baseline_name=NAME] JSON...
//     Compares the given files' benchmark times with the baseline's, made
//     on the same machine from the same benchmark sources (the CUDA
//     backend against its native twin, perf/native_cuda/README.md): a
//     Markdown table of medians and their ratio
//     (tools/perf_results/backend_comparison.h). Needs no history.
//
// A benchmark that reported an error is left out of the run with a
// warning; a file that cannot be read or parsed fails the whole command,
// which then records nothing. Relative paths are taken from the directory
// `bazel run` was started in.
//
// Exit status: 0 done (for detect: no current regression; for compare:
// every benchmark within the tolerance); 1 detect found a current
// regression, or compare a benchmark beyond the tolerance; 2 bad arguments, an
// unreadable or malformed file, or a database error (the message names the
// file). Tested by perf_dashboard_cli_test.sh and dashboard_browser_test.sh.

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "tools/perf_results/backend_comparison.h"
#include "tools/perf_results/benchmark_json.h"
#include "tools/perf_results/change_points.h"
#include "tools/perf_results/dashboard_html.h"
#include "tools/perf_results/history.h"
#include "tools/perf_results/machine.h"
#include "tools/perf_results/regressions.h"
#include "tools/spec/file_io.h"

ABSL_FLAG(std::string, db, "", "the history database (SQLite)");
ABSL_FLAG(std::string, backend, "", "the backend the results are of");
ABSL_FLAG(std::string, commit, "", "the commit the results measured");
ABSL_FLAG(std::string, date, "",
          "when the run was measured, RFC 3339 (default: now, or for import "
          "the first file's date)");
ABSL_FLAG(std::string, source, "", "what produced the run (default: files)");
ABSL_FLAG(std::string, cpu_model, "", "import: the machine's CPU");
ABSL_FLAG(int, cores, 0, "import: the machine's cores (default: the files')");
ABSL_FLAG(int64_t, memory_bytes, 0, "import: the machine's memory");
ABSL_FLAG(std::string, kernel, "", "import: the machine's kernel");
ABSL_FLAG(std::string, out, "", "html: the page to write");
ABSL_FLAG(double, alpha, 0.01, "significance level after correction");
ABSL_FLAG(double, min_effect, 0.10,
          "smallest relative change of the median reported");
ABSL_FLAG(int, min_runs, 2, "runs on each side of a change, at least");
ABSL_FLAG(int, window, 5, "runs on each side of a split compared, at most");
ABSL_FLAG(std::vector<std::string>, baseline, {},
          "compare: the baseline's Google Benchmark JSON files");
ABSL_FLAG(double, tolerance, 0.05,
          "compare: how much slower than the baseline a benchmark may be, "
          "as a fraction");
ABSL_FLAG(std::string, candidate_name, "candidate",
          "compare: the compared files' name in the table");
ABSL_FLAG(std::string, baseline_name, "baseline",
          "compare: the baseline's name in the table");

namespace {

using namespace mxcts::perf_results;

int Fail(const std::string& message) {
  std::fprintf(stderr, "perf_dashboard: %s\n", message.c_str());
  return 2;
}

int Fail(const absl::Status& status) {
  return Fail(std::string(status.message()));
}

// `text` as an RFC 3339 UTC date, "2026-11-27T10:10:24Z", or an error.
absl::StatusOr<std::string> NormalizeDate(const std::string& text) {
  absl::Time time;
  std::string error;
  if (!absl::ParseTime(absl::RFC3339_full, text, &time, &error)) {
    return absl::InvalidArgumentError(
        absl::StrCat("date \"", text, "\" is not RFC 3339: ", error));
  }
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", time, absl::UTCTimeZone());
}

// The history at --db, which must exist unless `create`.
absl::StatusOr<std::unique_ptr<History>> OpenHistory(bool create) {
  const std::string path = absl::GetFlag(FLAGS_db);
  if (path.empty()) return absl::InvalidArgumentError("--db is required");
  if (!create && !std::filesystem::exists(path)) {
    return absl::NotFoundError(absl::StrCat(path, ": no such history"));
  }
  return History::Open(path);
}

int Record(const std::vector<std::string>& files, bool imported) {
  const std::string backend = absl::GetFlag(FLAGS_backend);
  const std::string commit = absl::GetFlag(FLAGS_commit);
  if (backend.empty() || commit.empty()) {
    return Fail("--backend and --commit are required");
  }
  if (files.empty()) return Fail("no Google Benchmark JSON file given");

  // Every file is read and checked before the history is touched.
  std::vector<BenchmarkResult> results;
  std::map<std::string, std::string> file_of;  // benchmark -> file
  BenchmarkContext context;
  for (const std::string& file : files) {
    absl::StatusOr<std::string> text = mxcts::spec::ReadFile(file);
    if (!text.ok()) return Fail(text.status());
    absl::StatusOr<BenchmarkReport> report = ParseBenchmarkJson(*text);
    if (!report.ok()) {
      return Fail(absl::StrCat(
          file, ": not Google Benchmark JSON: ", report.status().message()));
    }
    if (context.date.empty()) context = report->context;
    for (const std::string& error : report->errors) {
      std::fprintf(stderr, "perf_dashboard: warning: %s: left out: %s\n",
                   file.c_str(), error.c_str());
    }
    for (BenchmarkResult& result : report->results) {
      auto [it, inserted] = file_of.emplace(result.name, file);
      if (!inserted) {
        return Fail(absl::StrCat(file, ": benchmark ", result.name,
                                 " is also in ", it->second));
      }
      results.push_back(std::move(result));
    }
  }
  if (results.empty()) return Fail("the files hold no benchmark result");

  RunInfo run;
  run.backend = backend;
  run.commit = commit;
  std::string date = absl::GetFlag(FLAGS_date);
  if (date.empty()) {
    date = imported && !context.date.empty()
               ? context.date
               : absl::FormatTime(absl::RFC3339_sec, absl::Now(),
                                  absl::UTCTimeZone());
  }
  absl::StatusOr<std::string> normalized = NormalizeDate(date);
  if (!normalized.ok()) return Fail(normalized.status());
  run.date = *normalized;
  run.source = absl::GetFlag(FLAGS_source);
  if (run.source.empty()) {
    for (const std::string& file : files) {
      absl::StrAppend(&run.source, run.source.empty() ? "" : " ",
                      std::filesystem::path(file).filename().string());
    }
  }
  if (imported) {
    run.machine.cpu_model = absl::GetFlag(FLAGS_cpu_model);
    if (run.machine.cpu_model.empty()) {
      run.machine.cpu_model =
          context.host_name.empty()
              ? "unknown"
              : absl::StrCat("unknown CPU of ", context.host_name);
    }
    run.machine.cores = absl::GetFlag(FLAGS_cores) > 0
                            ? absl::GetFlag(FLAGS_cores)
                            : context.num_cpus;
    run.machine.memory_bytes = absl::GetFlag(FLAGS_memory_bytes);
    run.machine.kernel = absl::GetFlag(FLAGS_kernel);
  } else {
    run.machine = LocalMachine();
  }

  absl::StatusOr<std::unique_ptr<History>> history = OpenHistory(true);
  if (!history.ok()) return Fail(history.status());
  absl::StatusOr<int64_t> id = (*history)->Record(run, results);
  if (!id.ok()) return Fail(id.status());
  size_t repetitions = 0;
  for (const BenchmarkResult& result : results) {
    repetitions += result.repetitions.size();
  }
  std::printf(
      "perf_dashboard: recorded run %lld (%s at %s, %s): %zu benchmarks, "
      "%zu repetitions\n",
      static_cast<long long>(*id), run.backend.c_str(),
      run.commit.substr(0, 12).c_str(), run.date.c_str(), results.size(),
      repetitions);
  return 0;
}

DetectorOptions Options() {
  DetectorOptions options;
  options.alpha = absl::GetFlag(FLAGS_alpha);
  options.min_effect = absl::GetFlag(FLAGS_min_effect);
  options.min_runs = absl::GetFlag(FLAGS_min_runs);
  options.window = absl::GetFlag(FLAGS_window);
  return options;
}

absl::Status CheckOptions(const DetectorOptions& options) {
  if (!(options.alpha > 0 && options.alpha < 1)) {
    return absl::InvalidArgumentError("--alpha must be between 0 and 1");
  }
  if (options.min_effect < 0) {
    return absl::InvalidArgumentError("--min_effect must be 0 or more");
  }
  if (options.min_runs < 1) {
    return absl::InvalidArgumentError("--min_runs must be 1 or more");
  }
  if (options.window < options.min_runs) {
    return absl::InvalidArgumentError("--window must be at least --min_runs");
  }
  return absl::OkStatus();
}

int Detect() {
  const DetectorOptions options = Options();
  if (absl::Status status = CheckOptions(options); !status.ok()) {
    return Fail(status);
  }
  absl::StatusOr<std::unique_ptr<History>> history = OpenHistory(false);
  if (!history.ok()) return Fail(history.status());
  absl::StatusOr<std::vector<Series>> series = (*history)->LoadSeries();
  if (!series.ok()) return Fail(series.status());
  const std::vector<Change> changes = DetectChanges(*series, options);
  int current = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (const Change& change : changes) {
      const bool is_current = change.regression && change.current;
      if (is_current != (pass == 0)) continue;
      current += is_current;
      std::printf(
          "%s %s %s on %s: %+.1f%% (median %.4g -> %.4g) at commits %s "
          "(%s .. %s), confidence %.4f%%\n",
          is_current           ? "REGRESSION"
          : change.same_commit ? "same-commit change (machine or load)"
          : change.regression  ? "regression (undone)"
                               : "improvement",
          change.benchmark.c_str(), change.counter.c_str(),
          change.backend.c_str(), 100 * change.point.relative_change,
          change.point.before_median, change.point.after_median,
          CommitRange(change).c_str(), change.date_before.c_str(),
          change.date_after.c_str(), 100 * change.point.confidence);
    }
  }
  std::printf(
      "perf_dashboard: %zu series, %zu changes, %d current "
      "regressions\n",
      series->size(), changes.size(), current);
  return current > 0 ? 1 : 0;
}

int Html() {
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty()) return Fail("--out is required");
  DashboardInput input;
  input.options = Options();
  if (absl::Status status = CheckOptions(input.options); !status.ok()) {
    return Fail(status);
  }
  absl::StatusOr<std::unique_ptr<History>> history = OpenHistory(false);
  if (!history.ok()) return Fail(history.status());
  absl::StatusOr<std::vector<Series>> series = (*history)->LoadSeries();
  if (!series.ok()) return Fail(series.status());
  absl::StatusOr<std::vector<RunInfo>> runs = (*history)->Runs();
  if (!runs.ok()) return Fail(runs.status());
  input.series = std::move(*series);
  input.runs = std::move(*runs);
  input.changes = DetectChanges(input.series, input.options);
  input.generated =
      absl::FormatTime("%Y-%m-%d %H:%M UTC", absl::Now(), absl::UTCTimeZone());
  if (absl::Status status =
          mxcts::spec::WriteFileAtomically(out, RenderDashboard(input));
      !status.ok()) {
    return Fail(status);
  }
  std::printf("perf_dashboard: wrote %s (%zu runs, %zu series, %zu changes)\n",
              out.c_str(), input.runs.size(), input.series.size(),
              input.changes.size());
  return 0;
}

int Runs() {
  absl::StatusOr<std::unique_ptr<History>> history = OpenHistory(false);
  if (!history.ok()) return Fail(history.status());
  absl::StatusOr<std::vector<RunInfo>> runs = (*history)->Runs();
  if (!runs.ok()) return Fail(runs.status());
  for (const RunInfo& run : *runs) {
    std::printf("%lld %s %s %s %s [%s]\n", static_cast<long long>(run.id),
                run.date.c_str(), run.backend.c_str(),
                run.commit.substr(0, 12).c_str(), Describe(run.machine).c_str(),
                run.source.c_str());
  }
  std::printf("perf_dashboard: %zu runs\n", runs->size());
  return 0;
}

// Reads the benchmark results of every file into `results`, warning of
// benchmarks that reported an error.
absl::Status ReadResults(const std::vector<std::string>& files,
                         std::vector<BenchmarkResult>* results) {
  for (const std::string& file : files) {
    absl::StatusOr<std::string> text = mxcts::spec::ReadFile(file);
    if (!text.ok()) return text.status();
    absl::StatusOr<BenchmarkReport> report = ParseBenchmarkJson(*text);
    if (!report.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          file, ": not Google Benchmark JSON: ", report.status().message()));
    }
    for (const std::string& error : report->errors) {
      std::fprintf(stderr, "perf_dashboard: warning: %s: left out: %s\n",
                   file.c_str(), error.c_str());
    }
    for (BenchmarkResult& result : report->results) {
      results->push_back(std::move(result));
    }
  }
  return absl::OkStatus();
}

int Compare(const std::vector<std::string>& files) {
  const std::vector<std::string> baseline_files = absl::GetFlag(FLAGS_baseline);
  const double tolerance = absl::GetFlag(FLAGS_tolerance);
  if (files.empty() || baseline_files.empty()) {
    return Fail(
        "compare needs --baseline=FILE[,FILE...] and the files to "
        "compare with it");
  }
  if (!(tolerance >= 0)) return Fail("--tolerance must be 0 or more");
  std::vector<BenchmarkResult> candidate;
  std::vector<BenchmarkResult> baseline;
  if (absl::Status status = ReadResults(files, &candidate); !status.ok()) {
    return Fail(status);
  }
  if (absl::Status status = ReadResults(baseline_files, &baseline);
      !status.ok()) {
    return Fail(status);
  }
  const BackendComparison comparison =
      CompareBackends(candidate, baseline, tolerance);
  if (comparison.compared.empty()) {
    return Fail("the two sides have no benchmark in common");
  }
  std::fputs(RenderComparison(comparison, absl::GetFlag(FLAGS_candidate_name),
                              absl::GetFlag(FLAGS_baseline_name))
                 .c_str(),
             stdout);
  return comparison.beyond() > 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "perf_dashboard record|import|detect|html|runs|compare ... "
      "(see tools/perf_results/perf_dashboard_main.cc)");
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (absl::Status status = mxcts::spec::EnterUserDirectory(); !status.ok()) {
    return Fail(status);
  }
  if (positional.size() < 2) {
    return Fail(
        "usage: perf_dashboard record|import|detect|html|runs|compare "
        "...");
  }
  const std::string command = positional[1];
  const std::vector<std::string> files(positional.begin() + 2,
                                       positional.end());
  if (command == "record" || command == "import") {
    return Record(files, command == "import");
  }
  if (command == "compare") return Compare(files);
  if (!files.empty()) {
    return Fail(absl::StrCat(command, " takes no file arguments"));
  }
  if (command == "detect") return Detect();
  if (command == "html") return Html();
  if (command == "runs") return Runs();
  return Fail(absl::StrCat("unknown command \"", command,
                           "\"; expected record, import, detect, html, "
                           "runs or compare"));
}
