// Copyright mxcts authors.
//
// The history database (history.h) on SQLite's C API.
//
// Schema (user_version 1):
//   runs(id, backend, commit_id, date, source, cpu_model, cores,
//        memory_bytes, kernel)
//   repetitions(run_id, benchmark, repetition, iterations, real_time_ns,
//               cpu_time_ns)                    one row per repetition
//   ratios(run_id, benchmark, repetition, counter, value)
//                                               one row per ratio counter
//
// Safety. The database is in WAL mode: a writer appends to the log and
// readers keep a consistent snapshot, and a process killed at any point
// leaves a log whose uncommitted frames SQLite ignores on the next open.
// Record opens its transaction with BEGIN IMMEDIATE, taking the write lock
// before reading anything, so two recorders never deadlock on a lock
// upgrade; the second waits (busy timeout) until the first commits. The
// schema is created inside the same kind of transaction, so two first
// recorders of a new file do not both create it.
//
// Tested by history_test.cc (including a recorder killed halfway and
// several recording at once).

#include "tools/perf_results/history.h"

#include <sqlite3.h>

#include <filesystem>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"

namespace mxcts::perf_results {
namespace {

constexpr int kSchemaVersion = 1;
// How long a writer waits for another to finish before giving up.
constexpr int kBusyTimeoutMs = 120000;

constexpr char kSchema[] = R"sql(
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY,
  backend TEXT NOT NULL,
  commit_id TEXT NOT NULL,
  date TEXT NOT NULL,
  source TEXT NOT NULL,
  cpu_model TEXT NOT NULL,
  cores INTEGER NOT NULL,
  memory_bytes INTEGER NOT NULL,
  kernel TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS repetitions (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  benchmark TEXT NOT NULL,
  repetition INTEGER NOT NULL,
  iterations INTEGER NOT NULL,
  real_time_ns REAL NOT NULL,
  cpu_time_ns REAL NOT NULL,
  PRIMARY KEY (run_id, benchmark, repetition)
);
CREATE TABLE IF NOT EXISTS ratios (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  benchmark TEXT NOT NULL,
  repetition INTEGER NOT NULL,
  counter TEXT NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY (run_id, benchmark, repetition, counter)
);
CREATE INDEX IF NOT EXISTS ratios_by_series
  ON ratios (benchmark, counter, run_id);
)sql";

// A prepared statement, finalized when it goes out of scope.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) {
    code_ = sqlite3_prepare_v2(db, sql, -1, &statement_, nullptr);
  }
  ~Statement() { sqlite3_finalize(statement_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  bool ok() const { return code_ == SQLITE_OK; }
  sqlite3_stmt* get() { return statement_; }
  void Bind(int i, const std::string& text) {
    sqlite3_bind_text(statement_, i, text.data(), static_cast<int>(text.size()),
                      SQLITE_TRANSIENT);
  }
  void Bind(int i, int64_t value) { sqlite3_bind_int64(statement_, i, value); }
  void Bind(int i, double value) { sqlite3_bind_double(statement_, i, value); }
  // Steps once; SQLITE_ROW, SQLITE_DONE or an error code.
  int Step() { return sqlite3_step(statement_); }
  // Steps a statement that returns no rows and resets it for the next use.
  bool Run() {
    const int code = sqlite3_step(statement_);
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
    return code == SQLITE_DONE;
  }
  std::string Text(int column) {
    const unsigned char* text = sqlite3_column_text(statement_, column);
    return text == nullptr ? "" : reinterpret_cast<const char*>(text);
  }
  int64_t Int(int column) { return sqlite3_column_int64(statement_, column); }
  double Real(int column) { return sqlite3_column_double(statement_, column); }

 private:
  sqlite3_stmt* statement_ = nullptr;
  int code_ = SQLITE_ERROR;
};

}  // namespace

absl::StatusOr<std::unique_ptr<History>> History::Open(
    const std::string& path) {
  sqlite3* db = nullptr;
  const int code = sqlite3_open_v2(
      path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (code != SQLITE_OK) {
    std::string reason =
        db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code);
    sqlite3_close(db);
    return absl::UnavailableError(
        absl::StrCat(path, ": cannot open the history: ", reason));
  }
  std::unique_ptr<History> history(new History(db, path));
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  // Any file that is not an SQLite database fails here, on its first read.
  if (absl::Status status = history->Exec("PRAGMA journal_mode=WAL");
      !status.ok()) {
    return status;
  }
  if (absl::Status status = history->Exec("BEGIN IMMEDIATE"); !status.ok()) {
    return status;
  }
  if (absl::Status status = history->EnsureSchema(); !status.ok()) {
    history->Exec("ROLLBACK").IgnoreError();
    return status;
  }
  if (absl::Status status = history->Exec("COMMIT"); !status.ok()) {
    return status;
  }
  return history;
}

