// Copyright mxcts authors.
//
// Conformance: the mcMemLocation forms of prefetching and advice
// (docs/spec/api-memory.md, "Managed memory"): CUDA 13's spellings
// (mcMemPrefetchAsync and mcMemAdvise taking an mcMemLocation, C++) and
// CUDA 12's (mcMemPrefetchAsync_v2, mcMemAdvise_v2) do what the ordinal
// forms do for the device or host the location names, and the ordinal
// forms keep working beside them.

#include <mc_runtime.h>

#include <string>
#include <tuple>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace {

constexpr int kCount = 2048;

__global__ void AddIndex(int* values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] += i;
}

TEST(MemLocation, TypesHaveCudasValuesAndFields) {
  MX_SPEC("api.memory.location.types");
  EXPECT_EQ(mcMemLocationTypeInvalid, 0);
  EXPECT_EQ(mcMemLocationTypeDevice, 1);
  EXPECT_EQ(mcMemLocationTypeHost, 2);
  EXPECT_EQ(mcMemLocationTypeHostNuma, 3);
  EXPECT_EQ(mcMemLocationTypeHostNumaCurrent, 4);
  mcMemLocation location = {mcMemLocationTypeDevice, 1};
  EXPECT_EQ(location.type, mcMemLocationTypeDevice);
  EXPECT_EQ(location.id, 1);
  location.type = mcMemLocationTypeHost;  // as programs write it
  location.id = 0;
  EXPECT_EQ(location.type, mcMemLocationTypeHost);
}

// One location and the ordinal it stands for.
struct LocationCase {
  const char* name;
  mcMemLocationType type;
  int id;
  int ordinal;  // a device, or mcCpuDeviceId
};

const std::vector<LocationCase>& Locations() {
  static const std::vector<LocationCase> kLocations = {
      {"Device0", mcMemLocationTypeDevice, 0, 0},
      {"Device1", mcMemLocationTypeDevice, 1, 1},
      {"Host", mcMemLocationTypeHost, 0, mcCpuDeviceId},
      {"HostIgnoresId", mcMemLocationTypeHost, 77, mcCpuDeviceId},
      {"HostNuma0", mcMemLocationTypeHostNuma, 0, mcCpuDeviceId},
      {"HostNumaCurrent", mcMemLocationTypeHostNumaCurrent, 0, mcCpuDeviceId},
  };
  return kLocations;
}

enum class Spelling { kCuda13Overload, kV2 };

using Case = std::tuple<LocationCase, Spelling>;

std::string CaseName(const testing::TestParamInfo<Case>& info) {
  return std::string(std::get<0>(info.param).name) +
         (std::get<1>(info.param) == Spelling::kV2 ? "_V2" : "_Overload");
}

class LocationForm : public testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("managed_memory");
    if (location().ordinal > 0) {
      MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", location().ordinal + 1);
    }
  }
  const LocationCase& location() const { return std::get<0>(GetParam()); }
  mcMemLocation Location() const { return {location().type, location().id}; }
  mcError_t Prefetch(const void* p, size_t n, mcStream_t stream) const {
    return std::get<1>(GetParam()) == Spelling::kV2
               ? mcMemPrefetchAsync_v2(p, n, Location(), 0, stream)
               : mcMemPrefetchAsync(p, n, Location(), 0, stream);
  }
  mcError_t Advise(const void* p, size_t n, mcMemoryAdvise advice) const {
    return std::get<1>(GetParam()) == Spelling::kV2
               ? mcMemAdvise_v2(p, n, advice, Location())
               : mcMemAdvise(p, n, advice, Location());
  }
};

int RangeAttribute(mcMemRangeAttribute attribute, const void* p, size_t n) {
  int value = 12345;
  EXPECT_EQ(mcMemRangeGetAttribute(&value, sizeof(value), attribute, p, n),
            mcSuccess);
  return value;
}

