// -----------------------------------------------------------------------------
// File: conformance/testing/installed_sdk.h
// -----------------------------------------------------------------------------
//
// Tests of what users do with an installed SDK: build programs with
// $MACA_PATH/mxgpu_llvm/bin/mxcc [api.compile.mxcc.install-layout], run
// them, look at the files they make. The fixture gives each test a
// directory of its own under TEST_TMPDIR and runs shell command lines
// there; a backend whose tests run without MACA_PATH has no installation
// to test, and each test is skipped as unsupported.
//
//   class MyPrograms : public mxcts::conformance::InstalledSdkTest {};
//
//   TEST_F(MyPrograms, BuildsAndRuns) {
//     MX_SPEC("api.compile.mxcc.source-to-executable");
//     Write("a.cu", "__global__ void K() {}\nint main() { ... }\n");
//     CommandResult build = Mxcc("a.cu -o a");
//     ASSERT_EQ(build.status, 0) << build.output;
//     EXPECT_EQ(Shell("./a").output, "...");
//   }
//
// Header-only: test sources include it, and a backend's driver compiles
// them.

#ifndef MXCTS_CONFORMANCE_TESTING_INSTALLED_SDK_H_
#define MXCTS_CONFORMANCE_TESTING_INSTALLED_SDK_H_

#include <errno.h>
#include <gtest/gtest.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cctype>
#include <fstream>
#include <iterator>
#include <string>

namespace mxcts::conformance {

// What a command line did.
struct CommandResult {
  int status;          // its exit status; -1 if it did not exit normally
  std::string output;  // its standard output and standard error, merged
};

// `text` quoted for /bin/sh, as one word.
inline std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

// A test with the installation at $MACA_PATH and a scratch directory.
class InstalledSdkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* maca_path = getenv("MACA_PATH");
    if (maca_path == nullptr || *maca_path == '\0') {
      GTEST_SKIP() << "unsupported: the backend's tests run without MACA_PATH";
    }
    char* resolved = realpath(maca_path, nullptr);
    ASSERT_NE(resolved, nullptr) << "MACA_PATH=" << maca_path;
    root_ = resolved;
    free(resolved);
    const ::testing::TestInfo* test =
        ::testing::UnitTest::GetInstance()->current_test_info();
    // A parameterized test's names hold '/'.
    std::string name =
        std::string(test->test_suite_name()) + "." + test->name();
    for (char& c : name) {
      if (!isalnum(static_cast<unsigned char>(c)) && c != '.') c = '_';
    }
    const char* tmp = getenv("TEST_TMPDIR");
    directory_ = std::string(tmp != nullptr ? tmp : "/tmp") + "/" + name;
    ASSERT_TRUE(mkdir(directory_.c_str(), 0755) == 0 || errno == EEXIST)
        << directory_ << ": " << strerror(errno);
  }

  // Runs `command` with /bin/sh in the test's directory, in the test's
  // environment, with TMPDIR a directory of the test's own: compilers'
  // temporary files stay out of a /tmp that other processes clean.
  CommandResult Shell(const std::string& command) {
    std::string full = "mkdir -p " + ShellQuote(directory_ + ".tmp") +
                       " && export TMPDIR=" + ShellQuote(directory_ + ".tmp") +
                       " && cd " + ShellQuote(directory_) + " && { " + command +
                       "\n} 2>&1";
    CommandResult run{-1, ""};
    FILE* pipe = popen(full.c_str(), "r");
    if (pipe == nullptr) return run;
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
      run.output.append(buffer, n);
    }
    int status = pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
  }

  // Runs the installation's driver with `arguments` (shell words) in the
  // test's directory.
  CommandResult Mxcc(const std::string& arguments) {
    return Shell(ShellQuote(Driver()) + " " + arguments);
  }

  // The installation's driver, $MACA_PATH/mxgpu_llvm/bin/mxcc.
  std::string Driver() const { return root_ + "/mxgpu_llvm/bin/mxcc"; }

  // Writes `text` to the file `name`, relative to the test's directory.
  void Write(const std::string& name, const std::string& text) {
    std::ofstream(directory_ + "/" + name) << text;
  }

  // The text of the file `name`, relative to the test's directory; empty if
  // it cannot be read.
  std::string Read(const std::string& name) {
    std::ifstream in(directory_ + "/" + name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  static bool IsFile(const std::string& path) {
    struct stat info;
    return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
  }

  // The installation's real location (links resolved).
  std::string root_;
  // The test's scratch directory, the working directory of Shell.
  std::string directory_;
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_INSTALLED_SDK_H_