History::~History() { sqlite3_close(db_); }

absl::Status History::EnsureSchema() {
  int64_t found = 0;
  {
    Statement version(db_, "PRAGMA user_version");
    if (!version.ok() || version.Step() != SQLITE_ROW) {
      return Error("reading the schema version");
    }
    found = version.Int(0);
  }
  if (found == kSchemaVersion) return absl::OkStatus();
  if (found != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat(path_, ": history schema version ", found,
                     ", this tool reads version ", kSchemaVersion));
  }
  {
    Statement tables(db_, "SELECT count(*) FROM sqlite_master");
    if (!tables.ok() || tables.Step() != SQLITE_ROW) {
      return Error("reading the schema");
    }
    if (tables.Int(0) != 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          path_, ": an SQLite database, but not a performance history"));
    }
  }
  if (absl::Status status = Exec(kSchema); !status.ok()) return status;
  return Exec(absl::StrCat("PRAGMA user_version=", kSchemaVersion).c_str());
}

absl::Status History::Exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) == SQLITE_OK) {
    return absl::OkStatus();
  }
  std::string reason = message != nullptr ? message : sqlite3_errmsg(db_);
  sqlite3_free(message);
  return absl::UnavailableError(absl::StrCat(path_, ": ", reason));
}

absl::Status History::Error(const std::string& what) {
  return absl::UnavailableError(
      absl::StrCat(path_, ": ", what, ": ", sqlite3_errmsg(db_)));
}

absl::StatusOr<int64_t> History::Record(
    const RunInfo& run, const std::vector<BenchmarkResult>& results,
    const std::function<void()>& after_row) {
  if (run.backend.empty() || run.commit.empty() || run.date.empty()) {
    return absl::InvalidArgumentError(
        "a run needs a backend, a commit and a date");
  }
  if (results.empty()) {
    return absl::InvalidArgumentError("a run needs at least one benchmark");
  }
  std::set<std::string> names;
  for (const BenchmarkResult& result : results) {
    if (!names.insert(result.name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("benchmark \"", result.name, "\" is given twice"));
    }
  }
  if (absl::Status status = Exec("BEGIN IMMEDIATE"); !status.ok()) {
    return status;
  }
  // Everything below either reaches COMMIT or rolls back.
  auto fail = [this](const std::string& what) {
    absl::Status status = Error(what);
    Exec("ROLLBACK").IgnoreError();
    return status;
  };
  int64_t run_id = 0;
  {
    Statement insert_run(db_,
                         "INSERT INTO runs (backend, commit_id, date, source,"
                         " cpu_model, cores, memory_bytes, kernel)"
                         " VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    Statement insert_repetition(
        db_,
        "INSERT INTO repetitions (run_id, benchmark, repetition, iterations,"
        " real_time_ns, cpu_time_ns) VALUES (?, ?, ?, ?, ?, ?)");
    Statement insert_ratio(db_,
                           "INSERT INTO ratios (run_id, benchmark, repetition,"
                           " counter, value) VALUES (?, ?, ?, ?, ?)");
    if (!insert_run.ok() || !insert_repetition.ok() || !insert_ratio.ok()) {
      return fail("preparing the inserts");
    }
    insert_run.Bind(1, run.backend);
    insert_run.Bind(2, run.commit);
    insert_run.Bind(3, run.date);
    insert_run.Bind(4, run.source);
    insert_run.Bind(5, run.machine.cpu_model);
    insert_run.Bind(6, static_cast<int64_t>(run.machine.cores));
    insert_run.Bind(7, run.machine.memory_bytes);
    insert_run.Bind(8, run.machine.kernel);
    if (!insert_run.Run()) return fail("recording the run");
    run_id = sqlite3_last_insert_rowid(db_);
    if (after_row) after_row();
    for (const BenchmarkResult& result : results) {
      for (const Repetition& repetition : result.repetitions) {
        insert_repetition.Bind(1, run_id);
        insert_repetition.Bind(2, result.name);
        insert_repetition.Bind(3, static_cast<int64_t>(repetition.index));
        insert_repetition.Bind(4, repetition.iterations);
        insert_repetition.Bind(5, repetition.real_time_ns);
        insert_repetition.Bind(6, repetition.cpu_time_ns);
        if (!insert_repetition.Run()) {
          return fail(absl::StrCat("recording ", result.name));
        }
        if (after_row) after_row();
        for (const auto& [counter, value] : repetition.ratios) {
          insert_ratio.Bind(1, run_id);
          insert_ratio.Bind(2, result.name);
          insert_ratio.Bind(3, static_cast<int64_t>(repetition.index));
          insert_ratio.Bind(4, counter);
          insert_ratio.Bind(5, value);
          if (!insert_ratio.Run()) {
            return fail(absl::StrCat("recording ", result.name, " ", counter));
          }
          if (after_row) after_row();
        }
      }
    }
  }
  if (absl::Status status = Exec("COMMIT"); !status.ok()) {
    Exec("ROLLBACK").IgnoreError();
    return status;
  }
  return run_id;
}

