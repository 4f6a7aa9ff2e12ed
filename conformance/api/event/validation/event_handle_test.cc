// Copyright mxcts authors.
//
// Conformance: mcEventQuery, mcEventSynchronize and mcEventDestroy refuse a
// handle that names no live event (docs/spec/api-event.md, "Querying and
// synchronizing", "Destroying events"): null, a destroyed event (of either
// device), the address of something that is no event, a stream's handle.
// Each returns mcErrorInvalidResourceHandle and records it as the last
// error; the control beside each is the same call on a live event.

#include <mc_runtime.h>

#include <string>
#include <tuple>

#include "conformance/api/testing/bad_handles.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

enum class Call { kQuery, kSynchronize, kDestroy };

const char* CallName(Call call) {
  switch (call) {
    case Call::kQuery:
      return "Query";
    case Call::kSynchronize:
      return "Synchronize";
    case Call::kDestroy:
      return "Destroy";
  }
  return "Unknown";
}

mcError_t Make(Call call, mcEvent_t event) {
  switch (call) {
    case Call::kQuery:
      return mcEventQuery(event);
    case Call::kSynchronize:
      return mcEventSynchronize(event);
    case Call::kDestroy:
      return mcEventDestroy(event);
  }
  return mcErrorUnknown;
}

using Case = std::tuple<Call, BadEvent>;

std::string CaseName(const testing::TestParamInfo<Case>& info) {
  return std::string(CallName(std::get<0>(info.param))) + "_" +
         BadEventName(std::get<1>(info.param));
}

class InvalidEventHandle : public testing::TestWithParam<Case> {};

TEST_P(InvalidEventHandle, IsInvalidResourceHandle) {
  MX_SPEC("api.event.query-sync.invalid-event-is-invalid-resource-handle",
          "api.event.destroy.invalid-handle-is-invalid-resource-handle",
          "api.event.destroy.releases-event",
          "api.error.last.recorded-on-failure");
  const auto [call, bad] = GetParam();
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", DevicesNeeded(bad));
  // A stream behind the handle is checked to be untouched when `event`
  // goes.
  InvalidEvent event(bad);
  ASSERT_EQ(event.status(), mcSuccess);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(Make(call, event.get()), mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  // Control: the same call on a live, recorded event.
  mcEvent_t live = nullptr;
  ASSERT_EQ(mcEventCreate(&live), mcSuccess);
  ASSERT_EQ(mcEventRecord(live, nullptr), mcSuccess);
  // A recorded event may still be pending on a real device: the query's
  // control waits for it first, or mcErrorNotReady would be right too.
  if (call == Call::kQuery) {
    ASSERT_EQ(mcEventSynchronize(live), mcSuccess);
  }
  EXPECT_EQ(Make(call, live), mcSuccess);
  if (call != Call::kDestroy) {
    EXPECT_EQ(mcEventDestroy(live), mcSuccess);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Calls, InvalidEventHandle,
    testing::Combine(
        testing::Values(Call::kQuery, Call::kSynchronize, Call::kDestroy),
        testing::Values(BadEvent::kNull, BadEvent::kDestroyed,
                        BadEvent::kDestroyedOnOtherDevice,
                        BadEvent::kNotAnEvent, BadEvent::kStreamHandle)),
    CaseName);

}  // namespace
}  // namespace mxcts::conformance
