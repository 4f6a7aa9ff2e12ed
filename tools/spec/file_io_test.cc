// Tests of file_io: reading, atomic writing, listing, path resolution.
#include "tools/spec/file_io.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "absl/strings/match.h"

namespace mxcts::spec {
namespace {

std::string ScratchDir(const std::string& name) {
  const char* root = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(root ? root : "/tmp") + "/file_io_" + name;
  EXPECT_TRUE(MakeDirectories(dir).ok());
  return dir;
}

TEST(FileIo, WriteThenReadRoundTrips) {
  std::string path = ScratchDir("round_trip") + "/out.txt";
  ASSERT_TRUE(WriteFileAtomically(path, "first").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "second\n").ok());
  absl::StatusOr<std::string> text = ReadFile(path);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, "second\n");
  // No temporary file is left beside the target.
  absl::StatusOr<std::vector<std::string>> names =
      ListFiles(ScratchDir("round_trip"));
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, std::vector<std::string>{"out.txt"});
}

TEST(FileIo, ReadingAMissingFileNamesIt) {
  absl::StatusOr<std::string> text = ReadFile("/nonexistent/mxcts/file.md");
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(
      absl::StrContains(text.status().message(), "/nonexistent/mxcts/file.md"));
}

TEST(FileIo, WritingIntoAMissingDirectoryFails) {
  absl::Status status =
      WriteFileAtomically("/nonexistent/mxcts/out.json", "{}");
  EXPECT_FALSE(status.ok());
  EXPECT_TRUE(absl::StrContains(status.message(), "/nonexistent/mxcts"));
}

TEST(FileIo, FindFilesWalksSubdirectoriesAndFiltersSuffixes) {
  std::string dir = ScratchDir("find");
  ASSERT_TRUE(MakeDirectories(dir + "/a/b").ok());
  ASSERT_TRUE(WriteFileAtomically(dir + "/a/b/test.xml", "x").ok());
  ASSERT_TRUE(WriteFileAtomically(dir + "/a/test.log", "x").ok());
  ASSERT_TRUE(WriteFileAtomically(dir + "/top.xml", "x").ok());
  absl::StatusOr<std::vector<std::string>> found = FindFiles(dir, {"test.xml"});
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, std::vector<std::string>{dir + "/a/b/test.xml"});
  EXPECT_FALSE(FindFiles(dir + "/missing", {".xml"}).ok());
}

TEST(FileIo, EnterUserDirectoryFollowsTheBazelRunDirectory) {
  std::string dir = ScratchDir("enter");
  std::filesystem::path before = std::filesystem::current_path();
  unsetenv("BUILD_WORKSPACE_DIRECTORY");
  ASSERT_TRUE(EnterUserDirectory().ok());
  EXPECT_EQ(std::filesystem::current_path(), before);  // control: unset

  setenv("BUILD_WORKSPACE_DIRECTORY", dir.c_str(), 1);
  ASSERT_TRUE(EnterUserDirectory().ok());
  EXPECT_EQ(std::filesystem::current_path(), std::filesystem::canonical(dir));

  setenv("BUILD_WORKSPACE_DIRECTORY", "/nonexistent/mxcts", 1);
  absl::Status status = EnterUserDirectory();
  EXPECT_FALSE(status.ok());
  EXPECT_TRUE(absl::StrContains(status.message(), "/nonexistent/mxcts"));
  unsetenv("BUILD_WORKSPACE_DIRECTORY");
  std::filesystem::current_path(before);
}

}  // namespace
}  // namespace mxcts::spec
