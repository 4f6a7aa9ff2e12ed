// Copyright mxcts authors.
//
// Conformance: the errors of bad managed memory calls
// (docs/spec/api-memory.md): mcMallocManaged without an output, of size 0,
// with bad flags or beyond memory; mcMemPrefetchAsync, mcMemAdvise and
// mcMemRangeGetAttribute on ranges that are not managed memory, with
// invalid locations, advice, attributes or data sizes. A failed call
// records nothing and enqueues nothing, beside a control that succeeds.

#include <mc_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::Buffer;
using mxcts::conformance::memory::Kind;
using mxcts::conformance::memory::KindName;

int DeviceCount() {
  int count = 0;
  EXPECT_EQ(mcGetDeviceCount(&count), mcSuccess);
  return count;
}

// A managed allocation of two pages for every test of this file.
class Managed : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("managed_memory");
    ASSERT_EQ(mcMallocManaged(&base_, kSize), mcSuccess);
  }
  void TearDown() override {
    if (base_ != nullptr) {
      EXPECT_EQ(mcFree(base_), mcSuccess);
    }
  }
  int Preferred() {
    int value = 99;
    EXPECT_EQ(mcMemRangeGetAttribute(&value, sizeof(value),
                                     mcMemRangeAttributePreferredLocation,
                                     base_, kSize),
              mcSuccess);
    return value;
  }

  static constexpr size_t kSize = 8192;
  char* base_ = nullptr;
};

// --- mcMallocManaged. ---

class ManagedFlags : public testing::TestWithParam<unsigned> {};

TEST_P(ManagedFlags, OtherFlagsAreInvalidValue) {
  MX_SPEC("api.memory.managed.invalid-flags");
  MX_REQUIRE_CAPABILITY("managed_memory");
  int* p = nullptr;
  EXPECT_EQ(mcMallocManaged(&p, 64, GetParam()), mcErrorInvalidValue);
  EXPECT_EQ(p, nullptr);
  ASSERT_EQ(mcMallocManaged(&p, 64, mcMemAttachGlobal), mcSuccess);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Flags, ManagedFlags,
                         testing::Values(0u, 3u, unsigned{mcMemAttachSingle},
                                         8u, 0xFFu, 0x80000000u));

