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
// The merge reads each child's XML with pugixml and copies its <testcase>
// elements, untouched (properties, failures, skips), under one
// <testsuite> per suite, in the listing's order, then recounts the suite
// and root attributes that tools read (tests, failures, disabled, skipped,
// errors, time).
//
// Tested by case_isolation_test.cc (the merge) and
// case_isolation_cli_test.sh (the processes).

#include "conformance/testing/case_isolation.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "conformance/testing/gtest_cases.h"
#include "conformance/testing/gtest_progress.h"
#include "conformance/testing/monitored_child.h"
#include "pugixml.hpp"
#include "tools/spec/file_io.h"

namespace mxcts::conformance {
namespace {

// Under the 128 KiB limit of one command-line argument.
constexpr size_t kMaxFilterLength = 100000;

std::string HowItEnded(const ChildEnd& end, int timeout_seconds);

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

// Removes invalid XML characters (controls other than tab and newline).
std::string XmlSafe(absl::string_view text) {
  std::string safe;
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 || c == '\n' || c == '\t') safe += c;
  }
  return safe;
}

struct Recovery {
  const IsolationOptions* options;
  std::string dir;  // the children's results
  std::vector<std::string> environment;
  std::vector<std::string> results;  // XML documents
  int children = 0;
  IsolatedRun* run;

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
      if (end.timed_out) {
        run->timed_out = true;
      } else if (end.signal != 0) {
        run->signal = end.signal;
      }
      if (end.exit_code != 0 || end.signal != 0) run->exit_code = 1;
      absl::StatusOr<std::string> contents = spec::ReadFile(xml);
      if (contents.ok()) results.push_back(*std::move(contents));
    }
  }
};

// Recovers after the first run aborted in a case; writes the merged result.
void Recover(const IsolationOptions& options, const GtestProgress& first,
             IsolatedRun* run) {
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
    run->error = "the binary could not list its tests after the abort";
    return;
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
    if (name == first.current()) continue;
    (started.count(name) ? done : rest).push_back(name);
  }
  for (const std::string& name : selection.disabled) rest.push_back(name);

  std::deque<std::vector<std::string>> queue = {done, rest};
  while (!queue.empty() && run->error.empty()) {
    std::vector<std::string> batch = std::move(queue.front());
    queue.pop_front();
    if (!batch.empty()) recovery.RunBatch(batch, &queue);
  }

  std::vector<std::string> order = selection.run;
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

// Counts of a <testsuite> or <testsuites> element.
struct Counts {
  int tests = 0;
  int failures = 0;
  int disabled = 0;
  int skipped = 0;
  double time = 0;

  void Add(const pugi::xml_node& testcase) {
    ++tests;
    time += testcase.attribute("time").as_double();
    if (testcase.child("failure") || testcase.child("error")) {
      ++failures;
    } else if (std::string(testcase.attribute("status").value()) == "notrun") {
      ++disabled;
    } else if (testcase.child("skipped") ||
               std::string(testcase.attribute("result").value()) == "skipped") {
      ++skipped;
    }
  }
  void Write(pugi::xml_node element) const {
    for (const char* name :
         {"tests", "failures", "disabled", "skipped", "errors", "time"}) {
      element.remove_attribute(name);
    }
    element.append_attribute("tests") = tests;
    element.append_attribute("failures") = failures;
    element.append_attribute("disabled") = disabled;
    element.append_attribute("skipped") = skipped;
    element.append_attribute("errors") = 0;
    element.append_attribute("time") = absl::StrCat(time).c_str();
  }
};

std::string SuiteOf(const std::string& name) {
  return name.substr(0, name.find('.'));
}

}  // namespace

