// Copyright mxcts authors.
//
// Case isolation: the whole binary first, recovery only after an abort
// (the plan is in case_isolation.h). Recovery keeps a queue of batches,
// each a list of exact case names. A batch runs in one child per filter
// (gtest_cases.h splits long filters); when a child aborts in case X, X is
// recorded and the batch's other cases split into those that had started
// (they ran to their end before X, and run again for their XML) and those
// that had not; both go back on the queue. Disabled cases ride in the
// not-yet-started part, so that the merged result reports them as
// GoogleTest would have.
//
// Recovery children get the run's arguments without its --gtest_filter
// and --gtest_output, and the environment without the variables that
// choose cases (GTEST_FILTER, TESTBRIDGE_TEST_ONLY, the GTEST_ sharding
// pair): the exact filter already is this shard's share.
//
// The children's results become one document by MergeResults
// (merged_results.h).
//
// Tested by case_isolation_cli_test.sh.

#include "conformance/testing/case_isolation.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "conformance/testing/gtest_cases.h"
#include "conformance/testing/gtest_progress.h"
#include "conformance/testing/merged_results.h"
#include "conformance/testing/monitored_child.h"
#include "tools/spec/file_io.h"

namespace mxcts::conformance {
namespace {

// Under the 128 KiB limit of one command-line argument.
constexpr size_t kMaxFilterLength = 100000;

std::string HowItEnded(const ChildEnd& end, int timeout_seconds) {
  if (end.timed_out)
    return absl::StrCat("timed out after ", timeout_seconds, " s");
  if (end.signal != 0) {
    return absl::StrCat("crashed: ", SignalName(end.signal), " (signal ",
                        end.signal, ")");
  }
  return absl::StrCat("exited with status ", end.exit_code,
                      " before the case ended");
}

// How a process ended outside any case, after `last` ("" before the
// first case).
std::string HowItEndedOutside(const ChildEnd& end, int timeout_seconds,
                              const std::string& last) {
  std::string how;
  if (end.timed_out) {
    how = absl::StrCat("timed out after ", timeout_seconds,
                       " s outside any case");
  } else if (end.signal != 0) {
    how = absl::StrCat("crashed: ", SignalName(end.signal), " (signal ",
                       end.signal, ") outside any case");
  } else {
    how = absl::StrCat("exited with status ", end.exit_code,
                       " outside any case without writing its result");
  }
  return last.empty() ? absl::StrCat(how, ", before the first case")
                      : absl::StrCat(how, ", after ", last);
}

// The suite of the failures that stand for aborts outside any case; the
// name says where: BeforeTheFirstCase (static initialisation, a global
// set-up), BetweenCases (a suite's set-up or tear-down) or AfterTheLastCase
// (a global tear-down, static destructors, exit handlers).
constexpr char kOutsideSuite[] = "OutsideCases";

std::string OutsideName(bool any_started, bool all_started) {
  if (!any_started) return absl::StrCat(kOutsideSuite, ".BeforeTheFirstCase");
  return absl::StrCat(kOutsideSuite,
                      all_started ? ".AfterTheLastCase" : ".BetweenCases");
}

// Whether a process that ended with no case running ended abnormally: a
// signal, a stall, or a non-zero status without a result (GoogleTest
// writes its result before it exits with 1 for failed cases).
bool EndedAbnormally(const ChildEnd& end, bool wrote_result) {
  return end.timed_out || end.signal != 0 ||
         (end.exit_code != 0 && !wrote_result);
}

// What a failed case known only from the console says.
constexpr char kLostDetails[] =
    "failed; the process ended outside any case before writing its result, "
    "so the failure's messages are only in the log above";

// A child's progress, and when its running case started.
struct Watch {
  GtestProgress progress;
  size_t events = 0;
  std::chrono::steady_clock::time_point case_start;

  double CaseSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         case_start)
        .count();
  }
};

