// Copyright mxcts authors.
//
// Tests of MXCTS_DEVICE_CONFIG: entries for all devices and for one,
// later entries winning, every kind of refused entry (each ignored alone,
// with a warning), devices whose values contradict each other, and the
// values tied to others.

#include "reference/runtime/devices/device_profile.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "reference/runtime/devices/device_config.h"

namespace mxcts::runtime {
namespace {

TEST(DeviceProfiles, NoConfigurationIsTheDefaultProfile) {
  for (const char* text : {static_cast<const char*>(nullptr), "", " ; ;"}) {
    DeviceProfiles p = BuildDeviceProfiles(text, 2);
    ASSERT_EQ(p.devices.size(), 2u);
    EXPECT_TRUE(p.warnings.empty());
    for (int i = 0; i < 2; ++i) {
      mcDeviceProp_t expected = config::DefaultDeviceProperties(i);
      EXPECT_EQ(std::memcmp(&p.devices[i], &expected, sizeof(expected)), 0);
    }
  }
}

TEST(DeviceProfiles, UnprefixedEntriesApplyToEveryDevice) {
  DeviceProfiles p =
      BuildDeviceProfiles("multiProcessorCount=8; clockRate = 0x10", 3);
  EXPECT_TRUE(p.warnings.empty());
  for (const mcDeviceProp_t& device : p.devices) {
    EXPECT_EQ(device.multiProcessorCount, 8);
    EXPECT_EQ(device.clockRate, 16);
  }
}

TEST(DeviceProfiles, PrefixedEntriesApplyToOneDeviceAndLaterEntriesWin) {
  DeviceProfiles p = BuildDeviceProfiles(
      "major=9;1:major=11;1:name=MetaX C600;0:pciBusID=0x40;major=8", 2);
  EXPECT_TRUE(p.warnings.empty());
  EXPECT_EQ(p.devices[0].major, 8);
  EXPECT_EQ(p.devices[1].major, 8);
  EXPECT_STREQ(p.devices[1].name, "MetaX C600");
  EXPECT_STREQ(p.devices[0].name, "MetaX C500");
  EXPECT_EQ(p.devices[0].pciBusID, 0x40);
  EXPECT_EQ(p.devices[1].pciBusID, config::kPciBusIdBase + 1);
}

TEST(DeviceProfiles, TriplesTakeThreeValues) {
  DeviceProfiles p = BuildDeviceProfiles(
      "maxGridSize=2147483647,65535,65535;maxThreadsDim=1024,1024,64", 1);
  EXPECT_TRUE(p.warnings.empty());
  EXPECT_EQ(p.devices[0].maxGridSize[1], 65535);
  EXPECT_EQ(p.devices[0].maxThreadsDim[2], 64);
}

struct Refused {
  const char* entry;
  const char* reason;  // a word of the warning
};

class RefusedEntry : public testing::TestWithParam<Refused> {};

TEST_P(RefusedEntry, IsIgnoredAloneWithAWarning) {
  std::string text = std::string(GetParam().entry) + ";minor=5";
  DeviceProfiles p = BuildDeviceProfiles(text.c_str(), 2);
  ASSERT_EQ(p.warnings.size(), 1u) << text;
  EXPECT_NE(p.warnings[0].find(GetParam().reason), std::string::npos)
      << p.warnings[0];
  // The other entry applied; the refused one changed nothing.
  mcDeviceProp_t expected = config::DefaultDeviceProperties(1);
  expected.minor = 5;
  EXPECT_EQ(std::memcmp(&p.devices[1], &expected, sizeof(expected)), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Entries, RefusedEntry,
    testing::Values(Refused{"multiProcessorCount", "no '='"},
                    Refused{"warpSize=32", "not a field"},
                    Refused{"computeMode=4", "must be from"},
                    Refused{"2:major=9", "no system device"},
                    Refused{"x:major=9", "no system device"},
                    Refused{"major=ten", "must be from"},
                    Refused{"major=-1", "must be from"},
                    Refused{"major=0", "must be from"},
                    Refused{"maxThreadsPerBlock=2048", "must be from"},
                    Refused{"sharedMemPerBlock=131072", "must be from"},
                    Refused{"pciBusID=0x100", "must be from"},
                    Refused{"pageableMemoryAccess=1", "not a field"},
                    Refused{"cooperativeLaunch=2", "must be from"},
                    Refused{"maxGridSize=1,2", "takes 3"},
                    Refused{"name=", "characters"}));

TEST(DeviceProfiles, FlagsCanBeTurnedOff) {
  DeviceProfiles p =
      BuildDeviceProfiles("0:managedMemory=0;0:concurrentManagedAccess=0", 2);
  EXPECT_TRUE(p.warnings.empty());
  EXPECT_EQ(p.devices[0].managedMemory, 0);
  EXPECT_EQ(p.devices[1].managedMemory, 1);
}

TEST(DeviceProfiles, ContradictoryDeviceKeepsTheDefault) {
  DeviceProfiles p =
      BuildDeviceProfiles("1:sharedMemPerMultiprocessor=32768;0:minor=1", 2);
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("device 1 keeps the default"),
            std::string::npos);
  EXPECT_EQ(p.devices[1].sharedMemPerMultiprocessor,
            config::kSharedMemPerMultiprocessor);
  EXPECT_EQ(p.devices[0].minor, 1);  // the other device is changed
  EXPECT_FALSE(BuildDeviceProfiles("managedMemory=0", 1).warnings.empty());
  EXPECT_FALSE(BuildDeviceProfiles("maxThreadsPerMultiProcessor=512", 1)
                   .warnings.empty());
  EXPECT_FALSE(
      BuildDeviceProfiles("maxThreadsPerBlock=100", 1).warnings.empty());
}

TEST(DeviceProfiles, TiedValuesFollow) {
  DeviceProfiles p =
      BuildDeviceProfiles("maxThreadsPerBlock=256;sharedMemPerBlock=16384", 1);
  EXPECT_TRUE(p.warnings.empty());
  EXPECT_EQ(p.devices[0].maxThreadsDim[0], 256);
  EXPECT_EQ(p.devices[0].maxThreadsDim[2], 256);
  EXPECT_EQ(p.devices[0].sharedMemPerBlockOptin, 16384u);
}

TEST(DeviceProfiles, TheProcessProfileIsTheDefaultWithoutTheVariable) {
  ASSERT_EQ(std::getenv("MXCTS_DEVICE_CONFIG"), nullptr);
  mcDeviceProp_t expected = config::DefaultDeviceProperties(3);
  EXPECT_EQ(
      std::memcmp(&SystemDeviceProperties(3), &expected, sizeof(expected)), 0);
}

}  // namespace
}  // namespace mxcts::runtime
