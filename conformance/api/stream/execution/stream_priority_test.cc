// Copyright mxcts authors.
//
// Conformance: stream priorities: the range a device reports, the priority
// a stream gets (clamped into the range) and reports, for both stream
// flags on every device (docs/spec/api-stream.md, "Stream priorities",
// "Stream properties").
//
// Requested priorities are placed relative to the reported range: at each
// end, one step inside and one step outside it, far outside it, and at the
// ends of int. A value inside the range is kept; one outside is clamped to
// the nearer end, which the out-of-range cases show against the in-range
// controls beside them.

#include <mc_runtime.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <string>
#include <tuple>

#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Where a requested priority lies, relative to the range
// [greatest, least] (greatest <= least).
enum class Place {
  kIntMin,
  kFarAboveGreatest,  // greatest - 100: higher than the highest priority
  kJustAboveGreatest,
  kGreatest,
  kJustBelowGreatest,
  kJustAboveLeast,
  kLeast,
  kJustBelowLeast,  // least + 1: lower than the lowest priority
  kFarBelowLeast,
  kIntMax,
};

const char* PlaceName(Place place) {
  switch (place) {
    case Place::kIntMin:
      return "IntMin";
    case Place::kFarAboveGreatest:
      return "FarAboveGreatest";
    case Place::kJustAboveGreatest:
      return "JustAboveGreatest";
    case Place::kGreatest:
      return "Greatest";
    case Place::kJustBelowGreatest:
      return "JustBelowGreatest";
    case Place::kJustAboveLeast:
      return "JustAboveLeast";
    case Place::kLeast:
      return "Least";
    case Place::kJustBelowLeast:
      return "JustBelowLeast";
    case Place::kFarBelowLeast:
      return "FarBelowLeast";
    case Place::kIntMax:
      return "IntMax";
  }
  return "Unknown";
}

int Requested(Place place, int least, int greatest) {
  switch (place) {
    case Place::kIntMin:
      return INT_MIN;
    case Place::kFarAboveGreatest:
      return greatest - 100;
    case Place::kJustAboveGreatest:
      return greatest - 1;
    case Place::kGreatest:
      return greatest;
    case Place::kJustBelowGreatest:
      return std::min(greatest + 1, least);
    case Place::kJustAboveLeast:
      return std::max(least - 1, greatest);
    case Place::kLeast:
      return least;
    case Place::kJustBelowLeast:
      return least + 1;
    case Place::kFarBelowLeast:
      return least + 100;
    case Place::kIntMax:
      return INT_MAX;
  }
  return 0;
}

// (place, flags, device)
using Case = std::tuple<Place, unsigned, int>;

std::string CaseName(const testing::TestParamInfo<Case>& info) {
  return std::string(PlaceName(std::get<0>(info.param))) +
         (std::get<1>(info.param) == mcStreamNonBlocking ? "_NonBlocking"
                                                         : "_Default") +
         "_Device" + std::to_string(std::get<2>(info.param));
}

class Priority : public testing::TestWithParam<Case> {};

