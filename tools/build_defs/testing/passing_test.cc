// Copyright mxcts authors.
//
// An mxmaca_test on the fake backend, checking what the rule promises: the
// backend's driver compiles every source (with its SDK found through
// --maca-path, the deps' include paths and defines, the rule's defines and
// copts), the objects link with the backend's runtime and the deps, and the
// test runs with the backend's capability manifest and environment.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <string>

#include "conformance/testing/capabilities.h"
#include "fake_dep.h"  // through the dependency's `includes`
#include "fake_sdk.h"  // through the driver's --maca-path
#include "tools/build_defs/testing/fake_runtime.h"
#include "tools/build_defs/testing/passing_helper.h"

#ifndef __FAKE_MXCC__
#error "compiled by something other than the fake backend's driver"
#endif

namespace {

bool IsFile(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

std::string Environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

TEST(FakeBackend, SdkHeaderComesThroughMacaPath) {
  EXPECT_EQ(FAKE_SDK_VERSION, 7);
}

TEST(FakeBackend, RuleDefinesAndCoptsReachTheDriver) {
  EXPECT_EQ(FAKE_RULE_DEFINE, 3);
  EXPECT_EQ(FAKE_RULE_COPT, 4);
}

TEST(FakeBackend, DependencyDefinesReachTheDriver) {
  EXPECT_EQ(FAKE_DEP_DEFINE, 5);
}

TEST(FakeBackend, LinksTheRuntimeTheDependencyAndEverySource) {
  EXPECT_EQ(mxcts::fake_backend::DeviceCount(), 1);
  EXPECT_EQ(FakeDependencyAnswer(), 42);
  EXPECT_EQ(HelperFromSecondSource(), 11);
}

TEST(FakeBackend, ManifestIsTheBackends) {
  const std::string manifest = Environment("MXMACA_CAPABILITIES");
  ASSERT_FALSE(manifest.empty());
  EXPECT_EQ(manifest.front(), '/');
  EXPECT_TRUE(IsFile(manifest)) << manifest;
  EXPECT_NE(manifest.find("fake_capabilities.txt"), std::string::npos);
}

TEST(FakeBackend, ClaimedCapabilityLetsTheTestRun) {
  MX_REQUIRE_CAPABILITY("printf");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 1);
  SUCCEED();
}

// Ends skipped as unsupported: the fake manifest says "ipc no". The runner
// does not count that as a failure; the XML shows the case unsupported.
TEST(FakeBackend, UnclaimedCapabilityIsUnsupported) {
  MX_REQUIRE_CAPABILITY("ipc");
  ADD_FAILURE() << "ran although the fake backend does not claim ipc";
}

TEST(FakeBackend, TestEnvironmentNamesTheSdkInTheRunfiles) {
  const std::string root = Environment("FAKE_SDK_ROOT");
  ASSERT_FALSE(root.empty());
  EXPECT_TRUE(IsFile(root + "/include/fake_sdk.h")) << root;
  EXPECT_TRUE(IsFile(root + "/mxgpu_llvm/bin/mxcc")) << root;
  EXPECT_FALSE(IsFile(root + "/include/no_such_header.h"));  // control
}

TEST(FakeBackend, DataReachesTheTest) {
  EXPECT_TRUE(IsFile("tools/build_defs/testing/fake_data.txt"));
}

}  // namespace
