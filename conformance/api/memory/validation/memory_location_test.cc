// Copyright mxcts authors.
//
// Conformance: the errors of the mcMemLocation forms of prefetching and
// advice (docs/spec/api-memory.md, "Managed memory"): nonzero flags, a
// location that names neither a device nor the host, a host NUMA node the
// host does not have, and a device location whose id is no device. After
// each refused call, what mcMemRangeGetAttribute reports is unchanged; the
// same call with the location fixed succeeds.

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

constexpr size_t kBytes = 8192;

class LocationErrors : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("managed_memory");
    ASSERT_EQ(mcMallocManaged(&managed_, kBytes), mcSuccess);
    // A known state: prefetched to device 0, preferred on device 0.
    ASSERT_EQ(mcMemPrefetchAsync(managed_, kBytes, 0, 0), mcSuccess);
    ASSERT_EQ(mcMemAdvise(managed_, kBytes, mcMemAdviseSetPreferredLocation, 0),
              mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    mcFree(managed_);
    mcGetLastError();
  }
  int Attribute(mcMemRangeAttribute attribute) {
    int value = 12345;
    EXPECT_EQ(mcMemRangeGetAttribute(&value, sizeof(value), attribute, managed_,
                                     kBytes),
              mcSuccess);
    return value;
  }
  int LastPrefetch() {
    return Attribute(mcMemRangeAttributeLastPrefetchLocation);
  }
  int Preferred() { return Attribute(mcMemRangeAttributePreferredLocation); }
  void* managed_ = nullptr;
};

constexpr mcMemLocation kHost = {mcMemLocationTypeHost, 0};

TEST_F(LocationErrors, PrefetchWithFlagsIsInvalidValue) {
  MX_SPEC("api.memory.prefetch.location-flags-must-be-zero");
  for (unsigned flags : {1u, 2u, 0x80000000u}) {
    EXPECT_EQ(mcMemPrefetchAsync_v2(managed_, kBytes, kHost, flags, 0),
              mcErrorInvalidValue)
        << flags;
    EXPECT_EQ(mcMemPrefetchAsync(managed_, kBytes, kHost, flags),
              mcErrorInvalidValue)
        << flags;
    EXPECT_EQ(LastPrefetch(), 0) << "a refused prefetch was recorded";
  }
  // Control: flags 0.
  EXPECT_EQ(mcMemPrefetchAsync(managed_, kBytes, kHost, 0), mcSuccess);
  EXPECT_EQ(LastPrefetch(), mcCpuDeviceId);
}

struct BadLocation {
  const char* name;
  int type;
  int id;
};

class BadLocationType : public LocationErrors,
                        public testing::WithParamInterface<BadLocation> {
 protected:
  mcMemLocation Location() const {
    return {static_cast<mcMemLocationType>(GetParam().type), GetParam().id};
  }
};

TEST_P(BadLocationType, PrefetchIsInvalidValueAndRecordsNothing) {
  MX_SPEC("api.memory.location.invalid-location-is-invalid-value",
          "api.memory.location.reference-host-numa");
  EXPECT_EQ(mcMemPrefetchAsync_v2(managed_, kBytes, Location(), 0, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMemPrefetchAsync(managed_, kBytes, Location(), 0),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_EQ(LastPrefetch(), 0);
  // Control: the host.
  EXPECT_EQ(mcMemPrefetchAsync_v2(managed_, kBytes, kHost, 0, 0), mcSuccess);
  EXPECT_EQ(LastPrefetch(), mcCpuDeviceId);
}

TEST_P(BadLocationType, AdviceIsInvalidValueAndRecordsNothing) {
  MX_SPEC("api.memory.location.invalid-location-is-invalid-value",
          "api.memory.location.reference-host-numa");
  for (mcMemoryAdvise advice :
       {mcMemAdviseSetPreferredLocation, mcMemAdviseSetAccessedBy,
        mcMemAdviseUnsetAccessedBy}) {
    EXPECT_EQ(mcMemAdvise_v2(managed_, kBytes, advice, Location()),
              mcErrorInvalidValue)
        << advice;
    EXPECT_EQ(mcMemAdvise(managed_, kBytes, advice, Location()),
              mcErrorInvalidValue)
        << advice;
  }
  EXPECT_EQ(Preferred(), 0);
  // Control: the host.
  EXPECT_EQ(
      mcMemAdvise(managed_, kBytes, mcMemAdviseSetPreferredLocation, kHost),
      mcSuccess);
  EXPECT_EQ(Preferred(), mcCpuDeviceId);
}

INSTANTIATE_TEST_SUITE_P(
    Locations, BadLocationType,
    testing::Values(BadLocation{"Invalid", mcMemLocationTypeInvalid, 0},
                    BadLocation{"NoSuchType", 5, 0},
                    BadLocation{"NegativeType", -1, 0},
                    BadLocation{"HostNumaNode1", mcMemLocationTypeHostNuma, 1},
                    BadLocation{"HostNumaNodeMinus1", mcMemLocationTypeHostNuma,
                                -1}),
    [](const testing::TestParamInfo<BadLocation>& info) {
      return std::string(info.param.name);
    });

class BadDeviceId : public LocationErrors,
                    public testing::WithParamInterface<int> {
 protected:
  mcMemLocation Location() const {
    int count = 0;
    mcGetDeviceCount(&count);
    return {mcMemLocationTypeDevice, GetParam() == -100 ? count : GetParam()};
  }
};

TEST_P(BadDeviceId, IsInvalidDevice) {
  MX_SPEC("api.memory.location.invalid-location-is-invalid-value",
          "api.memory.prefetch.invalid-device",
          "api.memory.advise.invalid-device");
  EXPECT_EQ(mcMemPrefetchAsync(managed_, kBytes, Location(), 0),
            mcErrorInvalidDevice);
  EXPECT_EQ(mcMemAdvise_v2(managed_, kBytes, mcMemAdviseSetPreferredLocation,
                           Location()),
            mcErrorInvalidDevice);
  EXPECT_EQ(LastPrefetch(), 0);
  EXPECT_EQ(Preferred(), 0);
  // Control: device 0 as a location.
  const mcMemLocation device0 = {mcMemLocationTypeDevice, 0};
  EXPECT_EQ(mcMemPrefetchAsync(managed_, kBytes, device0, 0), mcSuccess);
  EXPECT_EQ(mcMemAdvise(managed_, kBytes, mcMemAdviseSetAccessedBy, device0),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Ids, BadDeviceId, testing::Values(-1, -2, -100),
                         [](const testing::TestParamInfo<int>& info) {
                           return info.param == -100
                                      ? std::string("DeviceCount")
                                      : "Minus" + std::to_string(-info.param);
                         });

}  // namespace