// Copies the child's output to our stdout and feeds `watch`.
std::function<void(absl::string_view)> Relay(Watch* watch) {
  return [watch](absl::string_view chunk) {
    size_t written = 0;
    while (written < chunk.size()) {
      const ssize_t n =
          write(STDOUT_FILENO, chunk.data() + written, chunk.size() - written);
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    watch->progress.Feed(chunk);
    if (watch->progress.events() != watch->events) {
      watch->events = watch->progress.events();
      watch->case_start = std::chrono::steady_clock::now();
    }
  };
}

// The aborted case of a child that ended inside it.
AbortedCase Aborted(const Watch& watch, const ChildEnd& end,
                    int timeout_seconds) {
  return {watch.progress.current(), HowItEnded(end, timeout_seconds),
          watch.progress.CaseOutput(), watch.CaseSeconds()};
}

// Says on stderr which case aborted, between the case's output and the rest.
void Announce(const AbortedCase& aborted) {
  std::fflush(stdout);
  std::fprintf(stderr,
               "\ncase isolation: %s %s; the binary's other cases run in "
               "processes of their own\n",
               aborted.name.c_str(), aborted.how.c_str());
}

int IntFromEnvironment(const char* name, int otherwise) {
  const char* value = std::getenv(name);
  int number = 0;
  if (value == nullptr || !absl::SimpleAtoi(value, &number)) return otherwise;
  return number;
}

bool AlsoRunDisabled(const std::vector<std::string>& command) {
  for (const std::string& arg : command) {
    if (arg == "--gtest_also_run_disabled_tests" ||
        arg == "--gtest_also_run_disabled_tests=1") {
      return true;
    }
  }
  const char* value = std::getenv("GTEST_ALSO_RUN_DISABLED_TESTS");
  return value != nullptr && std::string(value) != "0" && *value != '\0';
}

// The command's arguments minus those that choose cases or the output.
std::vector<std::string> RecoveryCommand(
    const std::vector<std::string>& command) {
  std::vector<std::string> kept;
  for (const std::string& arg : command) {
    if (absl::StartsWith(arg, "--gtest_filter") ||
        absl::StartsWith(arg, "--gtest_output")) {
      continue;
    }
    kept.push_back(arg);
  }
  return kept;
}

const std::vector<std::string> kChoosingVariables = {
    "GTEST_FILTER", "TESTBRIDGE_TEST_ONLY", "GTEST_TOTAL_SHARDS",
    "GTEST_SHARD_INDEX"};

struct Recovery {
  const IsolationOptions* options;
  std::string dir;  // the children's results
  std::vector<std::string> environment;
  std::vector<std::string> results;  // XML documents
  int children = 0;
  IsolatedRun* run;

  // Records an abort outside any case, the first only: it is the binary's
  // fault, not a case's, and one that recurs in every child (a global
  // set-up that crashes) is still one. Later ones are in the log.
  void Outside(AbortedCase aborted) {
    Announce(aborted);
    for (const AbortedCase& seen : run->aborted) {
      if (absl::StartsWith(seen.name, kOutsideSuite)) return;
    }
    run->aborted.push_back(std::move(aborted));
  }

  // Runs `batch`; queues what remains after an abort.
  void RunBatch(const std::vector<std::string>& batch,
                std::deque<std::vector<std::string>>* queue) {
    for (const std::string& filter : ExactFilters(batch, kMaxFilterLength)) {
      const std::string xml = absl::StrCat(dir, "/", children++, ".xml");
      std::vector<std::string> argv = RecoveryCommand(options->command);
      argv.push_back("--gtest_filter=" + filter);
      argv.push_back("--gtest_output=xml:" + xml);
      Watch watch;
      const GtestProgress& progress = watch.progress;
      ++run->restarts;
      const ChildEnd end =
          RunMonitoredChild(argv, environment, options->case_timeout_seconds,
                            Relay(&watch), &progress);
      if (!end.started) {
        run->error = end.error;
        run->exit_code = 1;
        return;
      }
      const std::vector<std::string> names = absl::StrSplit(filter, ':');
      if (progress.running() && std::find(names.begin(), names.end(),
                                          progress.current()) == names.end()) {
        // Not a case of the filter: splitting would not shorten the batch.
        run->error = absl::StrCat("the binary ran ", progress.current(),
                                  ", which it was not asked to run");
        return;
      }
      if (progress.running()) {
        const std::string& crashed = progress.current();
        run->aborted.push_back(
            Aborted(watch, end, options->case_timeout_seconds));
        Announce(run->aborted.back());
        std::set<std::string> started(progress.started().begin(),
                                      progress.started().end());
        std::vector<std::string> done;
        std::vector<std::string> rest;
        for (const std::string& name : names) {
          if (name == crashed) continue;
          (started.count(name) ? done : rest).push_back(name);
        }
        queue->push_back(std::move(done));
        queue->push_back(std::move(rest));
        continue;
      }
      absl::StatusOr<std::string> contents = spec::ReadFile(xml);
      if (end.exit_code != 0 || end.signal != 0 || end.timed_out) {
        run->exit_code = 1;
      }
      if (EndedAbnormally(end, contents.ok())) {
        // Outside any case: the cases that ended keep their results (from
        // the console if the process wrote none); those it never reached
        // go back on the queue if it made progress.
        std::set<std::string> started(progress.started().begin(),
                                      progress.started().end());
        std::vector<std::string> rest;
        for (const std::string& name : names) {
          if (!started.count(name)) rest.push_back(name);
        }
        const std::string last =
            progress.started().empty() ? "" : progress.started().back();
        Outside({OutsideName(!started.empty(), contents.ok() || rest.empty()),
                 HowItEndedOutside(end, options->case_timeout_seconds, last),
                 progress.CaseOutput(), watch.CaseSeconds()});
        if (!contents.ok()) {
          results.push_back(ResultFromConsole(progress.ended(), kLostDetails));
          if (!started.empty() && !rest.empty()) {
            queue->push_back(std::move(rest));
          }
          continue;
        }
      }
      if (contents.ok()) results.push_back(*std::move(contents));
    }
  }
};

// Recovers after the first run aborted, in a case or (`outside` non-null)
// outside any: writes the merged result. After an abort outside any case
// the cases that had ended keep the outcomes the console showed (rerun,
// they would meet the same abort), and `outside` is named for where it
// happened.
void Recover(const IsolationOptions& options, const GtestProgress& first,
             AbortedCase* outside, IsolatedRun* run) {
  run->exit_code = 1;
  std::string pattern = options.scratch_dir + "/case_isolation.XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    run->error =
        absl::StrCat("cannot make a directory under ", options.scratch_dir);
    return;
  }
  Recovery recovery{&options, pattern, CurrentEnvironment(), {}, 0, run};

  std::string listing;
  std::vector<std::string> list_argv = RecoveryCommand(options.command);
  for (const std::string& arg : options.command) {
    if (absl::StartsWith(arg, "--gtest_filter")) list_argv.push_back(arg);
  }
  list_argv.push_back("--gtest_list_tests");
  std::vector<std::string> list_environment = WithoutVariables(
      CurrentEnvironment(), {"GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX"});
  const ChildEnd listed = RunMonitoredChild(
      list_argv, list_environment, options.case_timeout_seconds,
      [&listing](absl::string_view chunk) {
        listing.append(chunk.data(), chunk.size());
      },
      nullptr);
  if (!listed.started || listed.signal != 0 || listed.exit_code != 0) {
    if (outside == nullptr) {
      run->error = "the binary could not list its tests after the abort";
      return;
    }
    // (Static initialisation that crashes lists nothing either.)
    listing.clear();
  }
  const Sharding sharding{IntFromEnvironment("GTEST_TOTAL_SHARDS", 0),
                          IntFromEnvironment("GTEST_SHARD_INDEX", 0)};
  const ShardSelection selection = SelectShard(
      ParseGtestList(listing), sharding, AlsoRunDisabled(options.command));
  recovery.environment =
      WithoutVariables(CurrentEnvironment(), kChoosingVariables);

  std::set<std::string> started(first.started().begin(), first.started().end());
  std::vector<std::string> done;
  std::vector<std::string> rest;
  for (const std::string& name : selection.run) {
    if (outside == nullptr && name == first.current()) continue;
    (started.count(name) ? done : rest).push_back(name);
  }
  for (const std::string& name : selection.disabled) rest.push_back(name);

  std::deque<std::vector<std::string>> queue = {done, rest};
  if (outside != nullptr) {
    outside->name =
        OutsideName(!first.started().empty(), rest.empty() && !listing.empty());
    recovery.Outside(*outside);
    recovery.results.push_back(ResultFromConsole(first.ended(), kLostDetails));
    queue = {rest};
  }
  while (!queue.empty() && run->error.empty()) {
    std::vector<std::string> batch = std::move(queue.front());
    queue.pop_front();
    if (!batch.empty()) recovery.RunBatch(batch, &queue);
  }

  std::vector<std::string> order = selection.run;
  if (outside != nullptr && selection.run.empty()) order = first.started();
  order.insert(order.end(), selection.disabled.begin(),
               selection.disabled.end());
  absl::StatusOr<std::string> merged =
      MergeResults(recovery.results, order, run->aborted);
  if (!merged.ok()) {
    run->error = std::string(merged.status().message());
  } else {
    absl::Status written =
        spec::WriteFileAtomically(options.result_path, *merged);
    if (!written.ok()) run->error = std::string(written.message());
  }
  std::error_code ignored;
  std::filesystem::remove_all(recovery.dir, ignored);
}

}  // namespace

