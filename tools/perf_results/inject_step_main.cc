// Copyright mxcts authors.
//
// inject_step: copies a performance history and multiplies one benchmark
// ratio by a factor from one run on, planting a known step, so that the
// detector and the dashboard can be seen to find it on real data. The
// original history is only read.
//
// Usage:
//   inject_step --db=HISTORY --out=COPY --backend=NAME --benchmark=NAME
//       --counter=NAME --from_run=K --factor=F
// K counts the backend's runs from 0, oldest first; F = 1.3 makes the
// ratio 30% larger (worse, for a cost ratio) from run K on.
//
// Exit status: 0 copy written; 2 bad arguments, an unreadable history, an
// existing COPY, or nothing that matches.
// Tested by perf_dashboard_cli_test.sh.

#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "tools/perf_results/history.h"
#include "tools/spec/file_io.h"

ABSL_FLAG(std::string, db, "", "the history to copy");
ABSL_FLAG(std::string, out, "", "the copy to write (must not exist)");
ABSL_FLAG(std::string, backend, "reference", "the backend of the series");
ABSL_FLAG(std::string, benchmark, "", "the benchmark of the series");
ABSL_FLAG(std::string, counter, "", "the ratio counter of the series");
ABSL_FLAG(int, from_run, -1, "the first run (0-based) that gets the step");
ABSL_FLAG(double, factor, 0, "the factor the ratio is multiplied by");

namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "inject_step: %s\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  if (absl::Status status = mxcts::spec::EnterUserDirectory(); !status.ok()) {
    return Fail(std::string(status.message()));
  }
  const std::string db = absl::GetFlag(FLAGS_db);
  const std::string out = absl::GetFlag(FLAGS_out);
  if (db.empty() || out.empty() || absl::GetFlag(FLAGS_benchmark).empty() ||
      absl::GetFlag(FLAGS_counter).empty()) {
    return Fail("--db, --out, --benchmark and --counter are required");
  }
  if (absl::GetFlag(FLAGS_from_run) < 0 || !(absl::GetFlag(FLAGS_factor) > 0)) {
    return Fail("--from_run must be 0 or more and --factor positive");
  }
  if (!std::filesystem::exists(db)) {
    return Fail(absl::StrCat(db, ": no such history"));
  }
  auto original = mxcts::perf_results::History::Open(db);
  if (!original.ok()) return Fail(std::string(original.status().message()));
  if (absl::Status status = (*original)->CopyTo(out); !status.ok()) {
    return Fail(std::string(status.message()));
  }
  auto copy = mxcts::perf_results::History::Open(out);
  if (!copy.ok()) return Fail(std::string(copy.status().message()));
  absl::StatusOr<int> changed = (*copy)->ScaleRatios(
      absl::GetFlag(FLAGS_backend), absl::GetFlag(FLAGS_benchmark),
      absl::GetFlag(FLAGS_counter), absl::GetFlag(FLAGS_from_run),
      absl::GetFlag(FLAGS_factor));
  if (!changed.ok()) return Fail(std::string(changed.status().message()));
  if (*changed == 0) {
    copy->reset();
    std::filesystem::remove(out);
    return Fail(absl::StrCat("no value of ", absl::GetFlag(FLAGS_benchmark),
                             " ", absl::GetFlag(FLAGS_counter), " on ",
                             absl::GetFlag(FLAGS_backend), " from run ",
                             absl::GetFlag(FLAGS_from_run)));
  }
  std::printf(
      "inject_step: %s: %d values of %s %s multiplied by %g from "
      "run %d on\n",
      out.c_str(), *changed, absl::GetFlag(FLAGS_benchmark).c_str(),
      absl::GetFlag(FLAGS_counter).c_str(), absl::GetFlag(FLAGS_factor),
      absl::GetFlag(FLAGS_from_run));
  return 0;
}
