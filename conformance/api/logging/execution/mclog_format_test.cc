// Copyright mxcts authors.
//
// Conformance: what a mcLog message looks like (docs/spec/api-logging.md,
// "Output" and "The mcLog API"): printf's conversions, one line with the
// program's tag (this file defines MXLOG_TAG), the level and the source
// location, on standard error and never on standard output, whole even
// when several threads log at once. Every check runs at MXLOG_LEVEL=debug
// in a fresh process; the control of the tag is mclog_levels_test.cc, whose
// messages carry the default tag.

#define MXLOG_TAG "FORMATTEST"

#include <mc_runtime.h>
#include <mxlog/mxlog.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/captured_output.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// One conversion: what the program logs and the message text expected.
struct FormatCase {
  const char* name;
  void (*log)();
  const char* expected;
};

void Integers() { LOGI("%d %i %u %ld %lld", -5, 7, 8u, -9L, 1234567890123LL); }
void Hexadecimal() { LOGI("%x %X %#x %08x", 255u, 255u, 255u, 48879u); }
void Floating() { LOGI("%.2f %5.1f %e %g", 3.14159, 2.5, 1000.0, 0.5); }
void Strings() { LOGI("[%s] [%-4s] [%4s] [%.2s]", "abc", "ab", "ab", "xyz"); }
void Characters() { LOGI("%c%c%c", 'm', 'c', '!'); }
void Percent() { LOGI("100%% done"); }
void Width() { LOGI("[%*d] [%-*d]", 5, 42, 4, 7); }
void NoArguments() { LOGI("plain text"); }
void Long() {
  const std::string text(3000, 'z');
  LOGI("%s|end", text.c_str());
}

const FormatCase kFormats[] = {
    {"Integers", &Integers, "-5 7 8 -9 1234567890123"},
    {"Hexadecimal", &Hexadecimal, "ff FF 0xff 0000beef"},
    {"Floating", &Floating, "3.14   2.5 1.000000e+03 0.5"},
    {"Strings", &Strings, "[abc] [ab  ] [  ab] [xy]"},
    {"Characters", &Characters, "mc!"},
    {"Percent", &Percent, "100% done"},
    {"Width", &Width, "[   42] [7   ]"},
    {"NoArguments", &NoArguments, "plain text"},
    {"Long", &Long, nullptr},
};

std::string Formats(const FormatCase& format) {
  CapturedStderr capture;
  format.log();
  const std::string log = capture.Stop();
  const std::vector<std::string> lines = LinesOf(log);
  if (lines.size() != 1) return "expected one line, got: " + log;
  const std::string prefix = "[FORMATTEST][I]mclog_format_test.cc:";
  if (lines[0].rfind(prefix, 0) != 0) return "the prefix is wrong: " + lines[0];
  const size_t colon = lines[0].find(": ", prefix.size());
  if (colon == std::string::npos) return "no message: " + lines[0];
  const std::string message = lines[0].substr(colon + 2);
  const std::string expected = format.expected != nullptr
                                   ? format.expected
                                   : std::string(3000, 'z') + "|end";
  return message == expected
             ? ""
             : "the message is '" + message + "', expected '" + expected + "'";
}

class McLogFormat : public testing::TestWithParam<FormatCase> {};

