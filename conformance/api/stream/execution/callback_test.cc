// Copyright mxcts authors.
//
// Conformance: stream callbacks (mcStreamAddCallback) and host functions
// (mcLaunchHostFunc) in every kind of stream on every device: each runs
// once, in stream order, with its arguments; later work waits for it; and
// a runtime call made inside one is refused (docs/spec/api-stream.md,
// "Stream callbacks", "Host functions").
//
// These results hold in every timeline mode (the target also runs as
// _deferred and _shuffle). Callbacks after a device fault are in
// callback_fault_test.cc, each in a fresh process.

#include <mc_runtime.h>

#include <mutex>
#include <string>
#include <vector>

#include "conformance/api/testing/follow_kernel.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// What one callback received.
struct Call {
  mcStream_t stream;
  mcError_t status;
  void* user_data;
};

// The calls made to a callback, shared by every user-data token.
struct CallRecord {
  std::mutex mu;
  std::vector<Call> calls;
};

// User data: the record, and a cell the callback moves along a chain.
struct Token {
  CallRecord* record;
  int* cell;
  int expected;
  int value;
};

void RecordCall(mcStream_t stream, mcError_t status, void* user_data) {
  Token* token = static_cast<Token*>(user_data);
  {
    std::lock_guard<std::mutex> lock(token->record->mu);
    token->record->calls.push_back(Call{stream, status, user_data});
  }
  if (token->cell != nullptr) {
    *token->cell = *token->cell == token->expected ? token->value : kTooEarly;
  }
}

void RecordHostCall(void* user_data) {
  RecordCall(nullptr, mcSuccess, user_data);
}

// A stream of the parameter's kind on its device, which is current, and a
// managed cell holding 0.
class Callback : public StreamOnDeviceTest {};

TEST_P(Callback, EachRunsOnceWithItsArgumentsAndSuccess) {
  MX_SPEC("api.callback.add.runs-exactly-once",
          "api.callback.add.receives-arguments",
          "api.callback.add.status-reports-prior-failure");
  CallRecord record;
  Token tokens[4] = {{&record, nullptr, 0, 0},
                     {&record, nullptr, 0, 0},
                     {&record, nullptr, 0, 0},
                     {&record, nullptr, 0, 0}};
  for (Token& token : tokens) {
    ASSERT_EQ(mcStreamAddCallback(stream(), RecordCall, &token, 0), mcSuccess);
  }
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  ASSERT_EQ(record.calls.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(record.calls[i].stream, stream()) << i;
    EXPECT_EQ(record.calls[i].status, mcSuccess) << i;
    EXPECT_EQ(record.calls[i].user_data, &tokens[i]) << i;
  }
  // Waiting again calls nothing again.
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(record.calls.size(), 4u);
}

TEST_P(Callback, SeesEarlierWorkAndHoldsBackLaterWork) {
  MX_SPEC("api.callback.add.runs-after-preceding-work",
          "api.callback.add.blocks-later-work",
          "api.callback.host-func.synchronize-waits");
  CallRecord record;
  Token token{&record, cell(), 1, 2};
  Follow<<<1, 1, 0, stream()>>>(cell(), 0, 1);
  ASSERT_EQ(mcStreamAddCallback(stream(), RecordCall, &token, 0), mcSuccess);
  Follow<<<1, 1, 0, stream()>>>(cell(), 2, 3);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  EXPECT_EQ(*cell(), 3);
  EXPECT_EQ(record.calls.size(), 1u);
}

TEST_P(Callback, HostFunctionSeesEarlierWorkAndHoldsBackLaterWork) {
  MX_SPEC("api.callback.host-func.runs-in-stream-order",
          "api.callback.host-func.synchronize-waits");
  CallRecord record;
  Token tokens[2] = {{&record, cell(), 1, 2}, {&record, cell(), 3, 4}};
  Follow<<<1, 1, 0, stream()>>>(cell(), 0, 1);
  ASSERT_EQ(mcLaunchHostFunc(stream(), RecordHostCall, &tokens[0]), mcSuccess);
  Follow<<<1, 1, 0, stream()>>>(cell(), 2, 3);
  ASSERT_EQ(mcLaunchHostFunc(stream(), RecordHostCall, &tokens[1]), mcSuccess);
  Follow<<<1, 1, 0, stream()>>>(cell(), 4, 5);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*cell(), 5);
  ASSERT_EQ(record.calls.size(), 2u);
  EXPECT_EQ(record.calls[0].user_data, &tokens[0]);
  EXPECT_EQ(record.calls[1].user_data, &tokens[1]);
}

// The results of runtime calls made inside a callback or host function.
struct InsideCalls {
  mcStream_t stream;
  std::vector<mcError_t> results;
};

void DoNothing(void*) {}

void CallTheRuntime(InsideCalls* inside) {
  int count = 0;
  int device = 0;
  void* memory = nullptr;
  mcEvent_t event = nullptr;
  inside->results = {
      mcGetDeviceCount(&count),
      mcGetDevice(&device),
      mcStreamQuery(inside->stream),
      mcStreamSynchronize(inside->stream),
      mcDeviceSynchronize(),
      mcMalloc(&memory, 64),
      mcEventCreate(&event),
      mcLaunchHostFunc(inside->stream, DoNothing, nullptr),
  };
  if (memory != nullptr) mcFree(memory);
  if (event != nullptr) mcEventDestroy(event);
}

void CallTheRuntimeFromCallback(mcStream_t, mcError_t, void* inside) {
  CallTheRuntime(static_cast<InsideCalls*>(inside));
}

void CallTheRuntimeFromHostFunction(void* inside) {
  CallTheRuntime(static_cast<InsideCalls*>(inside));
}

TEST_P(Callback, RuntimeCallsInsideAreNotPermitted) {
  MX_SPEC("api.callback.reference.api-call-not-permitted",
          "api.callback.add.api-call-inside-undefined",
          "api.callback.host-func.api-call-inside-undefined");
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  InsideCalls from_callback{stream(), {}};
  InsideCalls from_host_function{stream(), {}};
  ASSERT_EQ(mcStreamAddCallback(stream(), CallTheRuntimeFromCallback,
                                &from_callback, 0),
            mcSuccess);
  ASSERT_EQ(mcLaunchHostFunc(stream(), CallTheRuntimeFromHostFunction,
                             &from_host_function),
            mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream()), mcSuccess);
  for (const InsideCalls* inside : {&from_callback, &from_host_function}) {
    ASSERT_EQ(inside->results.size(), 8u);
    for (size_t i = 0; i < inside->results.size(); ++i) {
      EXPECT_EQ(inside->results[i], mcErrorNotPermitted) << "call " << i;
    }
  }
  // The refused calls are no error of the thread that waited.
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  // Control: the same calls outside any callback succeed.
  InsideCalls outside{stream(), {}};
  CallTheRuntime(&outside);
  for (size_t i = 0; i < outside.results.size(); ++i) {
    EXPECT_EQ(outside.results[i], mcSuccess) << "call " << i;
  }
  EXPECT_EQ(mcStreamSynchronize(stream()), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(KindsAndDevices, Callback,
                         testing::Combine(testing::ValuesIn(kAllStreamKinds),
                                          testing::Values(0, 1)),
                         KindOnDeviceName);

}  // namespace
}  // namespace mxcts::conformance
