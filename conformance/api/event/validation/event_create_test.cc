// Copyright mxcts authors.
//
// Conformance: the errors of creating events (docs/spec/api-event.md,
// "Creating events"): a null output, flags with an unknown bit, and
// mcEventInterprocess without mcEventDisableTiming. Each returns
// mcErrorInvalidValue, records it as the last error and creates nothing:
// the output keeps its value. The controls are the accepted flags, each of
// which creates a working event.

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// A handle no call returned: failing calls leave it.
mcEvent_t Sentinel() { return reinterpret_cast<mcEvent_t>(0xe7e47); }

// The three ways to create an event with flags.
enum class Creator { kCreate, kWithFlags, kTwoArgument };

const char* CreatorName(Creator creator) {
  switch (creator) {
    case Creator::kCreate:
      return "Create";
    case Creator::kWithFlags:
      return "CreateWithFlags";
    case Creator::kTwoArgument:
      return "TwoArgumentCreate";
  }
  return "Unknown";
}

// mcEventCreate ignores `flags` (it has none).
mcError_t CreateEvent(Creator creator, mcEvent_t* event, unsigned flags) {
  switch (creator) {
    case Creator::kCreate:
      return mcEventCreate(event);
    case Creator::kWithFlags:
      return mcEventCreateWithFlags(event, flags);
    case Creator::kTwoArgument:
      return mcEventCreate(event, flags);
  }
  return mcErrorUnknown;
}

using Case = std::tuple<Creator, unsigned>;

std::string CaseName(const testing::TestParamInfo<Case>& info) {
  return std::string(CreatorName(std::get<0>(info.param))) + "_" +
         HexName(std::get<1>(info.param));
}

class NullEventOutput : public testing::TestWithParam<Case> {};

TEST_P(NullEventOutput, IsInvalidValue) {
  MX_SPEC("api.event.create.null-pointer-is-invalid-value",
          "api.error.last.recorded-on-failure");
  const auto [creator, flags] = GetParam();
  EXPECT_EQ(CreateEvent(creator, nullptr, flags), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Control: with an output the same call creates an event.
  mcEvent_t event = Sentinel();
  ASSERT_EQ(CreateEvent(creator, &event, flags), mcSuccess);
  EXPECT_NE(event, Sentinel());
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Creators, NullEventOutput,
    testing::Values(Case{Creator::kCreate, 0},
                    Case{Creator::kWithFlags, mcEventDefault},
                    Case{Creator::kWithFlags, mcEventBlockingSync},
                    Case{Creator::kWithFlags, mcEventDisableTiming},
                    Case{Creator::kWithFlags,
                         mcEventInterprocess | mcEventDisableTiming},
                    Case{Creator::kTwoArgument, mcEventDefault},
                    Case{Creator::kTwoArgument,
                         mcEventBlockingSync | mcEventDisableTiming}),
    CaseName);

class EventFlags : public testing::TestWithParam<Case> {};

TEST_P(EventFlags, UnknownBitIsInvalidValue) {
  MX_SPEC("api.event.create-with-flags.invalid-flags-is-invalid-value",
          "api.event.create.two-argument-form",
          "api.error.last.recorded-on-failure");
  const auto [creator, flags] = GetParam();
  mcEvent_t event = Sentinel();
  EXPECT_EQ(CreateEvent(creator, &event, flags), mcErrorInvalidValue);
  EXPECT_EQ(event, Sentinel()) << "the output was written";
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Control: the known bits alone (with mcEventDisableTiming where
  // mcEventInterprocess needs it).
  unsigned known = flags & (mcEventBlockingSync | mcEventDisableTiming |
                            mcEventInterprocess);
  if ((known & mcEventInterprocess) != 0) known |= mcEventDisableTiming;
  ASSERT_EQ(CreateEvent(creator, &event, known), mcSuccess);
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Flags, EventFlags,
    testing::Combine(testing::Values(Creator::kWithFlags,
                                     Creator::kTwoArgument),
                     testing::Values(0x8u, 0x9u, 0xbu, 0x10u, 0x20u, 0x100u,
                                     0x80000000u, 0xffffffffu)),
    CaseName);

class InterprocessFlags : public testing::TestWithParam<Case> {};

TEST_P(InterprocessFlags, WithoutDisableTimingIsInvalidValue) {
  MX_SPEC("api.event.create-with-flags.interprocess-requires-disable-timing",
          "api.event.create-with-flags.accepted-flags");
  const auto [creator, flags] = GetParam();
  mcEvent_t event = Sentinel();
  const bool timed = (flags & mcEventDisableTiming) == 0;
  EXPECT_EQ(CreateEvent(creator, &event, flags),
            timed ? mcErrorInvalidValue : mcSuccess);
  if (timed) {
    EXPECT_EQ(event, Sentinel()) << "the output was written";
    EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  } else {
    // The control: with timing disabled the event is made and works.
    EXPECT_NE(event, Sentinel());
    EXPECT_EQ(mcEventRecord(event, nullptr), mcSuccess);
    EXPECT_EQ(mcEventSynchronize(event), mcSuccess);
    EXPECT_EQ(mcEventDestroy(event), mcSuccess);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Flags, InterprocessFlags,
    testing::Combine(
        testing::Values(Creator::kWithFlags, Creator::kTwoArgument),
        testing::Values(unsigned{mcEventInterprocess},
                        unsigned{mcEventInterprocess | mcEventBlockingSync},
                        unsigned{mcEventInterprocess | mcEventDisableTiming},
                        unsigned{mcEventInterprocess | mcEventDisableTiming |
                                 mcEventBlockingSync})),
    CaseName);

}  // namespace
}  // namespace mxcts::conformance
