// Copyright mxcts authors.
//
// Conformance: every stream function refuses a handle that names no live
// stream, and every stream query refuses a null output
// (docs/spec/api-stream.md, "Stream properties",
// api.stream.handle.invalid-handle-is-invalid-resource-handle).
//
// Each function is called with each kind of bad handle (a destroyed
// stream, one destroyed on the other device, the address of something
// that is no stream, an event's handle): it returns
// mcErrorInvalidResourceHandle, records it as the last error, writes no
// output and enqueues nothing (a host function or callback it was given
// never runs). The control beside each is the same call on a live stream.

#include <mc_runtime.h>

#include <iterator>
#include <string>
#include <tuple>

#include "conformance/api/testing/bad_handles.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// Counts the runs of the host functions and callbacks the calls enqueue.
int runs = 0;
void CountRun(void*) { ++runs; }
void CountCallback(mcStream_t, mcError_t, void*) { ++runs; }

// Sentinel outputs: a failing call leaves them.
constexpr unsigned kFlagsSentinel = 0xabcdu;
constexpr int kIntSentinel = 4242;

// One stream function, called on `stream`, with `live` a live stream of
// the same device for the functions that take two.
struct Function {
  const char* name;
  mcError_t (*call)(mcStream_t stream, mcStream_t live);
};

mcError_t GetFlags(mcStream_t stream, mcStream_t) {
  unsigned flags = kFlagsSentinel;
  const mcError_t result = mcStreamGetFlags(stream, &flags);
  if (result != mcSuccess && flags != kFlagsSentinel) return mcErrorUnknown;
  return result;
}

mcError_t GetPriority(mcStream_t stream, mcStream_t) {
  int priority = kIntSentinel;
  const mcError_t result = mcStreamGetPriority(stream, &priority);
  if (result != mcSuccess && priority != kIntSentinel) return mcErrorUnknown;
  return result;
}

mcError_t GetDevice(mcStream_t stream, mcStream_t) {
  int device = kIntSentinel;
  const mcError_t result = mcStreamGetDevice(stream, &device);
  if (result != mcSuccess && device != kIntSentinel) return mcErrorUnknown;
  return result;
}

mcError_t Query(mcStream_t stream, mcStream_t) { return mcStreamQuery(stream); }

mcError_t Synchronize(mcStream_t stream, mcStream_t) {
  return mcStreamSynchronize(stream);
}

mcError_t WaitEvent(mcStream_t stream, mcStream_t live) {
  mcEvent_t event = nullptr;
  if (mcEventCreate(&event) != mcSuccess) return mcErrorUnknown;
  mcEventRecord(event, live);
  const mcError_t result = mcStreamWaitEvent(stream, event, 0);
  mcEventDestroy(event);
  return result;
}

mcError_t AddCallback(mcStream_t stream, mcStream_t) {
  return mcStreamAddCallback(stream, CountCallback, nullptr, 0);
}

mcError_t LaunchHostFunc(mcStream_t stream, mcStream_t) {
  return mcLaunchHostFunc(stream, CountRun, nullptr);
}

mcError_t SetAttribute(mcStream_t stream, mcStream_t) {
  mcStreamAttrValue value;
  value.syncPolicy = mcSyncPolicyAuto;
  return mcStreamSetAttribute(stream, mcStreamAttributeSynchronizationPolicy,
                              &value);
}

mcError_t GetAttribute(mcStream_t stream, mcStream_t) {
  mcStreamAttrValue value;
  value.syncPolicy = static_cast<mcSynchronizationPolicy>(kIntSentinel);
  const mcError_t result = mcStreamGetAttribute(
      stream, mcStreamAttributeSynchronizationPolicy, &value);
  if (result != mcSuccess && value.syncPolicy != kIntSentinel) {
    return mcErrorUnknown;
  }
  return result;
}

mcError_t CopyAttributeTo(mcStream_t stream, mcStream_t live) {
  return mcStreamCopyAttribute(stream, live);
}

mcError_t CopyAttributeFrom(mcStream_t stream, mcStream_t live) {
  return mcStreamCopyAttribute(live, stream);
}

mcError_t Destroy(mcStream_t stream, mcStream_t) {
  return mcStreamDestroy(stream);
}

