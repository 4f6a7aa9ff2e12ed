// Copyright mxcts authors.
//
// Conformance: the errors of creating and destroying streams
// (docs/spec/api-stream.md, "Creating streams", "Destroying streams"). Each
// bad call returns its error, records it as the last error and changes
// nothing: the output is left as it was, no stream appears, and the same
// call with the one broken argument fixed (the control beside it) works.

#include <mc_runtime.h>

#include <cstdint>
#include <string>
#include <tuple>

#include "conformance/api/testing/order_log.h"
#include "conformance/api/testing/scoped_device.h"
#include "conformance/api/testing/stream_fixtures.h"
#include "conformance/api/testing/stream_kind.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

// A handle value no call returned: it stays unchanged by failing calls.
mcStream_t Sentinel() { return reinterpret_cast<mcStream_t>(0x5e471e1); }

// The three creation calls, with the flags and priority they pass.
enum class Creator { kCreate, kWithFlags, kWithPriority };

const char* CreatorName(Creator creator) {
  switch (creator) {
    case Creator::kCreate:
      return "Create";
    case Creator::kWithFlags:
      return "CreateWithFlags";
    case Creator::kWithPriority:
      return "CreateWithPriority";
  }
  return "Unknown";
}

mcError_t CreateStream(Creator creator, mcStream_t* stream, unsigned flags) {
  switch (creator) {
    case Creator::kCreate:
      return mcStreamCreate(stream);
    case Creator::kWithFlags:
      return mcStreamCreateWithFlags(stream, flags);
    case Creator::kWithPriority:
      return mcStreamCreateWithPriority(stream, flags, -1);
  }
  return mcErrorUnknown;
}

// (creator, flags, device)
using NullCase = std::tuple<Creator, unsigned, int>;

std::string NullCaseName(const testing::TestParamInfo<NullCase>& info) {
  return std::string(CreatorName(std::get<0>(info.param))) + "_Flags" +
         std::to_string(std::get<1>(info.param)) + "_Device" +
         std::to_string(std::get<2>(info.param));
}

class NullStreamOutput : public testing::TestWithParam<NullCase> {};

TEST_P(NullStreamOutput, IsInvalidValue) {
  MX_SPEC("api.stream.create.null-pointer-is-invalid-value",
          "api.error.last.recorded-on-failure");
  const auto [creator, flags, device] = GetParam();
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device + 1);
  ScopedDevice on(device);
  ASSERT_TRUE(on.ok());
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  EXPECT_EQ(CreateStream(creator, nullptr, flags), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Control: the same call with an output creates a stream.
  mcStream_t stream = Sentinel();
  ASSERT_EQ(CreateStream(creator, &stream, flags), mcSuccess);
  EXPECT_NE(stream, Sentinel());
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Creators, NullStreamOutput,
                         testing::Values(NullCase{Creator::kCreate, 0, 0},
                                         NullCase{Creator::kCreate, 0, 1},
                                         NullCase{Creator::kWithFlags, 0, 0},
                                         NullCase{Creator::kWithFlags, 1, 0},
                                         NullCase{Creator::kWithFlags, 1, 1},
                                         NullCase{Creator::kWithPriority, 0, 0},
                                         NullCase{Creator::kWithPriority, 1, 0},
                                         NullCase{Creator::kWithPriority, 1,
                                                  1}),
                         NullCaseName);

using FlagsCase = std::tuple<Creator, unsigned>;

std::string FlagsCaseName(const testing::TestParamInfo<FlagsCase>& info) {
  return std::string(CreatorName(std::get<0>(info.param))) + "_" +
         HexName(std::get<1>(info.param));
}

class StreamFlags : public testing::TestWithParam<FlagsCase> {};

