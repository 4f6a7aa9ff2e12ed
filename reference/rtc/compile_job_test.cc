// Copyright mxcts authors.
//
// Tests of the compile step with stand-in compilers (shell scripts), so
// that each outcome is certain: a compiler that fails gives its log with
// the temporary paths removed, one that runs too long is stopped, one that
// writes no image is an error, one that cannot start is an error, and the
// temporary directory is gone afterwards in every case. The real compiler
// is exercised by conformance/api/compilation.

#include "reference/rtc/compile_job.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <string>

namespace mxcts::rtc {
namespace {

class CompileJob : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = getenv("TEST_TMPDIR");
    base_ = std::string(tmp ? tmp : "/tmp") + "/" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    mkdir(base_.c_str(), 0700);
    scratch_ = base_ + "/scratch";
    mkdir(scratch_.c_str(), 0700);
    setenv("TMPDIR", scratch_.c_str(), 1);
  }
  void TearDown() override { unsetenv("TMPDIR"); }

  // A stand-in compiler running `body` (sh), given mxcc's arguments.
  std::string Compiler(const std::string& body) {
    const std::string path = base_ + "/fake_mxcc";
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    chmod(path.c_str(), 0755);
    return path;
  }

  int ScratchEntries() {
    int entries = 0;
    if (DIR* dir = opendir(scratch_.c_str())) {
      while (dirent* entry = readdir(dir)) {
        if (std::strcmp(entry->d_name, ".") != 0 &&
            std::strcmp(entry->d_name, "..") != 0) {
          ++entries;
        }
      }
      closedir(dir);
    }
    return entries;
  }

  std::string base_;
  std::string scratch_;
};

TEST_F(CompileJob, FailingCompilerGivesItsLogWithoutTemporaryPaths) {
  CompileInputs in;
  in.source = "broken";
  in.name = "prog.cu";
  // Report an error at the source file's path, as a compiler would.
  for (const char* body : {"for a; do last=\"$a\"; done; "
                           "echo \"$(dirname $5)/include/h.h:1: error: x\" >&2;"
                           " exit 1"}) {
    in.compiler = Compiler(body);
    absl::StatusOr<CompileOutputs> out = Compile(in);
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_FALSE(out->compiled);
    EXPECT_EQ(out->log, "h.h:1: error: x\n");
  }
  EXPECT_EQ(ScratchEntries(), 0);
}

TEST_F(CompileJob, CompilerSeesTheSourceHeadersAndArguments) {
  CompileInputs in;
  in.source = "int main_source;";
  in.name = "named \"prog\".cu";
  in.headers = {{"sub/h.h", "#define H 1\n"}};
  in.compiler_arguments = {"-DX=1"};
  // Print what it got, then fail so that nothing more is needed.
  in.compiler = Compiler(
      "echo \"args: $*\"; dir=$(dirname \"$6\"); cat \"$dir/program.cu\"; "
      "cat \"$dir/include/sub/h.h\"; exit 1");
  absl::StatusOr<CompileOutputs> out = Compile(in);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_NE(out->log.find("--genco -x maca -Iinclude -DX=1 program.cu -o "
                          "program.mcbin"),
            std::string::npos)
      << out->log;
  EXPECT_NE(
      out->log.find("#line 1 \"named \\\"prog\\\".cu\"\nint main_source;"),
      std::string::npos)
      << out->log;
  EXPECT_NE(out->log.find("#define H 1"), std::string::npos) << out->log;
  EXPECT_EQ(ScratchEntries(), 0);
}

TEST_F(CompileJob, CompilerPastItsTimeIsStopped) {
  CompileInputs in;
  in.source = "x";
  in.name = "slow.cu";
  in.compiler = Compiler("sleep 30");
  in.timeout = absl::Milliseconds(300);
  absl::StatusOr<CompileOutputs> out = Compile(in);
  EXPECT_TRUE(absl::IsDeadlineExceeded(out.status())) << out.status();
  EXPECT_EQ(ScratchEntries(), 0);
}

TEST_F(CompileJob, CompilerThatWritesNoImageIsAnError) {
  CompileInputs in;
  in.source = "x";
  in.name = "empty.cu";
  in.compiler = Compiler("exit 0");
  EXPECT_TRUE(absl::IsInternal(Compile(in).status()));
  in.compiler = Compiler("for a; do out=\"$a\"; done; echo garbage > \"$out\"");
  EXPECT_TRUE(absl::IsInternal(Compile(in).status()));
  EXPECT_EQ(ScratchEntries(), 0);
}

TEST_F(CompileJob, CompilerThatCannotStartIsAnError) {
  CompileInputs in;
  in.source = "x";
  in.name = "none.cu";
  in.compiler = base_ + "/no_such_compiler";
  EXPECT_FALSE(Compile(in).ok());
  EXPECT_EQ(ScratchEntries(), 0);
}

TEST_F(CompileJob, FindCompilerLooksAtMacaPath) {
  const std::string root = base_ + "/sdk";
  mkdir(root.c_str(), 0755);
  mkdir((root + "/mxgpu_llvm").c_str(), 0755);
  mkdir((root + "/mxgpu_llvm/bin").c_str(), 0755);
  const std::string driver = root + "/mxgpu_llvm/bin/mxcc";
  std::ofstream(driver) << "#!/bin/sh\n";
  chmod(driver.c_str(), 0755);
  setenv("MACA_PATH", root.c_str(), 1);
  absl::StatusOr<std::string> found = FindCompiler();
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, driver);
  setenv("MACA_PATH", (base_ + "/nowhere").c_str(), 1);
  found = FindCompiler();
  if (!found.ok()) {
    EXPECT_NE(found.status().message().find("nowhere"), std::string::npos);
  }
  unsetenv("MACA_PATH");
}

}  // namespace
}  // namespace mxcts::rtc
