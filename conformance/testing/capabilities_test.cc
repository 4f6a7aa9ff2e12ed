// Copyright mxcts authors.
//
// Tests of the capability requirements: the functions answer from the
// manifest $MXMACA_CAPABILITIES names, and the macros skip with an
// "unsupported: " message, fail, or let the test go on. The macros' skips
// and failures are intercepted (gtest-spi.h), so each case checks what the
// macro reported without this test itself being skipped or failed.
#include "conformance/testing/capabilities.h"

#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "tools/spec/file_io.h"

namespace mxcts::conformance {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using Status = CapabilityRequirement::Status;

constexpr char kManifest[] =
    "device_count 2\n"
    "peer_access yes\n"
    "ipc no\n"
    "matrix_shapes 16x16x16:half:float\n";

class CapabilitiesTest : public ::testing::Test {
 protected:
  // Writes `text` as a manifest and points $MXMACA_CAPABILITIES at it.
  void UseManifest(const std::string& text) {
    const char* tmp = std::getenv("TEST_TMPDIR");
    path_ = std::string(tmp != nullptr ? tmp : "/tmp") + "/capabilities.txt";
    ASSERT_TRUE(spec::WriteFileAtomically(path_, text).ok());
    ASSERT_EQ(setenv(kCapabilitiesVariable, path_.c_str(), 1), 0);
  }
  void SetUp() override { UseManifest(kManifest); }
  void TearDown() override { unsetenv(kCapabilitiesVariable); }

  std::string path_;
};

TEST_F(CapabilitiesTest, ClaimedFlagIsMet) {
  CapabilityRequirement requirement = RequireCapability("peer_access");
  EXPECT_EQ(requirement.status, Status::kMet);
  EXPECT_EQ(requirement.message, "");
}

TEST_F(CapabilitiesTest, FlagSetToNoIsUnsupported) {
  CapabilityRequirement requirement = RequireCapability("ipc");
  EXPECT_EQ(requirement.status, Status::kUnsupported);
  EXPECT_THAT(requirement.message, StartsWith("unsupported: ipc "));
  EXPECT_THAT(requirement.message, HasSubstr(path_));
}

TEST_F(CapabilitiesTest, AbsentFeatureIsUnsupported) {
  EXPECT_EQ(RequireCapability("dynamic_parallelism").status,
            Status::kUnsupported);
}

TEST_F(CapabilitiesTest, CountAtLeastComparesWithTheLimit) {
  EXPECT_EQ(RequireCapabilityAtLeast("device_count", 2).status, Status::kMet);
  CapabilityRequirement three = RequireCapabilityAtLeast("device_count", 3);
  EXPECT_EQ(three.status, Status::kUnsupported);
  EXPECT_THAT(three.message,
              StartsWith("unsupported: device_count is 2, the test needs at "
                         "least 3"));
}

TEST_F(CapabilitiesTest, ClaimedCountReadsTheValue) {
  std::string error = "stale";
  EXPECT_EQ(ClaimedCount("device_count", &error), 2);
  EXPECT_EQ(error, "");
  // Control: an omitted count, a flag and an unknown name have no value.
  EXPECT_EQ(ClaimedCount("wave_size", &error), std::nullopt);
  EXPECT_THAT(error, HasSubstr("wave_size is not in " + path_));
  EXPECT_EQ(ClaimedCount("peer_access", &error), std::nullopt);
  EXPECT_THAT(error, HasSubstr("'peer_access' is a flag"));
  EXPECT_EQ(ClaimedCount("wave_sise"), std::nullopt);
}

TEST_F(CapabilitiesTest, ListValueMustBeListed) {
  EXPECT_EQ(
      RequireCapabilityValue("matrix_shapes", "16x16x16:half:float").status,
      Status::kMet);
  EXPECT_EQ(
      RequireCapabilityValue("matrix_shapes", "32x8x16:half:float").status,
      Status::kUnsupported);
}

TEST_F(CapabilitiesTest, UnknownFeatureIsAnError) {
  CapabilityRequirement requirement = RequireCapability("peer_acess");
  EXPECT_EQ(requirement.status, Status::kError);
  EXPECT_THAT(requirement.message,
              HasSubstr("unknown capability 'peer_acess'"));
}

TEST_F(CapabilitiesTest, WrongKindForTheMacroIsAnError) {
  CapabilityRequirement requirement =
      RequireCapabilityAtLeast("peer_access", 1);
  EXPECT_EQ(requirement.status, Status::kError);
  EXPECT_THAT(requirement.message,
              HasSubstr("needs a count, and 'peer_access' is a flag"));
  EXPECT_EQ(RequireCapabilityValue("device_count", "2").status, Status::kError);
}

TEST_F(CapabilitiesTest, UnsetVariableIsAnErrorNotUnsupported) {
  unsetenv(kCapabilitiesVariable);
  CapabilityRequirement requirement = RequireCapability("peer_access");
  EXPECT_EQ(requirement.status, Status::kError);
  EXPECT_THAT(requirement.message, HasSubstr("MXMACA_CAPABILITIES is not set"));
}

TEST_F(CapabilitiesTest, MalformedManifestIsAnError) {
  UseManifest("peer_access maybe\n");
  CapabilityRequirement requirement = RequireCapability("peer_access");
  EXPECT_EQ(requirement.status, Status::kError);
  EXPECT_THAT(requirement.message, HasSubstr(":1: feature 'peer_access'"));
}

TEST_F(CapabilitiesTest, ManifestIsReadAtEachRequirement) {
  EXPECT_EQ(RequireCapability("ipc").status, Status::kUnsupported);
  UseManifest("ipc yes\n");
  EXPECT_EQ(RequireCapability("ipc").status, Status::kMet);
}

// What a macro reported, intercepted; `went_on` is whether the code after
// the macro ran.
struct MacroReport {
  ::testing::TestPartResultArray results;
  bool went_on = false;
};

void RequirePeerAccess(bool* went_on) {
  MX_REQUIRE_CAPABILITY("peer_access");
  *went_on = true;
}
void RequireIpc(bool* went_on) {
  MX_REQUIRE_CAPABILITY("ipc");
  *went_on = true;
}
void RequireMisspelled(bool* went_on) {
  MX_REQUIRE_CAPABILITY("peer_acess");
  *went_on = true;
}
void RequireThreeDevices(bool* went_on) {
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 3);
  *went_on = true;
}
void RequireHalfShape(bool* went_on) {
  MX_REQUIRE_CAPABILITY_VALUE("matrix_shapes", "16x16x16:half:float");
  *went_on = true;
}

