// Copyright mxcts authors.
//
// Runs the fuzz target (translator_fuzzer.cc) on every seed of
// fuzz_corpus/, so that the seeds and the target's properties stay valid
// in ordinary test runs, without libFuzzer. A seed that breaks a property
// aborts the test.

#include <dirent.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

TEST(FuzzCorpusTest, EverySeedKeepsTheProperties) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  ASSERT_NE(srcdir, nullptr);
  std::string dir = std::string(srcdir) + "/" +
                    (workspace != nullptr ? workspace : "mxcts") +
                    "/reference/compiler/translator/fuzz_corpus";
  DIR* handle = opendir(dir.c_str());
  ASSERT_NE(handle, nullptr) << dir;
  std::vector<std::string> seeds;
  while (dirent* entry = readdir(handle)) {
    if (entry->d_name[0] != '.') seeds.push_back(dir + "/" + entry->d_name);
  }
  closedir(handle);
  ASSERT_GE(seeds.size(), 3u);
  for (const std::string& seed : seeds) {
    std::ifstream in(seed, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    std::string data = bytes.str();
    ASSERT_FALSE(data.empty()) << seed;
    EXPECT_EQ(LLVMFuzzerTestOneInput(
                  reinterpret_cast<const uint8_t*>(data.data()), data.size()),
              0)
        << seed;
  }
}

}  // namespace
