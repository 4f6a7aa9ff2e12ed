// Copyright mxcts authors.
//
// Tests of claimed.h: the answers a manifest gives, and the fallback where
// it gives none (a failure of the calling test, intercepted here with
// gtest-spi.h, and the reference's answer).
#include "conformance/testing/claimed.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "conformance/testing/capabilities.h"
#include "tools/spec/file_io.h"

namespace mxcts::conformance {
namespace {

class ClaimedTest : public ::testing::Test {
 protected:
  // Writes `text` as a manifest and points $MXMACA_CAPABILITIES at it.
  void UseManifest(const std::string& text) {
    const char* tmp = std::getenv("TEST_TMPDIR");
    const std::string path =
        std::string(tmp != nullptr ? tmp : "/tmp") + "/claimed.txt";
    ASSERT_TRUE(spec::WriteFileAtomically(path, text).ok());
    ASSERT_EQ(setenv(kCapabilitiesVariable, path.c_str(), 1), 0);
  }
  void TearDown() override { unsetenv(kCapabilitiesVariable); }
};

TEST_F(ClaimedTest, FlagsAsTheManifestSays) {
  UseManifest("peer_access yes\nipc no\ndevice_count 2\n");
  EXPECT_TRUE(Claimed("peer_access"));
  EXPECT_TRUE(Claimed("device_count"));
  // Control: set to no, and omitted.
  EXPECT_FALSE(Claimed("ipc"));
  EXPECT_FALSE(Claimed("dynamic_parallelism"));
}

TEST_F(ClaimedTest, WaveSizeAsTheManifestSays) {
  UseManifest("wave_size 32\n");
  EXPECT_EQ(ClaimedWaveSize(), 32);
}

TEST_F(ClaimedTest, OmittedWaveSizeIsMxmacas) {
  UseManifest("peer_access yes\n");
  EXPECT_EQ(ClaimedWaveSize(), 64);
}

TEST_F(ClaimedTest, NoManifestFailsAndAnswersAsTheReference) {
  unsetenv(kCapabilitiesVariable);
  bool claimed = false;
  EXPECT_NONFATAL_FAILURE(claimed = Claimed("ipc"), kCapabilitiesVariable);
  EXPECT_TRUE(claimed);
  int lanes = 0;
  EXPECT_NONFATAL_FAILURE(lanes = ClaimedWaveSize(), kCapabilitiesVariable);
  EXPECT_EQ(lanes, 64);
}

TEST_F(ClaimedTest, UnknownFeatureFailsAndIsClaimed) {
  UseManifest("peer_access yes\n");
  bool claimed = false;
  EXPECT_NONFATAL_FAILURE(claimed = Claimed("no_such_feature"),
                          "no_such_feature");
  EXPECT_TRUE(claimed);
}

}  // namespace
}  // namespace mxcts::conformance
