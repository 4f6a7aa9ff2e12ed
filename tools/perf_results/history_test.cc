// Tests the history database: a run is recorded whole and read back as
// series; a recorder killed halfway leaves nothing of its run and an intact
// database; several recorders at once all succeed; a file that is not a
// history is refused; a copy can take a planted step.
#include "tools/perf_results/history.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace mxcts::perf_results {
namespace {

using ::testing::HasSubstr;

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path =
      std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
  std::remove(path.c_str());
  std::remove((path + "-wal").c_str());
  std::remove((path + "-shm").c_str());
  return path;
}

RunInfo MakeRun(const std::string& commit, const std::string& date) {
  RunInfo run;
  run.backend = "reference";
  run.commit = commit;
  run.date = date;
  run.source = "test";
  run.machine = Machine{"Test CPU", 2, int64_t{1} << 30, "Linux 6.1"};
  return run;
}

// `benchmarks` benchmarks of three repetitions each with one ratio whose
// value is `level` + repetition / 100.
std::vector<BenchmarkResult> MakeResults(int benchmarks, double level) {
  std::vector<BenchmarkResult> results;
  for (int b = 0; b < benchmarks; ++b) {
    BenchmarkResult result{"BM_" + std::to_string(b), {}};
    for (int r = 0; r < 3; ++r) {
      Repetition repetition;
      repetition.index = r;
      repetition.iterations = 10;
      repetition.real_time_ns = 100 + r;
      repetition.cpu_time_ns = 99 + r;
      repetition.ratios["ratio_to_native"] = level + r / 100.0;
      result.repetitions.push_back(repetition);
    }
    results.push_back(result);
  }
  return results;
}

TEST(History, RecordsARunAndReadsItBackAsSeries) {
  const std::string path = TempPath("record.sqlite");
  absl::StatusOr<std::unique_ptr<History>> history = History::Open(path);
  ASSERT_TRUE(history.ok()) << history.status();
  ASSERT_TRUE(
      (*history)
          ->Record(MakeRun("bbb", "2026-11-02T00:00:00Z"), MakeResults(2, 2.0))
          .ok());
  // Recorded later but dated earlier: it comes first.
  ASSERT_TRUE(
      (*history)
          ->Record(MakeRun("aaa", "2026-11-01T00:00:00Z"), MakeResults(2, 1.0))
          .ok());

  absl::StatusOr<std::vector<RunInfo>> runs = (*history)->Runs();
  ASSERT_TRUE(runs.ok()) << runs.status();
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_EQ((*runs)[0].commit, "aaa");
  EXPECT_EQ((*runs)[0].machine.cpu_model, "Test CPU");
  EXPECT_EQ((*runs)[0].machine.memory_bytes, int64_t{1} << 30);

  absl::StatusOr<std::vector<Series>> series = (*history)->LoadSeries();
  ASSERT_TRUE(series.ok()) << series.status();
  ASSERT_EQ(series->size(), 2u);
  const Series& first = (*series)[0];
  EXPECT_EQ(first.backend, "reference");
  EXPECT_EQ(first.benchmark, "BM_0");
  EXPECT_EQ(first.counter, "ratio_to_native");
  ASSERT_EQ(first.points.size(), 2u);
  EXPECT_EQ(first.points[0].commit, "aaa");
  EXPECT_THAT(first.points[0].values, ::testing::ElementsAre(1.0, 1.01, 1.02));
  EXPECT_THAT(first.points[1].values, ::testing::ElementsAre(2.0, 2.01, 2.02));
  EXPECT_TRUE((*history)->CheckIntegrity().ok());
}

TEST(History, RefusesAnIncompleteRun) {
  absl::StatusOr<std::unique_ptr<History>> history =
      History::Open(TempPath("incomplete.sqlite"));
  ASSERT_TRUE(history.ok()) << history.status();
  EXPECT_THAT(
      (*history)
          ->Record(MakeRun("", "2026-11-01T00:00:00Z"), MakeResults(1, 1.0))
          .status()
          .message(),
      HasSubstr("needs a backend, a commit and a date"));
  EXPECT_THAT((*history)
                  ->Record(MakeRun("aaa", "2026-11-01T00:00:00Z"), {})
                  .status()
                  .message(),
              HasSubstr("at least one benchmark"));
  std::vector<BenchmarkResult> twice = MakeResults(1, 1.0);
  twice.push_back(twice[0]);
  EXPECT_THAT((*history)
                  ->Record(MakeRun("aaa", "2026-11-01T00:00:00Z"), twice)
                  .status()
                  .message(),
              HasSubstr("\"BM_0\" is given twice"));
  EXPECT_TRUE((*history)->Runs()->empty());
}

