// Copyright mxcts authors.
//
// Tests of FindInstallation() (the MACA_PATH precedence) and the checks of
// an installation's files, on trees built in the test's temporary directory.

#include "reference/compiler/driver/installation.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mxcts::driver {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

TEST(FindInstallationTest, FlagWinsOverEnvironmentAndExecutable) {
  absl::StatusOr<Installation> found = FindInstallation(
      std::string("/flag/sdk"), "/env/sdk", "/exe/sdk/mxgpu_llvm/bin/mxcc");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(found->root, "/flag/sdk");
  EXPECT_EQ(found->origin, "--maca-path");
}

TEST(FindInstallationTest, EnvironmentWinsOverExecutable) {
  absl::StatusOr<Installation> found = FindInstallation(
      std::nullopt, "/env/sdk/", "/exe/sdk/mxgpu_llvm/bin/mxcc");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(found->root, "/env/sdk");
  EXPECT_THAT(found->origin, HasSubstr("MACA_PATH"));
}

TEST(FindInstallationTest, ExecutableLocationIsThreeLevelsUp) {
  absl::StatusOr<Installation> found =
      FindInstallation(std::nullopt, nullptr, "/exe/sdk/mxgpu_llvm/bin/mxcc");
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(found->root, "/exe/sdk");
  EXPECT_EQ(found->include_dir(), "/exe/sdk/include");
  EXPECT_EQ(found->lib_dir(), "/exe/sdk/lib");
  EXPECT_EQ(found->device_library(), "/exe/sdk/lib/libmcdevice.a");
  EXPECT_EQ(found->device_version_script(), "/exe/sdk/lib/mcdevice.version");
  EXPECT_EQ(found->device_linker_script(), "/exe/sdk/lib/mcconstant.ld");
  // An empty MACA_PATH counts as unset.
  found = FindInstallation(std::nullopt, "", "/exe/sdk/mxgpu_llvm/bin/mxcc");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->root, "/exe/sdk");
}

TEST(FindInstallationTest, RelativePathsBecomeAbsolute) {
  absl::StatusOr<Installation> found =
      FindInstallation(std::string("rel/sdk"), nullptr, "");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->root, (fs::current_path() / "rel/sdk").string());
}

TEST(FindInstallationTest, NothingToGoByIsAnError) {
  absl::StatusOr<Installation> found =
      FindInstallation(std::nullopt, nullptr, "");
  ASSERT_FALSE(found.ok());
  EXPECT_THAT(found.status().message(), HasSubstr("MACA_PATH"));
  EXPECT_FALSE(FindInstallation(std::string(""), nullptr, "/x/a/b/c").ok());
}

TEST(ExecutablePathTest, IsThisTest) {
  std::string path = ExecutablePath();
  EXPECT_EQ(path.front(), '/');
  EXPECT_THAT(path, HasSubstr("installation_test"));
}

class InstallationFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    root_ = fs::path(tmp != nullptr ? tmp : "/tmp") / "installation_test";
    fs::remove_all(root_);
    fs::create_directories(root_ / "include");
    fs::create_directories(root_ / "lib");
  }
  void Touch(const std::string& relative) {
    std::ofstream(root_ / relative) << "x";
  }
  Installation Sdk() const { return {root_.string(), "--maca-path"}; }

  fs::path root_;
};

TEST_F(InstallationFilesTest, HeadersPresentOrNamedMissing) {
  absl::Status missing = CheckHeaders(Sdk());
  EXPECT_FALSE(missing.ok());
  EXPECT_THAT(missing.message(), HasSubstr("include/mc_runtime.h"));
  EXPECT_THAT(missing.message(), HasSubstr("(from --maca-path)"));
  Touch("include/mc_runtime.h");
  EXPECT_TRUE(CheckHeaders(Sdk()).ok());
}

TEST_F(InstallationFilesTest, DeviceLibraryPresentOrNamedMissing) {
  Touch("lib/libmcdevice.a");
  absl::Status missing = CheckDeviceLibrary(Sdk());
  EXPECT_FALSE(missing.ok());
  EXPECT_THAT(missing.message(), HasSubstr("lib/mcdevice.version"));
  Touch("lib/mcdevice.version");
  missing = CheckDeviceLibrary(Sdk());
  EXPECT_FALSE(missing.ok());
  EXPECT_THAT(missing.message(), HasSubstr("lib/mcconstant.ld"));
  Touch("lib/mcconstant.ld");
  EXPECT_TRUE(CheckDeviceLibrary(Sdk()).ok());
}

}  // namespace
}  // namespace mxcts::driver
