// Copyright mxcts authors.
//
// Tests of mcrtc's option table: each accepted spelling and what it
// becomes, and a rejected neighbour of each.

#include "reference/rtc/compile_options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mxcts::rtc {
namespace {

std::vector<std::string> Ok(const std::vector<std::string>& options) {
  absl::StatusOr<std::vector<std::string>> argv = TranslateOptions(options);
  EXPECT_TRUE(argv.ok()) << argv.status();
  return argv.ok() ? *argv : std::vector<std::string>{};
}

std::string Error(const std::vector<std::string>& options) {
  absl::StatusOr<std::vector<std::string>> argv = TranslateOptions(options);
  EXPECT_FALSE(argv.ok());
  return argv.ok() ? "" : std::string(argv.status().message());
}

TEST(TranslateOptions, LanguageOptionIsAcceptedInEveryForm) {
  EXPECT_TRUE(Ok({"-x maca"}).empty());
  EXPECT_TRUE(Ok({"-x", "maca"}).empty());
  EXPECT_TRUE(Ok({"-xmaca"}).empty());
  EXPECT_NE(Error({"-x c"}).find("'-x c'"), std::string::npos);
}

TEST(TranslateOptions, MacrosPassThrough) {
  EXPECT_EQ(Ok({"-DN=3", "-D", "M", "--define-macro=K=1", "-UX"}),
            (std::vector<std::string>{"-DN=3", "-DM", "-DK=1", "-UX"}));
  Error({"-D"});
}

TEST(TranslateOptions, IncludeDirectoriesBecomeAbsolute) {
  std::vector<std::string> argv =
      Ok({"-I/abs", "--include-path=rel", "-I", "x"});
  ASSERT_EQ(argv.size(), 3u);
  EXPECT_EQ(argv[0], "-I/abs");
  EXPECT_EQ(argv[1].substr(0, 3), "-I/");
  EXPECT_NE(argv[1].find("/rel"), std::string::npos);
  EXPECT_NE(argv[2].find("/x"), std::string::npos);
  Error({"--include-path="});
}

TEST(TranslateOptions, OnlyCxx17AndCxx20) {
  EXPECT_EQ(Ok({"-std=c++17"}), (std::vector<std::string>{"-std=c++17"}));
  EXPECT_EQ(Ok({"-std=c++20"}), (std::vector<std::string>{"-std=c++20"}));
  EXPECT_EQ(Ok({"--std=gnu++17"}), (std::vector<std::string>{"-std=gnu++17"}));
  EXPECT_NE(Error({"-std=c++11"}).find("c++17"), std::string::npos);
  Error({"-std=c++14"});
  Error({"-std=c99"});
}

TEST(TranslateOptions, OptimizationLevels) {
  EXPECT_EQ(Ok({"-O0", "-O3"}), (std::vector<std::string>{"-O0", "-O3"}));
  Error({"-O4"});
  Error({"-Ofast"});
}

TEST(TranslateOptions, OffloadArchitectures) {
  EXPECT_EQ(Ok({"--offload-arch=xcore1000"}),
            (std::vector<std::string>{"--offload-arch=xcore1000"}));
  Ok({"--offload-arch=native"});
  Error({"--offload-arch=sm_80"});
}

TEST(TranslateOptions, CompatibilityOptionsAreAcceptedAndDropped) {
  EXPECT_TRUE(Ok({"-G", "-lineinfo", "-default-device"}).empty());
}

TEST(TranslateOptions, UnknownAndEmptyOptionsAreRejected) {
  EXPECT_NE(Error({"--frobnicate"}).find("'--frobnicate'"), std::string::npos);
  Error({""});
  Error({"-o", "x"});
}

}  // namespace
}  // namespace mxcts::rtc
