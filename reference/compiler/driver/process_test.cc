// Copyright mxcts authors.
//
// Tests of RunProcess(), FormatCommand() and TemporaryDirectory, with real
// processes (the shell's standard utilities found on PATH).

#include "reference/compiler/driver/process.h"

#include <sys/stat.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mxcts::driver {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(RunProcessTest, CapturesStdoutAndStderrSeparately) {
  ProcessOptions options;
  options.capture_stdout = true;
  options.capture_stderr = true;
  absl::StatusOr<ProcessResult> result =
      RunProcess({"sh", "-c", "echo out; echo err >&2; exit 3"}, options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->exit_code, 3);
  EXPECT_FALSE(result->succeeded());
  EXPECT_EQ(result->stdout_text, "out\n");
  EXPECT_EQ(result->stderr_text, "err\n");
  EXPECT_EQ(result->Describe(), "exit status 3");
}

TEST(RunProcessTest, SucceedsWithStatusZero) {
  absl::StatusOr<ProcessResult> result = RunProcess({"true"});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->succeeded());
  // Control: `false` runs too, and fails.
  result = RunProcess({"false"});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_FALSE(result->succeeded());
}

TEST(RunProcessTest, ArgumentsAreNeverSplitOrExpanded) {
  ProcessOptions options;
  options.capture_stdout = true;
  absl::StatusOr<ProcessResult> result = RunProcess(
      {"printf", "[%s]", "two words", "$HOME", "a;b", "*", ""}, options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->stdout_text, "[two words][$HOME][a;b][*][]");
}

TEST(RunProcessTest, LargeOutputOnBothStreamsDoesNotBlock) {
  ProcessOptions options;
  options.capture_stdout = true;
  options.capture_stderr = true;
  // 1 MB on each stream, interleaved: far beyond a pipe's buffer.
  absl::StatusOr<ProcessResult> result = RunProcess(
      {"sh", "-c",
       "i=0; while [ $i -lt 1000 ]; do "
       "head -c 1024 /dev/zero; head -c 1024 /dev/zero >&2; i=$((i+1)); "
       "done"},
      options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->stdout_text.size(), 1024u * 1000u);
  EXPECT_EQ(result->stderr_text.size(), 1024u * 1000u);
}

TEST(RunProcessTest, ReportsASignal) {
  absl::StatusOr<ProcessResult> result = RunProcess({"sh", "-c", "kill -9 $$"});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->signal, 9);
  EXPECT_FALSE(result->succeeded());
  EXPECT_THAT(result->Describe(), StartsWith("signal 9"));
}

TEST(RunProcessTest, AMissingProgramIsNotFoundAndNamed) {
  absl::StatusOr<ProcessResult> result =
      RunProcess({"mxcc-test-no-such-program"});
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(absl::IsNotFound(result.status())) << result.status();
  EXPECT_THAT(result.status().message(),
              HasSubstr("cannot run 'mxcc-test-no-such-program'"));
}