TEST_P(LocationForm, PrefetchIsTheOrdinalFormsPrefetch) {
  MX_SPEC("api.memory.prefetch.location-form",
          "api.memory.prefetch.stream-ordered",
          "api.memory.location.reference-host-numa");
  int* values = nullptr;
  ASSERT_EQ(mcMallocManaged(&values, kCount * sizeof(int)), mcSuccess);
  for (int i = 0; i < kCount; ++i) values[i] = 3 * i;
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  AddIndex<<<kCount / 256, 256, 0, stream>>>(values, kCount);
  ASSERT_EQ(Prefetch(values, kCount * sizeof(int), stream), mcSuccess);
  EXPECT_EQ(RangeAttribute(mcMemRangeAttributeLastPrefetchLocation, values,
                           kCount * sizeof(int)),
            location().ordinal);
  AddIndex<<<kCount / 256, 256, 0, stream>>>(values, kCount);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  for (int i = 0; i < kCount; ++i) ASSERT_EQ(values[i], 5 * i) << i;
  // The ordinal form beside it.
  ASSERT_EQ(mcMemPrefetchAsync(values, kCount * sizeof(int), 0, stream),
            mcSuccess);
  EXPECT_EQ(RangeAttribute(mcMemRangeAttributeLastPrefetchLocation, values,
                           kCount * sizeof(int)),
            0);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
  EXPECT_EQ(mcFree(values), mcSuccess);
}

TEST_P(LocationForm, AdviceIsTheOrdinalFormsAdvice) {
  MX_SPEC("api.memory.advise.location-form",
          "api.memory.advise.preferred-location-queryable",
          "api.memory.advise.accessed-by-queryable",
          "api.memory.location.reference-host-numa");
  int* values = nullptr;
  ASSERT_EQ(mcMallocManaged(&values, kCount * sizeof(int)), mcSuccess);
  const size_t bytes = kCount * sizeof(int);
  for (int i = 0; i < kCount; ++i) values[i] = i;
  ASSERT_EQ(Advise(values, bytes, mcMemAdviseSetPreferredLocation), mcSuccess);
  EXPECT_EQ(RangeAttribute(mcMemRangeAttributePreferredLocation, values, bytes),
            location().ordinal);
  ASSERT_EQ(Advise(values, bytes, mcMemAdviseSetAccessedBy), mcSuccess);
  int accessed_by[4] = {12345, 12345, 12345, 12345};
  ASSERT_EQ(
      mcMemRangeGetAttribute(accessed_by, sizeof(accessed_by),
                             mcMemRangeAttributeAccessedBy, values, bytes),
      mcSuccess);
  EXPECT_EQ(accessed_by[0], location().ordinal);
  EXPECT_EQ(accessed_by[1], mcInvalidDeviceId);
  ASSERT_EQ(Advise(values, bytes, mcMemAdviseUnsetAccessedBy), mcSuccess);
  ASSERT_EQ(
      mcMemRangeGetAttribute(accessed_by, sizeof(accessed_by),
                             mcMemRangeAttributeAccessedBy, values, bytes),
      mcSuccess);
  EXPECT_EQ(accessed_by[0], mcInvalidDeviceId);
  ASSERT_EQ(Advise(values, bytes, mcMemAdviseUnsetPreferredLocation),
            mcSuccess);
  EXPECT_EQ(RangeAttribute(mcMemRangeAttributePreferredLocation, values, bytes),
            mcInvalidDeviceId);
  // The ordinal form beside it; neither changed a value.
  ASSERT_EQ(mcMemAdvise(values, bytes, mcMemAdviseSetPreferredLocation, 0),
            mcSuccess);
  EXPECT_EQ(RangeAttribute(mcMemRangeAttributePreferredLocation, values, bytes),
            0);
  for (int i = 0; i < kCount; ++i) ASSERT_EQ(values[i], i) << i;
  EXPECT_EQ(mcFree(values), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    EveryLocation, LocationForm,
    testing::Combine(testing::ValuesIn(Locations()),
                     testing::Values(Spelling::kCuda13Overload, Spelling::kV2)),
    CaseName);

class LocationAdviceTest : public testing::Test {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY("managed_memory"); }
};

TEST_F(LocationAdviceTest, AdviceWithoutALocationIgnoresTheLocation) {
  MX_SPEC("api.memory.advise.location-form",
          "api.memory.advise.read-mostly-queryable");
  int* values = nullptr;
  ASSERT_EQ(mcMallocManaged(&values, kCount * sizeof(int)), mcSuccess);
  const size_t bytes = kCount * sizeof(int);
  const mcMemLocation none = {mcMemLocationTypeInvalid, -99};
  ASSERT_EQ(mcMemAdvise(values, bytes, mcMemAdviseSetReadMostly, none),
            mcSuccess);
  EXPECT_EQ(RangeAttribute(mcMemRangeAttributeReadMostly, values, bytes), 1);
  ASSERT_EQ(mcMemAdvise_v2(values, bytes, mcMemAdviseUnsetReadMostly, none),
            mcSuccess);
  EXPECT_EQ(RangeAttribute(mcMemRangeAttributeReadMostly, values, bytes), 0);
  EXPECT_EQ(mcFree(values), mcSuccess);
}

}  // namespace