TEST_P(Priority, StreamGetsTheClampedPriority) {
  MX_SPEC("api.stream.create-with-priority.records-priority",
          "api.stream.create-with-priority.out-of-range-is-clamped",
          "api.stream.get-priority.reports-priority",
          "api.stream.get-flags.reports-creation-flags",
          "api.stream.get-device.reports-owning-device");
  const auto [place, flags, device] = GetParam();
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device + 1);
  ScopedDevice on(device);
  ASSERT_TRUE(on.ok());
  int least = 0;
  int greatest = 0;
  ASSERT_EQ(mcDeviceGetStreamPriorityRange(&least, &greatest), mcSuccess);
  const int requested = Requested(place, least, greatest);
  const int expected = std::clamp(requested, greatest, least);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreateWithPriority(&stream, flags, requested), mcSuccess);
  int priority = 12345;
  unsigned reported_flags = 12345;
  int owner = -1;
  EXPECT_EQ(mcStreamGetPriority(stream, &priority), mcSuccess);
  EXPECT_EQ(mcStreamGetFlags(stream, &reported_flags), mcSuccess);
  EXPECT_EQ(mcStreamGetDevice(stream, &owner), mcSuccess);
  EXPECT_EQ(priority, expected) << "requested " << requested;
  EXPECT_EQ(reported_flags, flags);
  EXPECT_EQ(owner, device);
  // The stream works like any other.
  OrderLog log;
  ASSERT_EQ(log.Append(stream, "first"), mcSuccess);
  ASSERT_EQ(log.Append(stream, "second"), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(log.Joined(), "first second");
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Places, Priority,
    testing::Combine(testing::Values(Place::kIntMin, Place::kFarAboveGreatest,
                                     Place::kJustAboveGreatest,
                                     Place::kGreatest,
                                     Place::kJustBelowGreatest,
                                     Place::kJustAboveLeast, Place::kLeast,
                                     Place::kJustBelowLeast,
                                     Place::kFarBelowLeast, Place::kIntMax),
                     testing::Values(unsigned{mcStreamDefault},
                                     unsigned{mcStreamNonBlocking}),
                     testing::Values(0, 1)),
    CaseName);

// The parameter's device is current for the whole test.
class PriorityRange : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", GetParam() + 1);
    on_ = std::make_unique<ScopedDevice>(GetParam());
    ASSERT_TRUE(on_->ok());
  }
  void TearDown() override { on_.reset(); }

 private:
  std::unique_ptr<ScopedDevice> on_;
};

TEST_P(PriorityRange, ReportsAnOrderedRangeHoldingZero) {
  MX_SPEC("api.stream.priority-range.reports-least-and-greatest");
  int least = INT_MIN;
  int greatest = INT_MAX;
  ASSERT_EQ(mcDeviceGetStreamPriorityRange(&least, &greatest), mcSuccess);
  EXPECT_LE(greatest, least);
  EXPECT_LE(greatest, 0);
  EXPECT_GE(least, 0);
}

TEST_P(PriorityRange, EitherOutputMayBeNull) {
  MX_SPEC("api.stream.priority-range.null-arguments-allowed");
  int least = 0;
  int greatest = 0;
  ASSERT_EQ(mcDeviceGetStreamPriorityRange(&least, &greatest), mcSuccess);
  int only_least = INT_MIN;
  int only_greatest = INT_MAX;
  EXPECT_EQ(mcDeviceGetStreamPriorityRange(&only_least, nullptr), mcSuccess);
  EXPECT_EQ(mcDeviceGetStreamPriorityRange(nullptr, &only_greatest), mcSuccess);
  EXPECT_EQ(mcDeviceGetStreamPriorityRange(nullptr, nullptr), mcSuccess);
  EXPECT_EQ(only_least, least);
  EXPECT_EQ(only_greatest, greatest);
}

TEST_P(PriorityRange, StreamsWithoutPriorityReportZero) {
  MX_SPEC("api.stream.get-priority.reports-priority");
  mcStream_t plain = nullptr;
  mcStream_t flagged = nullptr;
  ASSERT_EQ(mcStreamCreate(&plain), mcSuccess);
  ASSERT_EQ(mcStreamCreateWithFlags(&flagged, mcStreamNonBlocking), mcSuccess);
  for (mcStream_t stream : {plain, flagged, mcStream_t{nullptr}, mcStreamLegacy,
                            mcStreamPerThread}) {
    int priority = 12345;
    EXPECT_EQ(mcStreamGetPriority(stream, &priority), mcSuccess);
    EXPECT_EQ(priority, 0);
  }
  EXPECT_EQ(mcStreamDestroy(plain), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(flagged), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Devices, PriorityRange, testing::Values(0, 1));

}  // namespace
}  // namespace mxcts::conformance