TEST_P(StreamFlags, UnknownBitIsInvalidValue) {
  MX_SPEC("api.stream.create-with-flags.invalid-flags-is-invalid-value",
          "api.error.last.recorded-on-failure");
  const auto [creator, flags] = GetParam();
  mcStream_t stream = Sentinel();
  EXPECT_EQ(CreateStream(creator, &stream, flags), mcErrorInvalidValue);
  EXPECT_EQ(stream, Sentinel()) << "the output was written";
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Control: only the known bit kept.
  ASSERT_EQ(CreateStream(creator, &stream, flags & mcStreamNonBlocking),
            mcSuccess);
  unsigned reported = 0xdead;
  EXPECT_EQ(mcStreamGetFlags(stream, &reported), mcSuccess);
  EXPECT_EQ(reported, flags & mcStreamNonBlocking);
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Flags, StreamFlags,
    testing::Combine(
        testing::Values(Creator::kWithFlags, Creator::kWithPriority),
        testing::Values(0x2u, 0x3u, 0x4u, 0x8u, 0x10u, 0x80u, 0x100u, 0x10000u,
                        0x80000000u, 0xfffffffeu, 0xffffffffu)),
    FlagsCaseName);

class StreamFlagsAccepted : public testing::TestWithParam<FlagsCase> {};

TEST_P(StreamFlagsAccepted, KnownFlagsCreateAStream) {
  MX_SPEC("api.stream.create-with-flags.default-flag",
          "api.stream.create-with-flags.non-blocking-flag",
          "api.stream.get-flags.reports-creation-flags");
  const auto [creator, flags] = GetParam();
  mcStream_t stream = Sentinel();
  ASSERT_EQ(CreateStream(creator, &stream, flags), mcSuccess);
  unsigned reported = 0xdead;
  EXPECT_EQ(mcStreamGetFlags(stream, &reported), mcSuccess);
  EXPECT_EQ(reported, flags);
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Flags, StreamFlagsAccepted,
    testing::Combine(testing::Values(Creator::kWithFlags,
                                     Creator::kWithPriority),
                     testing::Values(unsigned{mcStreamDefault},
                                     unsigned{mcStreamNonBlocking})),
    FlagsCaseName);

class DestroyDefaultStream : public testing::TestWithParam<KindOnDevice> {};

TEST_P(DestroyDefaultStream, IsInvalidResourceHandleAndTheStreamLives) {
  MX_SPEC("api.stream.destroy.default-stream-is-invalid-resource-handle",
          "api.error.last.recorded-on-failure");
  const auto [kind, device] = GetParam();
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device + 1);
  ScopedDevice on(device);
  ASSERT_TRUE(on.ok());
  TestStream stream(kind);
  EXPECT_EQ(mcStreamDestroy(stream.get()), mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  // The default stream still runs work.
  OrderLog log;
  ASSERT_EQ(log.Append(stream.get(), "after"), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream.get()), mcSuccess);
  EXPECT_EQ(log.Joined(), "after");
  EXPECT_EQ(mcStreamDestroy(stream.get()), mcErrorInvalidResourceHandle);
  mcGetLastError();
}

INSTANTIATE_TEST_SUITE_P(
    DefaultStreams, DestroyDefaultStream,
    testing::Combine(testing::ValuesIn(kDefaultStreamKinds),
                     testing::Values(0, 1)),
    KindOnDeviceName);

class DestroyTwice : public testing::TestWithParam<KindOnDevice> {};