IsolatedRun RunWithCaseIsolation(const IsolationOptions& options) {
  IsolatedRun run;
  std::remove(options.result_path.c_str());
  std::vector<std::string> argv = options.command;
  argv.push_back("--gtest_output=xml:" + options.result_path);
  Watch watch;
  const GtestProgress& progress = watch.progress;
  const ChildEnd end =
      RunMonitoredChild(argv, CurrentEnvironment(),
                        options.case_timeout_seconds, Relay(&watch), &progress);
  if (!end.started) {
    run.error = end.error;
    return run;
  }
  run.started = true;
  if (!progress.running()) {
    absl::StatusOr<std::string> result = spec::ReadFile(options.result_path);
    if (!EndedAbnormally(end, result.ok())) {
      run.exit_code = end.exit_code;
      return run;
    }
    const std::string last =
        progress.started().empty() ? "" : progress.started().back();
    AbortedCase outside{
        "", HowItEndedOutside(end, options.case_timeout_seconds, last),
        progress.CaseOutput(), watch.CaseSeconds()};
    if (result.ok()) {
      // After GoogleTest wrote its result: every case is in it.
      run.exit_code = 1;
      outside.name = OutsideName(true, true);
      run.aborted.push_back(outside);
      Announce(run.aborted.back());
      absl::StatusOr<std::string> merged =
          MergeResults({*result}, {}, run.aborted);
      absl::Status written =
          merged.ok() ? spec::WriteFileAtomically(options.result_path, *merged)
                      : merged.status();
      if (!written.ok()) run.error = std::string(written.message());
      return run;
    }
    Recover(options, progress, &outside, &run);
    return run;
  }
  run.aborted.push_back(Aborted(watch, end, options.case_timeout_seconds));
  Announce(run.aborted.back());
  Recover(options, progress, nullptr, &run);
  return run;
}

}  // namespace mxcts::conformance
