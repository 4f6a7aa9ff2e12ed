// Copyright mxcts authors.
//
// tools/perf_results/history.h: the performance history, an SQLite
// database of benchmark runs.
//
// A run is one nightly (or one imported set of results): its backend, the
// commit it measured, its date, the machine's fingerprint, and every
// benchmark's repetitions with their times and ratio counters. A run is
// written in one transaction, so a process killed while recording leaves
// no trace of it, and the database is in WAL mode with a busy timeout, so
// two recorders at once both succeed (one waits for the other) while
// readers go on reading.
//
//   absl::StatusOr<std::unique_ptr<History>> history = History::Open(path);
//   RunInfo run;
//   run.backend = "reference"; run.commit = sha; run.date = now;
//   absl::StatusOr<int64_t> id = (*history)->Record(run, report.results);
//   absl::StatusOr<std::vector<Series>> series = (*history)->LoadSeries();

#ifndef MXCTS_TOOLS_PERF_RESULTS_HISTORY_H_
#define MXCTS_TOOLS_PERF_RESULTS_HISTORY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tools/perf_results/benchmark_json.h"
#include "tools/perf_results/machine.h"

struct sqlite3;

namespace mxcts::perf_results {

struct RunInfo {
  int64_t id = 0;  // assigned by Record
  std::string backend;
  std::string commit;
  std::string date;    // ISO 8601; runs are ordered by it, then by id
  std::string source;  // what produced it: "nightly", or the imported files
  Machine machine;
};

// One run's values of one series: the ratio of each repetition.
struct SeriesPoint {
  int64_t run_id = 0;
  std::string commit;
  std::string date;
  std::vector<double> values;
};

// The history of one ratio counter of one benchmark on one backend, oldest
// run first.
struct Series {
  std::string backend;
  std::string benchmark;
  std::string counter;
  std::vector<SeriesPoint> points;
};

class History {
 public:
  // Opens the database at `path`, creating it (and its schema) if missing.
  // Fails, naming `path`, if it cannot be opened or is not a history of
  // this schema version.
  static absl::StatusOr<std::unique_ptr<History>> Open(const std::string& path);

  ~History();
  History(const History&) = delete;
  History& operator=(const History&) = delete;

  // Records `run` with `results` in one transaction and returns the run's
  // id. Fails (recording nothing) if `run` lacks a backend, commit or date,
  // if `results` is empty or names a benchmark twice, or on a database
  // error. `after_row`, if given, is called after each row is written
  // inside the transaction (tests use it to stop a recorder halfway).
  absl::StatusOr<int64_t> Record(
      const RunInfo& run, const std::vector<BenchmarkResult>& results,
      const std::function<void()>& after_row = nullptr);

  // Every run, oldest first.
  absl::StatusOr<std::vector<RunInfo>> Runs();

  // Every series (backend, benchmark, ratio counter), sorted by backend,
  // benchmark and counter, each oldest run first.
  absl::StatusOr<std::vector<Series>> LoadSeries();

  // Writes a consistent copy of the whole database to `path`, which must
  // not exist.
  absl::Status CopyTo(const std::string& path);

  // Multiplies the ratio `counter` of `benchmark` on `backend` by `factor`
  // in every run from the `first_run`-th (0-based, in run order) of that
  // backend on, and returns how many values changed. It plants a known step
  // in a copy of a history, to see the detector and the dashboard find it
  // (tools/perf_results/inject_step); never use it on the real history.
  absl::StatusOr<int> ScaleRatios(const std::string& backend,
                                  const std::string& benchmark,
                                  const std::string& counter, int first_run,
                                  double factor);

  // PRAGMA integrity_check: OK, or DataLoss with SQLite's findings.
  absl::Status CheckIntegrity();

 private:
  History(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  // Creates the schema in an empty database, or checks its version; inside
  // the caller's transaction.
  absl::Status EnsureSchema();
  absl::Status Exec(const char* sql);
  absl::Status Error(const std::string& what);

  sqlite3* db_;
  std::string path_;
};

}  // namespace mxcts::perf_results

#endif  // MXCTS_TOOLS_PERF_RESULTS_HISTORY_H_