TEST_P(McLogFormat, ConvertsAsPrintfDoes) {
  MX_SPEC("api.log.mclog.formatting", "api.log.mclog.tag",
          "api.log.output.message-format");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(Formats(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Conversions, McLogFormat, testing::ValuesIn(kFormats),
                         [](const testing::TestParamInfo<FormatCase>& info) {
                           return std::string(info.param.name);
                         });

// The control: a message that differs is told apart.
TEST(McLogFormat, ControlADifferentMessageIsSeen) {
  MX_SPEC("api.log.mclog.formatting");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  const FormatCase wrong{"Wrong", &Integers, "-5 7 8 -9 0"};
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(!Formats(wrong).empty());
}

// --- Location, newlines, streams. ---

std::string LineOfTheCall() {
  CapturedStderr capture;
  const int line = __LINE__ + 1;
  LOGW("here");
  const std::string log = capture.Stop();
  const std::string expected =
      "[FORMATTEST][W]mclog_format_test.cc:" + std::to_string(line) +
      ": here\n";
  return log == expected ? "" : "'" + log + "' is not '" + expected + "'";
}

TEST(McLogLocation, NamesTheFileAndLineOfTheCall) {
  MX_SPEC("api.log.mclog.formatting", "api.log.output.message-format");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(LineOfTheCall());
}

std::string OneLinePerMessage() {
  CapturedStderr capture;
  LOGE("first\nsecond");
  LOGE("ends with a newline\n");
  const std::string log = capture.Stop();
  const std::vector<std::string> lines = LinesOf(log);
  if (lines.size() != 2) return "expected two lines: " + log;
  if (lines[0].find(": first second") == std::string::npos) {
    return "the inner newline: " + lines[0];
  }
  if (lines[1].find(": ends with a newline") == std::string::npos) {
    return "the final newline: " + lines[1];
  }
  return "";
}

TEST(McLogLines, EachMessageIsOneLine) {
  MX_SPEC("api.log.output.message-format", "api.log.mclog.formatting");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(OneLinePerMessage());
}

// Standard output is captured as well: the log writes nothing there.
std::string NothingOnStdout() {
  std::fflush(stdout);
  std::FILE* file = std::tmpfile();
  const int saved = dup(STDOUT_FILENO);
  dup2(fileno(file), STDOUT_FILENO);
  CapturedStderr capture;
  LOGE("to stderr");
  LOGD("to stderr too");
  std::printf("program output\n");
  std::fflush(stdout);
  const std::string log = capture.Stop();
  dup2(saved, STDOUT_FILENO);
  close(saved);
  std::rewind(file);
  char buffer[256] = {};
  const size_t n = std::fread(buffer, 1, sizeof(buffer) - 1, file);
  std::fclose(file);
  const std::string out(buffer, n);
  std::string problems;
  if (out != "program output\n") problems += "stdout is '" + out + "'; ";
  if (LinesOf(log).size() != 2) problems += "stderr is '" + log + "'; ";
  return problems;
}

TEST(McLogStream, IsStandardErrorNotStandardOutput) {
  MX_SPEC("api.log.output.not-on-stdout");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(NothingOnStdout());
}

// --- Threads. ---

std::string WholeLinesFromThreads(int threads, int per_thread) {
  CapturedStderr capture;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([t, per_thread] {
      for (int i = 0; i < per_thread; ++i) {
        LOGI("thread %d message %d %s", t, i, "end");
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  const std::string log = capture.Stop();
  std::vector<int> counts(threads, 0);
  for (const std::string& line : LinesOf(log)) {
    int t = -1, i = -1;
    char end[8] = {};
    const size_t colon = line.find(": thread ");
    if (line.rfind("[FORMATTEST][I]mclog_format_test.cc:", 0) != 0 ||
        colon == std::string::npos ||
        std::sscanf(line.c_str() + colon, ": thread %d message %d %3s", &t, &i,
                    end) != 3 ||
        std::string(end) != "end" || t < 0 || t >= threads) {
      return "a broken line: '" + line + "'";
    }
    ++counts[t];
  }
  for (int t = 0; t < threads; ++t) {
    if (counts[t] != per_thread) {
      return "thread " + std::to_string(t) + " has " +
             std::to_string(counts[t]) + " lines";
    }
  }
  return "";
}

class McLogThreads : public testing::TestWithParam<int> {};

TEST_P(McLogThreads, MessagesAreWhole) {
  MX_SPEC("api.log.mclog.thread-safe");
  MX_REQUIRE_CAPABILITY("logging");
  ScopedEnvironment level("MXLOG_LEVEL", "debug");
  MX_EXPECT_IN_FRESH_PROCESS(WholeLinesFromThreads(GetParam(), 300));
}

INSTANTIATE_TEST_SUITE_P(Threads, McLogThreads, testing::Values(1, 2, 8));

}  // namespace
}  // namespace mxcts::conformance
