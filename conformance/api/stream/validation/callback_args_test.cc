// Copyright mxcts authors.
//
// Conformance: the errors of mcStreamAddCallback and mcLaunchHostFunc
// (docs/spec/api-stream.md, "Stream callbacks", "Host functions"): a null
// function and callback flags other than 0, on every kind of stream. Each
// returns mcErrorInvalidValue, records it as the last error and enqueues
// nothing: after the stream is synchronized the function has not run.
// The control beside each, the same call with the argument fixed, runs it
// once. Bad stream handles are in stream_handle_test.cc.

#include <mc_runtime.h>

#include <tuple>

#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

void CountCallback(mcStream_t, mcError_t, void* count) {
  ++*static_cast<int*>(count);
}

void CountHostFunction(void* count) { ++*static_cast<int*>(count); }

class NullFunction : public testing::TestWithParam<StreamKind> {};

TEST_P(NullFunction, NullCallbackIsInvalidValue) {
  MX_SPEC("api.callback.add.null-callback-is-invalid-value",
          "api.error.last.recorded-on-failure");
  TestStream stream(GetParam());
  ASSERT_EQ(stream.status(), mcSuccess);
  int count = 0;
  EXPECT_EQ(mcStreamAddCallback(stream.get(), nullptr, &count, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Null with bad flags too: still mcErrorInvalidValue.
  EXPECT_EQ(mcStreamAddCallback(stream.get(), nullptr, &count, 1),
            mcErrorInvalidValue);
  mcGetLastError();
  ASSERT_EQ(mcStreamSynchronize(stream.get()), mcSuccess);
  // Control: a callback is accepted and runs once.
  ASSERT_EQ(mcStreamAddCallback(stream.get(), CountCallback, &count, 0),
            mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream.get()), mcSuccess);
  EXPECT_EQ(count, 1);
}

TEST_P(NullFunction, NullHostFunctionIsInvalidValue) {
  MX_SPEC("api.callback.host-func.null-function-is-invalid-value",
          "api.error.last.recorded-on-failure");
  TestStream stream(GetParam());
  ASSERT_EQ(stream.status(), mcSuccess);
  int count = 0;
  EXPECT_EQ(mcLaunchHostFunc(stream.get(), nullptr, &count),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  ASSERT_EQ(mcStreamSynchronize(stream.get()), mcSuccess);
  // Control.
  ASSERT_EQ(mcLaunchHostFunc(stream.get(), CountHostFunction, &count),
            mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream.get()), mcSuccess);
  EXPECT_EQ(count, 1);
}

INSTANTIATE_TEST_SUITE_P(Kinds, NullFunction,
                         testing::ValuesIn(kAllStreamKinds), KindName);

class CallbackFlags : public testing::TestWithParam<FlagsOnKind> {};

TEST_P(CallbackFlags, NonzeroFlagsAreInvalidValueAndNothingRuns) {
  MX_SPEC("api.callback.add.nonzero-flags-is-invalid-value",
          "api.callback.add.runs-exactly-once");
  TestStream stream(std::get<1>(GetParam()));
  ASSERT_EQ(stream.status(), mcSuccess);
  int count = 0;
  EXPECT_EQ(mcStreamAddCallback(stream.get(), CountCallback, &count,
                                std::get<0>(GetParam())),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(count, 0) << "a refused callback ran";
  // Control: flags 0.
  ASSERT_EQ(mcStreamAddCallback(stream.get(), CountCallback, &count, 0),
            mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(count, 1);
}

INSTANTIATE_TEST_SUITE_P(
    Flags, CallbackFlags,
    testing::Combine(testing::Values(1u, 2u, 0x100u, 0x80000000u, 0xffffffffu),
                     testing::ValuesIn(kAllStreamKinds)),
    FlagsOnKindName);

}  // namespace
}  // namespace mxcts::conformance