TEST(History, ARecorderKilledHalfwayLeavesNothingOfItsRun) {
  const std::string path = TempPath("killed.sqlite");
  {
    absl::StatusOr<std::unique_ptr<History>> history = History::Open(path);
    ASSERT_TRUE(history.ok()) << history.status();
    ASSERT_TRUE((*history)
                    ->Record(MakeRun("before", "2026-11-01T00:00:00Z"),
                             MakeResults(3, 1.0))
                    .ok());
  }
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    absl::StatusOr<std::unique_ptr<History>> history = History::Open(path);
    if (!history.ok()) _exit(3);
    int rows = 0;
    // Dies with the transaction open, 20 rows into a run of 40 benchmarks.
    (*history)
        ->Record(MakeRun("killed", "2026-11-02T00:00:00Z"),
                 MakeResults(40, 2.0),
                 [&rows] {
                   if (++rows == 20) raise(SIGKILL);
                 })
        .IgnoreError();
    _exit(4);  // not reached
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the recorder was not killed halfway (status " << status << ")";

  absl::StatusOr<std::unique_ptr<History>> history = History::Open(path);
  ASSERT_TRUE(history.ok()) << history.status();
  EXPECT_TRUE((*history)->CheckIntegrity().ok());
  absl::StatusOr<std::vector<RunInfo>> runs = (*history)->Runs();
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ((*runs)[0].commit, "before");
  absl::StatusOr<std::vector<Series>> series = (*history)->LoadSeries();
  ASSERT_TRUE(series.ok());
  EXPECT_EQ(series->size(), 3u);  // not the killed run's 40 benchmarks
  // And the next recorder is not hindered.
  EXPECT_TRUE((*history)
                  ->Record(MakeRun("after", "2026-11-03T00:00:00Z"),
                           MakeResults(3, 1.0))
                  .ok());
  EXPECT_EQ((*history)->Runs()->size(), 2u);
}

TEST(History, RecordersAtOnceAllSucceed) {
  const std::string path = TempPath("concurrent.sqlite");
  constexpr int kRecorders = 4;
  std::vector<pid_t> children;
  for (int i = 0; i < kRecorders; ++i) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      // Each opens (the first creates the file) and records a run whose
      // rows are slow enough that the transactions overlap.
      absl::StatusOr<std::unique_ptr<History>> history = History::Open(path);
      if (!history.ok()) _exit(3);
      absl::StatusOr<int64_t> id = (*history)->Record(
          MakeRun("commit" + std::to_string(i), "2026-11-01T00:00:00Z"),
          MakeResults(10, 1.0 + i),
          [] { std::this_thread::sleep_for(std::chrono::milliseconds(2)); });
      _exit(id.ok() ? 0 : 5);
    }
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "a recorder failed (status " << status << ")";
  }
  absl::StatusOr<std::unique_ptr<History>> history = History::Open(path);
  ASSERT_TRUE(history.ok()) << history.status();
  EXPECT_TRUE((*history)->CheckIntegrity().ok());
  EXPECT_EQ((*history)->Runs()->size(), static_cast<size_t>(kRecorders));
  absl::StatusOr<std::vector<Series>> series = (*history)->LoadSeries();
  ASSERT_TRUE(series.ok());
  ASSERT_EQ(series->size(), 10u);
  for (const Series& one : *series) {
    ASSERT_EQ(one.points.size(), static_cast<size_t>(kRecorders));
    for (const SeriesPoint& point : one.points) {
      EXPECT_EQ(point.values.size(), 3u);
    }
  }
}

TEST(History, RefusesAFileThatIsNotAHistory) {
  const std::string text = TempPath("text.sqlite");
  std::ofstream(text) << "these are not the pages of a database\n";
  absl::StatusOr<std::unique_ptr<History>> history = History::Open(text);
  ASSERT_FALSE(history.ok());
  EXPECT_THAT(history.status().message(), HasSubstr(text));

  const std::string other = TempPath("other.sqlite");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(db, "CREATE TABLE mine (x)", nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_close(db);
  history = History::Open(other);
  ASSERT_FALSE(history.ok());
  EXPECT_THAT(history.status().message(),
              HasSubstr("not a performance history"));

  const std::string newer = TempPath("newer.sqlite");
  ASSERT_EQ(sqlite3_open(newer.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(db, "PRAGMA user_version=7", nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_close(db);
  history = History::Open(newer);
  ASSERT_FALSE(history.ok());
  EXPECT_THAT(history.status().message(), HasSubstr("schema version 7"));
}

TEST(History, ACopyTakesAPlantedStepAndTheOriginalKeepsItsValues) {
  const std::string path = TempPath("original.sqlite");
  const std::string copy_path = TempPath("copy.sqlite");
  absl::StatusOr<std::unique_ptr<History>> history = History::Open(path);
  ASSERT_TRUE(history.ok()) << history.status();
  for (int run = 0; run < 4; ++run) {
    ASSERT_TRUE((*history)
                    ->Record(MakeRun("c" + std::to_string(run),
                                     "2026-11-0" + std::to_string(run + 1) +
                                         "T00:00:00Z"),
                             MakeResults(2, 1.0))
                    .ok());
  }
  ASSERT_TRUE((*history)->CopyTo(copy_path).ok());
  EXPECT_THAT((*history)->CopyTo(copy_path).message(),
              HasSubstr("already exists"));
  absl::StatusOr<std::unique_ptr<History>> copy = History::Open(copy_path);
  ASSERT_TRUE(copy.ok()) << copy.status();
  absl::StatusOr<int> changed =
      (*copy)->ScaleRatios("reference", "BM_1", "ratio_to_native", 2, 2.0);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_EQ(*changed, 6);  // runs 2 and 3, three repetitions each

  const Series scaled = (*(*copy)->LoadSeries())[1];
  EXPECT_EQ(scaled.benchmark, "BM_1");
  EXPECT_DOUBLE_EQ(scaled.points[1].values[0], 1.0);
  EXPECT_DOUBLE_EQ(scaled.points[2].values[0], 2.0);
  EXPECT_DOUBLE_EQ(scaled.points[3].values[2], 2.04);
  // Control: the other benchmark and the original are untouched.
  EXPECT_DOUBLE_EQ((*(*copy)->LoadSeries())[0].points[3].values[0], 1.0);
  EXPECT_DOUBLE_EQ((*(*history)->LoadSeries())[1].points[3].values[0], 1.0);
}

}  // namespace
}  // namespace mxcts::perf_results