template <typename Body>
void Intercept(Body body, MacroReport* report) {
  ::testing::ScopedFakeTestPartResultReporter reporter(
      ::testing::ScopedFakeTestPartResultReporter::
          INTERCEPT_ONLY_CURRENT_THREAD,
      &report->results);
  body(&report->went_on);
}

TEST_F(CapabilitiesTest, MacroLetsAClaimedFeatureGoOn) {
  MacroReport report;
  Intercept(RequirePeerAccess, &report);
  EXPECT_EQ(report.results.size(), 0);
  EXPECT_TRUE(report.went_on);
  MacroReport shape;
  Intercept(RequireHalfShape, &shape);
  EXPECT_EQ(shape.results.size(), 0);
  EXPECT_TRUE(shape.went_on);
}

TEST_F(CapabilitiesTest, MacroSkipsAnUnclaimedFeatureAsUnsupported) {
  MacroReport report;
  Intercept(RequireIpc, &report);
  ASSERT_EQ(report.results.size(), 1);
  const ::testing::TestPartResult& result = report.results.GetTestPartResult(0);
  EXPECT_TRUE(result.skipped());
  EXPECT_THAT(result.message(), StartsWith("unsupported: ipc"));
  EXPECT_FALSE(report.went_on);
}

TEST_F(CapabilitiesTest, MacroSkipsBelowTheCount) {
  MacroReport report;
  Intercept(RequireThreeDevices, &report);
  ASSERT_EQ(report.results.size(), 1);
  EXPECT_TRUE(report.results.GetTestPartResult(0).skipped());
  EXPECT_FALSE(report.went_on);
}

TEST_F(CapabilitiesTest, MacroFailsOnAnUnknownFeature) {
  MacroReport report;
  Intercept(RequireMisspelled, &report);
  ASSERT_EQ(report.results.size(), 1);
  const ::testing::TestPartResult& result = report.results.GetTestPartResult(0);
  EXPECT_TRUE(result.fatally_failed());
  EXPECT_THAT(result.message(), HasSubstr("unknown capability"));
  EXPECT_FALSE(report.went_on);
}

}  // namespace
}  // namespace mxcts::conformance
