// Copyright mxcts authors.
//
// Tests of the capability manifest parser: each kind's valid values are
// claimed as documented (with the unclaimed value beside each as control),
// and each malformed line is an error naming file and line.
#include "conformance/testing/capability_manifest.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace mxcts::conformance {
namespace {

using ::testing::HasSubstr;

CapabilityManifest ParseOrDie(const std::string& text) {
  absl::StatusOr<CapabilityManifest> manifest =
      CapabilityManifest::Parse(text, "caps.txt");
  EXPECT_TRUE(manifest.ok()) << manifest.status();
  return manifest.ok() ? *manifest : CapabilityManifest();
}

std::string ParseError(const std::string& text) {
  absl::StatusOr<CapabilityManifest> manifest =
      CapabilityManifest::Parse(text, "caps.txt");
  EXPECT_FALSE(manifest.ok()) << "accepted:\n" << text;
  return manifest.ok() ? "" : std::string(manifest.status().message());
}

TEST(CapabilityManifest, FlagsAreClaimedOnlyWhenYes) {
  CapabilityManifest manifest = ParseOrDie("peer_access yes\nipc no\n");
  EXPECT_TRUE(manifest.Claims("peer_access"));
  EXPECT_FALSE(manifest.Claims("ipc"));             // control: "no"
  EXPECT_FALSE(manifest.Claims("managed_memory"));  // absent
}

TEST(CapabilityManifest, CountsAreClaimedAboveZero) {
  CapabilityManifest two = ParseOrDie("device_count 2\n");
  EXPECT_TRUE(two.Claims("device_count"));
  EXPECT_EQ(two.Count("device_count"), 2);
  CapabilityManifest zero = ParseOrDie("device_count 0\n");
  EXPECT_FALSE(zero.Claims("device_count"));
  EXPECT_EQ(zero.Count("device_count"), 0);
  EXPECT_EQ(ParseOrDie("").Count("device_count"), std::nullopt);
  EXPECT_EQ(two.Count("peer_access"), std::nullopt);  // not a count
}

TEST(CapabilityManifest, ListsHoldTheirWords) {
  CapabilityManifest manifest = ParseOrDie(
      "matrix_shapes 16x16x16:half:float\t16x16x16:bfloat16:float\n");
  EXPECT_TRUE(manifest.Claims("matrix_shapes"));
  EXPECT_TRUE(manifest.ListHolds("matrix_shapes", "16x16x16:bfloat16:float"));
  EXPECT_FALSE(manifest.ListHolds("matrix_shapes", "32x8x16:half:float"));
  ASSERT_NE(manifest.Words("matrix_shapes"), nullptr);
  EXPECT_EQ(manifest.Words("matrix_shapes")->size(), 2u);
}

TEST(CapabilityManifest, ListHoldsIsOnlyForLists) {
  CapabilityManifest manifest = ParseOrDie("printf yes\n");
  EXPECT_FALSE(manifest.ListHolds("printf", "yes"));
}

TEST(CapabilityManifest, CommentsAndBlankLinesAreIgnored) {
  CapabilityManifest manifest = ParseOrDie(
      "# The fake backend.\n"
      "\n"
      "   printf yes   # device printf\n"
      "graphs no#none\r\n");
  EXPECT_TRUE(manifest.Claims("printf"));
  EXPECT_FALSE(manifest.Claims("graphs"));
  EXPECT_NE(manifest.Words("graphs"), nullptr);
}

TEST(CapabilityManifest, UnknownFeatureIsAnErrorNamingTheLine) {
  std::string error = ParseError("printf yes\npeer_acess yes\n");
  EXPECT_THAT(error, HasSubstr("caps.txt:2: unknown feature 'peer_acess'"));
  EXPECT_THAT(error, HasSubstr("peer_access"));  // the known list
}

TEST(CapabilityManifest, DuplicateFeatureIsAnError) {
  EXPECT_THAT(ParseError("ipc yes\nipc no\n"),
              HasSubstr("caps.txt:2: feature 'ipc' is given twice"));
}

TEST(CapabilityManifest, MissingValueIsAnError) {
  EXPECT_THAT(ParseError("ipc   # forgot\n"),
              HasSubstr("caps.txt:1: feature 'ipc' has no value"));
}

TEST(CapabilityManifest, FlagMustBeYesOrNo) {
  EXPECT_THAT(
      ParseError("ipc true\n"),
      HasSubstr("caps.txt:1: feature 'ipc' is a flag: write yes or no"));
}

TEST(CapabilityManifest, CountMustBeANumberInRange) {
  EXPECT_THAT(ParseError("device_count two\n"),
              HasSubstr("caps.txt:1: feature 'device_count' is a count"));
  EXPECT_THAT(ParseError("device_count -1\n"), HasSubstr("is a count"));
  EXPECT_THAT(ParseError("device_count +1\n"), HasSubstr("is a count"));
  EXPECT_THAT(ParseError("device_count 2147483648\n"), HasSubstr("is a count"));
  ParseOrDie("device_count 2147483647\n");  // control: the largest
}

TEST(CapabilityManifest, FlagTakesOneWord) {
  EXPECT_THAT(ParseError("ipc yes no\n"), HasSubstr("takes one value, not 2"));
}

TEST(CapabilityManifest, ReadNamesAMissingFile) {
  absl::StatusOr<CapabilityManifest> manifest =
      CapabilityManifest::Read("/nonexistent/capabilities.txt");
  ASSERT_FALSE(manifest.ok());
  EXPECT_THAT(std::string(manifest.status().message()),
              HasSubstr("/nonexistent/capabilities.txt"));
}

TEST(KnownCapabilities, HaveUniqueNamesAndMeanings) {
  std::set<std::string_view> names;
  for (const KnownCapability& known : KnownCapabilities()) {
    EXPECT_TRUE(names.insert(known.name).second) << known.name;
    EXPECT_FALSE(known.meaning.empty()) << known.name;
    EXPECT_EQ(FindKnownCapability(known.name), &known);
  }
  EXPECT_EQ(FindKnownCapability("no_such_feature"), nullptr);
  for (const char* required :
       {"device_count", "managed_memory", "peer_access", "dynamic_parallelism",
        "ipc", "runtime_compilation", "cooperative_launch", "matrix_shapes",
        "printf"}) {
    EXPECT_NE(FindKnownCapability(required), nullptr) << required;
  }
}

}  // namespace
}  // namespace mxcts::conformance