absl::StatusOr<std::vector<RunInfo>> History::Runs() {
  Statement query(db_,
                  "SELECT id, backend, commit_id, date, source, cpu_model,"
                  " cores, memory_bytes, kernel FROM runs ORDER BY date, id");
  if (!query.ok()) return Error("reading the runs");
  std::vector<RunInfo> runs;
  int code;
  while ((code = query.Step()) == SQLITE_ROW) {
    RunInfo run;
    run.id = query.Int(0);
    run.backend = query.Text(1);
    run.commit = query.Text(2);
    run.date = query.Text(3);
    run.source = query.Text(4);
    run.machine.cpu_model = query.Text(5);
    run.machine.cores = static_cast<int>(query.Int(6));
    run.machine.memory_bytes = query.Int(7);
    run.machine.kernel = query.Text(8);
    runs.push_back(std::move(run));
  }
  if (code != SQLITE_DONE) return Error("reading the runs");
  return runs;
}

absl::StatusOr<std::vector<Series>> History::LoadSeries() {
  Statement query(
      db_,
      "SELECT r.backend, x.benchmark, x.counter, r.id, r.commit_id, r.date,"
      " x.value FROM ratios x JOIN runs r ON r.id = x.run_id"
      " ORDER BY r.backend, x.benchmark, x.counter, r.date, r.id,"
      " x.repetition");
  if (!query.ok()) return Error("reading the ratios");
  std::vector<Series> all;
  int code;
  while ((code = query.Step()) == SQLITE_ROW) {
    const std::string backend = query.Text(0);
    const std::string benchmark = query.Text(1);
    const std::string counter = query.Text(2);
    if (all.empty() || all.back().backend != backend ||
        all.back().benchmark != benchmark || all.back().counter != counter) {
      all.push_back(Series{backend, benchmark, counter, {}});
    }
    Series& series = all.back();
    const int64_t run_id = query.Int(3);
    if (series.points.empty() || series.points.back().run_id != run_id) {
      series.points.push_back(
          SeriesPoint{run_id, query.Text(4), query.Text(5), {}});
    }
    series.points.back().values.push_back(query.Real(6));
  }
  if (code != SQLITE_DONE) return Error("reading the ratios");
  return all;
}

absl::Status History::CopyTo(const std::string& path) {
  if (std::filesystem::exists(path)) {
    return absl::AlreadyExistsError(absl::StrCat(path, ": already exists"));
  }
  Statement copy(db_, "VACUUM INTO ?");
  if (!copy.ok()) return Error("copying");
  copy.Bind(1, path);
  if (!copy.Run()) return Error(absl::StrCat("copying to ", path));
  return absl::OkStatus();
}

absl::StatusOr<int> History::ScaleRatios(const std::string& backend,
                                         const std::string& benchmark,
                                         const std::string& counter,
                                         int first_run, double factor) {
  if (first_run < 0) {
    return absl::InvalidArgumentError("the first run must be 0 or more");
  }
  if (absl::Status status = Exec("BEGIN IMMEDIATE"); !status.ok()) {
    return status;
  }
  Statement scale(db_,
                  "UPDATE ratios SET value = value * ? WHERE benchmark = ?"
                  " AND counter = ? AND run_id IN (SELECT id FROM runs"
                  " WHERE backend = ? ORDER BY date, id LIMIT -1 OFFSET ?)");
  if (!scale.ok()) {
    absl::Status status = Error("preparing the update");
    Exec("ROLLBACK").IgnoreError();
    return status;
  }
  scale.Bind(1, factor);
  scale.Bind(2, benchmark);
  scale.Bind(3, counter);
  scale.Bind(4, backend);
  scale.Bind(5, static_cast<int64_t>(first_run));
  if (!scale.Run()) {
    absl::Status status = Error("scaling the ratios");
    Exec("ROLLBACK").IgnoreError();
    return status;
  }
  const int changed = sqlite3_changes(db_);
  if (absl::Status status = Exec("COMMIT"); !status.ok()) return status;
  return changed;
}

absl::Status History::CheckIntegrity() {
  Statement check(db_, "PRAGMA integrity_check");
  if (!check.ok()) return Error("checking integrity");
  std::string findings;
  int code;
  while ((code = check.Step()) == SQLITE_ROW) {
    const std::string line = check.Text(0);
    if (line != "ok") absl::StrAppend(&findings, line, "; ");
  }
  if (code != SQLITE_DONE) return Error("checking integrity");
  if (!findings.empty()) {
    return absl::DataLossError(absl::StrCat(path_, ": ", findings));
  }
  return absl::OkStatus();
}

}  // namespace mxcts::perf_results