absl::StatusOr<std::string> MergeResults(
    const std::vector<std::string>& results,
    const std::vector<std::string>& order,
    const std::vector<AbortedCase>& aborted) {
  std::vector<pugi::xml_document> documents(results.size());
  std::map<std::string, pugi::xml_node> cases;  // "Suite.Name" -> testcase
  std::vector<std::string> found;               // in document order
  std::string timestamp;
  for (size_t i = 0; i < results.size(); ++i) {
    const pugi::xml_parse_result parsed =
        documents[i].load_buffer(results[i].data(), results[i].size());
    if (!parsed) {
      return absl::InvalidArgumentError(absl::StrCat(
          "result ", i + 1, " of the recovered run: ", parsed.description()));
    }
    const pugi::xml_node root = documents[i].document_element();
    if (timestamp.empty()) timestamp = root.attribute("timestamp").value();
    for (const pugi::xml_node& suite : root.children("testsuite")) {
      for (const pugi::xml_node& testcase : suite.children("testcase")) {
        const std::string name =
            absl::StrCat(testcase.attribute("classname").value(), ".",
                         testcase.attribute("name").value());
        if (cases.emplace(name, testcase).second) found.push_back(name);
      }
    }
  }

  pugi::xml_document merged;
  pugi::xml_node declaration = merged.append_child(pugi::node_declaration);
  declaration.append_attribute("version") = "1.0";
  declaration.append_attribute("encoding") = "UTF-8";
  pugi::xml_node root = merged.append_child("testsuites");
  std::map<std::string, pugi::xml_node> suites;
  std::map<std::string, Counts> suite_counts;
  Counts total;
  std::vector<std::string> suite_order;
  auto suite_of = [&](const std::string& name) {
    const std::string suite = SuiteOf(name);
    auto it = suites.find(suite);
    if (it != suites.end()) return it->second;
    pugi::xml_node element = root.append_child("testsuite");
    element.append_attribute("name") = suite.c_str();
    suite_order.push_back(suite);
    return suites[suite] = element;
  };

  std::map<std::string, const AbortedCase*> aborted_by_name;
  for (const AbortedCase& aborted_case : aborted) {
    aborted_by_name.emplace(aborted_case.name, &aborted_case);
  }
  std::set<std::string> written;
  auto write = [&](const std::string& name) {
    if (!written.insert(name).second) return;
    pugi::xml_node testcase;
    auto it = cases.find(name);
    auto ended = aborted_by_name.find(name);
    if (ended != aborted_by_name.end()) {
      testcase = suite_of(name).append_child("testcase");
      testcase.append_attribute("name") =
          name.substr(name.find('.') + 1).c_str();
      testcase.append_attribute("status") = "run";
      testcase.append_attribute("result") = "completed";
      testcase.append_attribute("time") =
          absl::StrFormat("%.3f", ended->second->seconds).c_str();
      testcase.append_attribute("classname") = SuiteOf(name).c_str();
      testcase.append_attribute("aborted") = ended->second->how.c_str();
      pugi::xml_node failure = testcase.append_child("failure");
      failure.append_attribute("message") = ended->second->how.c_str();
      failure.append_attribute("type") = "";
      failure.append_child(pugi::node_cdata)
          .set_value(
              XmlSafe(absl::StrCat(ended->second->how,
                                   "; the other cases of the binary ran in "
                                   "processes of their own\nlast output:\n",
                                   ended->second->output))
                  .c_str());
    } else if (it != cases.end()) {
      testcase = suite_of(name).append_copy(it->second);
    } else {
      return;
    }
    suite_counts[SuiteOf(name)].Add(testcase);
    total.Add(testcase);
  };
  for (const std::string& name : order) write(name);
  for (const std::string& name : found) write(name);
  for (const AbortedCase& aborted_case : aborted) write(aborted_case.name);

  for (const std::string& suite : suite_order) {
    suite_counts[suite].Write(suites[suite]);
  }
  total.Write(root);
  if (!timestamp.empty()) {
    root.append_attribute("timestamp") = timestamp.c_str();
  }
  root.append_attribute("name") = "AllTests";
  std::ostringstream text;
  merged.save(text, "  ", pugi::format_default, pugi::encoding_utf8);
  return text.str();
}

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
    run.exit_code = end.exit_code;
    run.signal = end.timed_out ? 0 : end.signal;
    run.timed_out = end.timed_out;
    return run;
  }
  run.aborted.push_back(Aborted(watch, end, options.case_timeout_seconds));
  Announce(run.aborted.back());
  Recover(options, progress, &run);
  return run;
}

}  // namespace mxcts::conformance