const Function kFunctions[] = {
    {"GetFlags", GetFlags},
    {"GetPriority", GetPriority},
    {"GetDevice", GetDevice},
    {"Query", Query},
    {"Synchronize", Synchronize},
    {"WaitEvent", WaitEvent},
    {"AddCallback", AddCallback},
    {"LaunchHostFunc", LaunchHostFunc},
    {"SetAttribute", SetAttribute},
    {"GetAttribute", GetAttribute},
    {"CopyAttributeTo", CopyAttributeTo},
    {"CopyAttributeFrom", CopyAttributeFrom},
    {"Destroy", Destroy},
};

using Case = std::tuple<int, BadStream>;

std::string CaseName(const testing::TestParamInfo<Case>& info) {
  return std::string(kFunctions[std::get<0>(info.param)].name) + "_" +
         BadStreamName(std::get<1>(info.param));
}

class InvalidStreamHandle : public testing::TestWithParam<Case> {
 protected:
  const Function& function() const {
    return kFunctions[std::get<0>(GetParam())];
  }
};

TEST_P(InvalidStreamHandle, IsInvalidResourceHandleAndChangesNothing) {
  MX_SPEC("api.stream.handle.invalid-handle-is-invalid-resource-handle",
          "api.stream.destroy.twice-is-invalid-resource-handle",
          "api.error.last.recorded-on-failure");
  const BadStream bad = std::get<1>(GetParam());
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", DevicesNeeded(bad));
  InvalidStream handle(bad);
  ASSERT_EQ(handle.status(), mcSuccess);
  TestStream live(StreamKind::kNonBlocking);
  ASSERT_EQ(live.status(), mcSuccess);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  runs = 0;
  EXPECT_EQ(function().call(handle.get(), live.get()),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(runs, 0) << "work given with a bad handle ran";
  // Control: the same call on a live stream.
  TestStream other_live(StreamKind::kBlocking);
  mcStream_t target = live.get();
  if (function().call == Destroy) {
    ASSERT_EQ(mcStreamCreate(&target), mcSuccess);
  }
  EXPECT_EQ(function().call(target, other_live.get()), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  if (function().call == AddCallback || function().call == LaunchHostFunc) {
    EXPECT_EQ(runs, 1);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Functions, InvalidStreamHandle,
    testing::Combine(testing::Range(0, static_cast<int>(std::size(kFunctions))),
                     testing::Values(BadStream::kDestroyed,
                                     BadStream::kDestroyedOnOtherDevice,
                                     BadStream::kNotAStream,
                                     BadStream::kEventHandle)),
    CaseName);

// The three stream queries with a null output, on every kind of stream.
using NullCase = std::tuple<int, StreamKind>;

const char* const kQueryNames[] = {"GetFlags", "GetPriority", "GetDevice"};

std::string NullCaseName(const testing::TestParamInfo<NullCase>& info) {
  return std::string(kQueryNames[std::get<0>(info.param)]) + "_" +
         StreamKindName(std::get<1>(info.param));
}

mcError_t QueryWithNull(int query, mcStream_t stream) {
  switch (query) {
    case 0:
      return mcStreamGetFlags(stream, nullptr);
    case 1:
      return mcStreamGetPriority(stream, nullptr);
    default:
      return mcStreamGetDevice(stream, nullptr);
  }
}

class NullQueryOutput : public testing::TestWithParam<NullCase> {};

TEST_P(NullQueryOutput, IsInvalidValue) {
  MX_SPEC("api.stream.query-props.null-output-is-invalid-value");
  TestStream stream(std::get<1>(GetParam()));
  ASSERT_EQ(stream.status(), mcSuccess);
  EXPECT_EQ(QueryWithNull(std::get<0>(GetParam()), stream.get()),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Control: the same query with an output.
  EXPECT_EQ(kFunctions[std::get<0>(GetParam())].call(stream.get(), nullptr),
            mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Queries, NullQueryOutput,
                         testing::Combine(testing::Range(0, 3),
                                          testing::ValuesIn(kAllStreamKinds)),
                         NullCaseName);

}  // namespace
}  // namespace mxcts::conformance
