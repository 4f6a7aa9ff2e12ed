// Copyright mxcts authors.
//
// Conformance: a program built against the installed SDK that links both
// the runtime (libmcruntime.so) and the mcLog API (-lmcanalyzer,
// libmcanalyzer.so) has one log level: MXLOG_LEVEL is read once for the
// process, and an invalid value is warned about once, not once per library
// [api.env.general.invalid-value-warns]
// [api.log.level.invalid-value-uses-default]. The program is built with
// the installed driver and run in processes of its own; a backend whose
// tests run without MACA_PATH reports the tests unsupported.

#include <sstream>
#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/installed_sdk.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::CommandResult;
using ::mxcts::conformance::ShellQuote;

// Logs through mcLog before and after the runtime's first call, so that
// either library may be the first to read MXLOG_LEVEL.
constexpr char kProgram[] = R"(#define MXLOG_TAG "BOTH"
#include <mxlog/mxlog.h>
#include <mc_runtime.h>
#include <stdio.h>
__global__ void Set(int* v) { *v = 7; }
int main() {
  LOGW("before the runtime");
  int* v;
  if (mcMallocManaged(&v, sizeof(int)) != mcSuccess) return 2;
  Set<<<1, 1>>>(v);
  if (mcDeviceSynchronize() != mcSuccess) return 3;
  LOGW("after the runtime, %d", *v);
  printf("done\n");
  return 0;
}
)";

class BothLibraries : public ::mxcts::conformance::InstalledSdkTest {
 protected:
  void SetUp() override {
    InstalledSdkTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    Write("both.cpp", kProgram);
    CommandResult build = Mxcc("-x maca both.cpp -o both -lmcanalyzer");
    ASSERT_EQ(build.status, 0) << build.output;
    // Both libraries are in the process.
    CommandResult ldd = Shell(Environment() + "ldd ./both");
    ASSERT_NE(ldd.output.find("libmcruntime.so => "), std::string::npos)
        << ldd.output;
    ASSERT_NE(ldd.output.find("libmcanalyzer.so => "), std::string::npos)
        << ldd.output;
  }

  std::string Environment() const {
    return "LD_LIBRARY_PATH=" + ShellQuote(root_ + "/lib") + " ";
  }

  // Runs the program with MXLOG_LEVEL=`level`; its standard error.
  std::string RunAtLevel(const std::string& level) {
    CommandResult run =
        Shell(Environment() + "MXLOG_LEVEL=" + ShellQuote(level) +
              " ./both 2>stderr.txt");
    EXPECT_EQ(run.status, 0) << run.output << Read("stderr.txt");
    EXPECT_EQ(run.output, "done\n");
    return Read("stderr.txt");
  }

  // The lines of `text` that hold `word`.
  static int LinesWith(const std::string& text, const std::string& word) {
    std::istringstream lines(text);
    std::string line;
    int count = 0;
    while (std::getline(lines, line)) {
      if (line.find(word) != std::string::npos) ++count;
    }
    return count;
  }
};

TEST_F(BothLibraries, InvalidLevelIsWarnedOnce) {
  MX_SPEC("api.env.general.invalid-value-warns",
          "api.log.level.invalid-value-uses-default");
  MX_REQUIRE_CAPABILITY("logging");
  const std::string log = RunAtLevel("loud");
  EXPECT_EQ(LinesWith(log, "MXLOG_LEVEL"), 1) << log;
  EXPECT_EQ(LinesWith(log, "loud"), 1) << log;
  // The default level applies to both libraries: the program's warnings
  // print.
  EXPECT_EQ(LinesWith(log, "[BOTH][W]"), 2) << log;
}

TEST_F(BothLibraries, ControlValidLevelIsNotWarned) {
  MX_SPEC("api.env.general.invalid-value-warns");
  MX_REQUIRE_CAPABILITY("logging");
  const std::string log = RunAtLevel("warning");
  EXPECT_EQ(LinesWith(log, "MXLOG_LEVEL"), 0) << log;
  EXPECT_EQ(LinesWith(log, "[BOTH][W]"), 2) << log;
}

TEST_F(BothLibraries, OneLevelFiltersBothLibraries) {
  MX_SPEC("api.log.mclog.filtered-by-mxlog-level");
  MX_REQUIRE_CAPABILITY("logging");
  // At error, the program's warnings are filtered out before and after the
  // runtime starts.
  const std::string log = RunAtLevel("error");
  EXPECT_EQ(LinesWith(log, "[BOTH]"), 0) << log;
}

}  // namespace