TEST(RunProcessTest, EnvironmentOverrides) {
  setenv("MXCC_PROCESS_TEST_A", "old", 1);
  ProcessOptions options;
  options.capture_stdout = true;
  options.environment_overrides = {"MXCC_PROCESS_TEST_A=new",
                                   "MXCC_PROCESS_TEST_B=added"};
  absl::StatusOr<ProcessResult> result = RunProcess(
      {"sh", "-c", "echo $MXCC_PROCESS_TEST_A $MXCC_PROCESS_TEST_B"}, options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->stdout_text, "new added\n");
  // Control: without overrides the child sees our environment.
  result = RunProcess({"sh", "-c", "echo $MXCC_PROCESS_TEST_A"},
                      ProcessOptions{true, false, {}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->stdout_text, "old\n");
}

TEST(InterruptTest, AnInterruptStopsFurtherProcesses) {
  // In a child process, so the flag does not outlive the test.
  EXPECT_EXIT(
      {
        InstallInterruptHandlers();
        if (PendingInterrupt() != 0 || !RunProcess({"true"}).ok()) exit(1);
        raise(SIGTERM);  // recorded, not fatal
        absl::StatusOr<ProcessResult> after = RunProcess({"true"});
        exit(PendingInterrupt() == SIGTERM && absl::IsCancelled(after.status())
                 ? 42
                 : 2);
      },
      ::testing::ExitedWithCode(42), "");
}

TEST(FormatCommandTest, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(FormatCommand({"g++", "-c", "a.cu", "-o", "/tmp/x-1/a.o", "-DX=1",
                           "-Wl,-rpath,/lib"}),
            "g++ -c a.cu -o /tmp/x-1/a.o -DX=1 -Wl,-rpath,/lib");
  EXPECT_EQ(FormatCommand({"echo", "two words", "it's", ""}),
            "echo 'two words' 'it'\\''s' ''");
}

TEST(FormatCommandTest, RoundTripsThroughAShell) {
  std::vector<std::string> words = {"printf", "[%s]",  "a b",        "it's",
                                    "$x",     "\"q\"", "back\\slash"};
  ProcessOptions options;
  options.capture_stdout = true;
  absl::StatusOr<ProcessResult> result =
      RunProcess({"sh", "-c", FormatCommand(words)}, options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->stdout_text, "[a b][it's][$x][\"q\"][back\\slash]");
}

TEST(TemporaryDirectoryTest, CreatedPrivateAndRemoved) {
  std::string path;
  {
    absl::StatusOr<TemporaryDirectory> directory =
        TemporaryDirectory::Create("mxcc-test");
    ASSERT_TRUE(directory.ok()) << directory.status();
    path = directory->path();
    EXPECT_EQ(path.front(), '/');
    struct stat info;
    ASSERT_EQ(stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0700u);
    ASSERT_TRUE(WriteFile(directory->File("a.txt"), "x").ok());
    std::filesystem::create_directory(directory->File("sub"));
    ASSERT_TRUE(WriteFile(directory->File("sub/b.txt"), "y").ok());
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(TemporaryDirectoryTest, KeepLeavesItAndMoveTransfersOwnership) {
  std::string kept;
  {
    absl::StatusOr<TemporaryDirectory> directory =
        TemporaryDirectory::Create("mxcc-test");
    ASSERT_TRUE(directory.ok()) << directory.status();
    TemporaryDirectory moved = std::move(*directory);
    kept = moved.path();
    moved.Keep();
  }
  EXPECT_TRUE(std::filesystem::exists(kept));
  std::filesystem::remove_all(kept);
}

TEST(TemporaryDirectoryTest, HonoursTmpdir) {
  std::string base = std::string(std::getenv("TEST_TMPDIR") != nullptr
                                     ? std::getenv("TEST_TMPDIR")
                                     : "/tmp") +
                     "/custom-tmp";
  std::filesystem::create_directories(base);
  const char* old = std::getenv("TMPDIR");
  std::string saved = old != nullptr ? old : "";
  setenv("TMPDIR", base.c_str(), 1);
  absl::StatusOr<TemporaryDirectory> directory =
      TemporaryDirectory::Create("mxcc-test");
  if (old != nullptr) {
    setenv("TMPDIR", saved.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  ASSERT_TRUE(directory.ok()) << directory.status();
  EXPECT_THAT(directory->path(), StartsWith(base + "/mxcc-test-"));
}

TEST(FileTest, WriteThenRead) {
  absl::StatusOr<TemporaryDirectory> directory =
      TemporaryDirectory::Create("mxcc-test");
  ASSERT_TRUE(directory.ok());
  std::string contents("binary\0data", 11);
  ASSERT_TRUE(WriteFile(directory->File("f"), contents).ok());
  absl::StatusOr<std::string> read = ReadFile(directory->File("f"));
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, contents);
  absl::StatusOr<std::string> missing = ReadFile(directory->File("nope"));
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("nope"));
}

}  // namespace
}  // namespace mxcts::driver