TEST(ManagedAllocErrors, NullOutputSizeZeroAndTooLarge) {
  MX_SPEC("api.memory.managed.null-pointer-to-pointer",
          "api.memory.managed.size-zero", "api.memory.managed.out-of-memory");
  MX_REQUIRE_CAPABILITY("managed_memory");
  EXPECT_EQ(mcMallocManaged(static_cast<void**>(nullptr), 64),
            mcErrorInvalidValue);
  int* p = nullptr;
  EXPECT_EQ(mcMallocManaged(&p, 0), mcErrorInvalidValue);
  EXPECT_EQ(mcMallocManaged(&p, SIZE_MAX), mcErrorMemoryAllocation);
  EXPECT_EQ(p, nullptr);
  ASSERT_EQ(mcMallocManaged(&p, 64), mcSuccess);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

TEST(ManagedAllocErrors, DeviceWithoutManagedMemoryIsNotSupported) {
  MX_SPEC("api.memory.managed.not-supported");
  int value = 1;
  ASSERT_EQ(mcDeviceGetAttribute(&value, mcDeviceAttributeManagedMemory, 0),
            mcSuccess);
  if (value != 0) {
    GTEST_SKIP() << "unsupported: device 0 has managed memory, so the error "
                    "cannot occur";
  }
  void* p = nullptr;
  EXPECT_EQ(mcMallocManaged(&p, 64), mcErrorNotSupported);
  EXPECT_EQ(p, nullptr);
  ASSERT_EQ(mcMalloc(&p, 64), mcSuccess);  // control: device memory works
  EXPECT_EQ(mcFree(p), mcSuccess);
}

// --- Ranges that are not inside one managed allocation. ---

enum class BadRange {
  kPageable,
  kDevice,
  kPinned,
  kRegistered,
  kPastEnd,
  kCountZero,
  kNull,
  kFreed,
};

const char* BadRangeName(BadRange range) {
  static const char* const kNames[] = {"Pageable",   "Device",  "Pinned",
                                       "Registered", "PastEnd", "CountZero",
                                       "Null",       "Freed"};
  return kNames[static_cast<int>(range)];
}

enum class ManagedCall { kPrefetch, kAdvise, kRangeAttribute };

struct RangeCase {
  ManagedCall call;
  BadRange range;
};

class NotManaged : public Managed,
                   public testing::WithParamInterface<RangeCase> {};

TEST_P(NotManaged, IsInvalidValueAndRecordsNothing) {
  MX_SPEC("api.memory.prefetch.not-managed", "api.memory.advise.not-managed",
          "api.memory.range-attribute.invalid-arguments");
  const RangeCase& c = GetParam();
  Buffer other(c.range == BadRange::kDevice       ? Kind::kDevice
               : c.range == BadRange::kPinned     ? Kind::kPinned
               : c.range == BadRange::kRegistered ? Kind::kRegistered
                                                  : Kind::kPageable,
               256, 1);
  ASSERT_TRUE(other.ok());
  char* freed = nullptr;
  ASSERT_EQ(mcMallocManaged(&freed, 256), mcSuccess);
  ASSERT_EQ(mcFree(freed), mcSuccess);
  const void* p = other.data();
  size_t count = 256;
  switch (c.range) {
    case BadRange::kPastEnd:
      p = base_ + kSize - 10;
      count = 11;
      break;
    case BadRange::kCountZero:
      p = base_;
      count = 0;
      break;
    case BadRange::kNull:
      p = nullptr;
      break;
    case BadRange::kFreed:
      p = freed;
      break;
    default:
      break;
  }
  int value = 77;
  auto call = [&](const void* at, size_t n) {
    switch (c.call) {
      case ManagedCall::kPrefetch:
        return mcMemPrefetchAsync(at, n, 0);
      case ManagedCall::kAdvise:
        return mcMemAdvise(at, n, mcMemAdviseSetPreferredLocation, 0);
      case ManagedCall::kRangeAttribute:
        return mcMemRangeGetAttribute(
            &value, sizeof(value), mcMemRangeAttributePreferredLocation, at, n);
    }
    return mcErrorUnknown;
  };
  EXPECT_EQ(call(p, count), mcErrorInvalidValue);
  EXPECT_EQ(value, 77);
  EXPECT_EQ(Preferred(), mcInvalidDeviceId);
  // Control: the whole managed allocation.
  EXPECT_EQ(call(base_, kSize), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
}

std::vector<RangeCase> RangeCases() {
  std::vector<RangeCase> cases;
  for (ManagedCall call : {ManagedCall::kPrefetch, ManagedCall::kAdvise,
                           ManagedCall::kRangeAttribute}) {
    for (BadRange range :
         {BadRange::kPageable, BadRange::kDevice, BadRange::kPinned,
          BadRange::kRegistered, BadRange::kPastEnd, BadRange::kCountZero,
          BadRange::kNull, BadRange::kFreed}) {
      cases.push_back({call, range});
    }
  }
  return cases;
}

std::string RangeCaseName(const testing::TestParamInfo<RangeCase>& info) {
  static const char* const kCalls[] = {"Prefetch", "Advise", "RangeAttribute"};
  return std::string(kCalls[static_cast<int>(info.param.call)]) + "_" +
         BadRangeName(info.param.range);
}

INSTANTIATE_TEST_SUITE_P(Ranges, NotManaged, testing::ValuesIn(RangeCases()),
                         RangeCaseName);

// --- Invalid locations. ---

struct LocationCase {
  int call;      // 0: prefetch; else the advice
  int location;  // an offset from the device count, or an absolute value
  bool relative;
};

class InvalidLocation : public Managed,
                        public testing::WithParamInterface<LocationCase> {};

TEST_P(InvalidLocation, IsInvalidDeviceAndRecordsNothing) {
  MX_SPEC("api.memory.prefetch.invalid-device",
          "api.memory.advise.invalid-device");
  const LocationCase& c = GetParam();
  const int location = c.relative ? DeviceCount() + c.location : c.location;
  auto call = [&](int where) {
    return c.call == 0
               ? mcMemPrefetchAsync(base_, kSize, where)
               : mcMemAdvise(base_, kSize, static_cast<mcMemoryAdvise>(c.call),
                             where);
  };
  EXPECT_EQ(call(location), mcErrorInvalidDevice);
  EXPECT_EQ(Preferred(), mcInvalidDeviceId);
  int last = 55;
  ASSERT_EQ(mcMemRangeGetAttribute(&last, sizeof(last),
                                   mcMemRangeAttributeLastPrefetchLocation,
                                   base_, kSize),
            mcSuccess);
  EXPECT_EQ(last, mcInvalidDeviceId);
  // Control: the host and device 0 are valid locations.
  EXPECT_EQ(call(mcCpuDeviceId), mcSuccess);
  EXPECT_EQ(call(0), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
}

std::vector<LocationCase> LocationCases() {
  std::vector<LocationCase> cases;
  for (int call :
       {0, int{mcMemAdviseSetPreferredLocation}, int{mcMemAdviseSetAccessedBy},
        int{mcMemAdviseUnsetAccessedBy}}) {
    cases.push_back({call, 0, true});  // the device count
    cases.push_back({call, 5, true});
    cases.push_back({call, -2, false});  // mcInvalidDeviceId
    cases.push_back({call, -7, false});
  }
  return cases;
}

std::string LocationName(const testing::TestParamInfo<LocationCase>& info) {
  const LocationCase& c = info.param;
  return (c.call == 0 ? std::string("Prefetch")
                      : "Advice" + std::to_string(c.call)) +
         (c.relative ? "_countPlus" + std::to_string(c.location)
                     : "_minus" + std::to_string(-c.location));
}

INSTANTIATE_TEST_SUITE_P(Locations, InvalidLocation,
                         testing::ValuesIn(LocationCases()), LocationName);

// A prefetch refused for its stream records no prefetch location: the
// stream is checked before anything is recorded.
TEST_F(Managed, InvalidStreamRecordsNoPrefetchLocation) {
  MX_SPEC("api.memory.prefetch.invalid-stream",
          "api.memory.lifetime.failed-call-changes-nothing");
  auto last_prefetch = [&] {
    int last = 55;
    EXPECT_EQ(mcMemRangeGetAttribute(&last, sizeof(last),
                                     mcMemRangeAttributeLastPrefetchLocation,
                                     base_, kSize),
              mcSuccess);
    return last;
  };
  mcStream_t dead = nullptr;
  ASSERT_EQ(mcStreamCreate(&dead), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(dead), mcSuccess);
  EXPECT_EQ(mcMemPrefetchAsync(base_, kSize, 0, dead),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(last_prefetch(), mcInvalidDeviceId);
  // Control: the same prefetch in a live stream records device 0.
  mcStream_t live = nullptr;
  ASSERT_EQ(mcStreamCreate(&live), mcSuccess);
  EXPECT_EQ(mcMemPrefetchAsync(base_, kSize, 0, live), mcSuccess);
  EXPECT_EQ(last_prefetch(), 0);
  EXPECT_EQ(mcStreamSynchronize(live), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(live), mcSuccess);
}

TEST_F(Managed, DeviceIsIgnoredByReadMostlyAdvice) {
  MX_SPEC("api.memory.advise.invalid-device");
  for (mcMemoryAdvise advice :
       {mcMemAdviseSetReadMostly, mcMemAdviseUnsetReadMostly,
        mcMemAdviseUnsetPreferredLocation}) {
    EXPECT_EQ(mcMemAdvise(base_, kSize, advice, 9999), mcSuccess) << advice;
  }
  EXPECT_EQ(mcMemAdvise(base_, kSize, mcMemAdviseSetPreferredLocation, 9999),
            mcErrorInvalidDevice);
}

// --- Invalid advice and attributes. ---

class InvalidAdvice : public Managed,
                      public testing::WithParamInterface<int> {};

TEST_P(InvalidAdvice, IsInvalidValue) {
  MX_SPEC("api.memory.advise.invalid-advice");
  EXPECT_EQ(
      mcMemAdvise(base_, kSize, static_cast<mcMemoryAdvise>(GetParam()), 0),
      mcErrorInvalidValue);
  EXPECT_EQ(Preferred(), mcInvalidDeviceId);
  EXPECT_EQ(mcMemAdvise(base_, kSize, mcMemAdviseSetPreferredLocation, 0),
            mcSuccess);
  EXPECT_EQ(Preferred(), 0);
}

INSTANTIATE_TEST_SUITE_P(Values, InvalidAdvice,
                         testing::Values(0, 7, 99, 102, -1, 1000));

struct AttributeCase {
  int attribute;
  size_t data_size;
};

class InvalidAttribute : public Managed,
                         public testing::WithParamInterface<AttributeCase> {};

TEST_P(InvalidAttribute, IsInvalidValueAndStoresNothing) {
  MX_SPEC("api.memory.range-attribute.invalid-arguments");
  const AttributeCase& c = GetParam();
  int data[4] = {66, 66, 66, 66};
  EXPECT_EQ(mcMemRangeGetAttribute(
                data, c.data_size,
                static_cast<mcMemRangeAttribute>(c.attribute), base_, kSize),
            mcErrorInvalidValue);
  for (int value : data) EXPECT_EQ(value, 66);
  // Control: a valid attribute with its size.
  EXPECT_EQ(mcMemRangeGetAttribute(data, sizeof(int),
                                   mcMemRangeAttributeReadMostly, base_, kSize),
            mcSuccess);
  EXPECT_EQ(data[0], 0);
}

INSTANTIATE_TEST_SUITE_P(
    Attributes, InvalidAttribute,
    testing::Values(AttributeCase{0, 4}, AttributeCase{5, 4},
                    AttributeCase{-1, 4},
                    AttributeCase{mcMemRangeAttributeReadMostly, 0},
                    AttributeCase{mcMemRangeAttributeReadMostly, 8},
                    AttributeCase{mcMemRangeAttributePreferredLocation, 2},
                    AttributeCase{mcMemRangeAttributeLastPrefetchLocation, 16},
                    AttributeCase{mcMemRangeAttributeAccessedBy, 0},
                    AttributeCase{mcMemRangeAttributeAccessedBy, 6}),
    [](const testing::TestParamInfo<AttributeCase>& info) {
      return "attribute" + std::to_string(info.param.attribute + 1) + "_size" +
             std::to_string(info.param.data_size);
    });

TEST_F(Managed, NullDataIsInvalidValue) {
  MX_SPEC("api.memory.range-attribute.invalid-arguments");
  EXPECT_EQ(mcMemRangeGetAttribute(nullptr, sizeof(int),
                                   mcMemRangeAttributeReadMostly, base_, kSize),
            mcErrorInvalidValue);
  int value = 0;
  EXPECT_EQ(mcMemRangeGetAttribute(&value, sizeof(int),
                                   mcMemRangeAttributeReadMostly, base_, kSize),
            mcSuccess);
}

}  // namespace