TEST_P(DestroyTwice, SecondDestroyIsInvalidResourceHandle) {
  MX_SPEC("api.stream.destroy.twice-is-invalid-resource-handle");
  const auto [kind, device] = GetParam();
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", device + 1);
  ScopedDevice on(device);
  ASSERT_TRUE(on.ok());
  mcStream_t stream = nullptr;
  ASSERT_EQ(kind == StreamKind::kNonBlocking
                ? mcStreamCreateWithFlags(&stream, mcStreamNonBlocking)
                : mcStreamCreateWithPriority(
                      &stream, 0, kind == StreamKind::kPriority ? -2 : 0),
            mcSuccess);
  // Control: the first destroy succeeds.
  EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(stream), mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  // A new stream still works.
  TestStream fresh(kind);
  ASSERT_EQ(fresh.status(), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(fresh.get()), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    CreatedStreams, DestroyTwice,
    testing::Combine(testing::ValuesIn(kCreatedStreamKinds),
                     testing::Values(0, 1)),
    KindOnDeviceName);

// A stream that allocated and freed stream-ordered memory is destroyed,
// then new streams are made. An implementation may hand one of them the
// destroyed stream's handle (the handle is then that live stream's); while
// none has it, the destroyed handle is invalid. Every new stream works.
TEST(DestroyTwice, AfterStreamOrderedAllocationAsNewStreamsAreMade) {
  MX_SPEC("api.stream.destroy.twice-is-invalid-resource-handle",
          "api.stream.handle.invalid-handle-is-invalid-resource-handle");
  MX_REQUIRE_CAPABILITY("memory_pools");
  mcStream_t destroyed = nullptr;
  ASSERT_EQ(mcStreamCreateWithFlags(&destroyed, mcStreamNonBlocking),
            mcSuccess);
  void* block = nullptr;
  ASSERT_EQ(mcMallocAsync(&block, 256, destroyed), mcSuccess);
  ASSERT_EQ(mcFreeAsync(block, destroyed), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(destroyed), mcSuccess);
  // Control: the stream is live until destroyed.
  EXPECT_EQ(mcStreamQuery(destroyed), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(destroyed), mcSuccess);
  constexpr int kNewStreams = 8;
  mcStream_t fresh[kNewStreams] = {};
  bool handle_reused = false;
  for (int i = 0; i < kNewStreams; ++i) {
    ASSERT_EQ(mcStreamCreateWithFlags(&fresh[i], mcStreamNonBlocking),
              mcSuccess);
    handle_reused = handle_reused || fresh[i] == destroyed;
    if (!handle_reused) {
      EXPECT_EQ(mcStreamQuery(destroyed), mcErrorInvalidResourceHandle)
          << "after " << i + 1 << " new streams";
      mcGetLastError();
    }
    void* other = nullptr;
    EXPECT_EQ(mcMallocAsync(&other, 256, fresh[i]), mcSuccess);
    EXPECT_EQ(mcFreeAsync(other, fresh[i]), mcSuccess);
    EXPECT_EQ(mcStreamSynchronize(fresh[i]), mcSuccess);
  }
  if (!handle_reused) {
    EXPECT_EQ(mcStreamDestroy(destroyed), mcErrorInvalidResourceHandle);
    mcGetLastError();
  }
  for (mcStream_t stream : fresh) EXPECT_EQ(mcStreamDestroy(stream), mcSuccess);
}

// Handle values no stream creation returned.
class DestroyNeverCreated : public testing::TestWithParam<uintptr_t> {};

TEST_P(DestroyNeverCreated, IsInvalidResourceHandle) {
  MX_SPEC("api.stream.destroy.twice-is-invalid-resource-handle",
          "api.stream.handle.invalid-handle-is-invalid-resource-handle");
  int local = 0;
  const mcStream_t handle = GetParam() != 0
                                ? reinterpret_cast<mcStream_t>(GetParam())
                                : reinterpret_cast<mcStream_t>(&local);
  EXPECT_EQ(mcStreamDestroy(handle), mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
}

INSTANTIATE_TEST_SUITE_P(Handles, DestroyNeverCreated,
                         testing::Values(uintptr_t{0}, uintptr_t{0x3},
                                         uintptr_t{0x1000},
                                         uintptr_t{0xdeadbeef0}));

TEST(DestroyNeverCreated, EventHandleIsNoStream) {
  MX_SPEC("api.stream.handle.invalid-handle-is-invalid-resource-handle");
  mcEvent_t event = nullptr;
  ASSERT_EQ(mcEventCreate(&event), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(reinterpret_cast<mcStream_t>(event)),
            mcErrorInvalidResourceHandle);
  mcGetLastError();
  // The event is untouched.
  EXPECT_EQ(mcEventRecord(event, nullptr), mcSuccess);
  EXPECT_EQ(mcEventSynchronize(event), mcSuccess);
  EXPECT_EQ(mcEventDestroy(event), mcSuccess);
}

}  // namespace
}  // namespace mxcts::conformance
