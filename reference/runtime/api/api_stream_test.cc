// Copyright mxcts authors.
//
// Tests of the stream entry points: validation and execution.

#include <gtest/gtest.h>

#include "mc_runtime.h"

namespace {

class Streams : public testing::Test {
 protected:
  void SetUp() override {
    mcSetDevice(0);
    mcGetLastError();
  }
  void TearDown() override {
    mcSetDevice(0);
    mcGetLastError();
  }
};

TEST_F(Streams, CreateValidation) {
  // [api.stream.create.null-pointer-is-invalid-value]
  EXPECT_EQ(mcStreamCreate(nullptr), mcErrorInvalidValue);
  EXPECT_EQ(mcStreamCreateWithFlags(nullptr, mcStreamDefault),
            mcErrorInvalidValue);
  // [api.stream.create-with-flags.invalid-flags-is-invalid-value]
  mcStream_t s = nullptr;
  EXPECT_EQ(mcStreamCreateWithFlags(&s, 0x2), mcErrorInvalidValue);
  EXPECT_EQ(s, nullptr);
}

TEST_F(Streams, CreatedStreamsAreDistinctAndIdle) {
  // [api.stream.create.returns-distinct-handles]
  // [api.stream.create.new-stream-is-idle]
  mcStream_t a = nullptr, b = nullptr;
  ASSERT_EQ(mcStreamCreate(&a), mcSuccess);
  ASSERT_EQ(mcStreamCreateWithFlags(&b, mcStreamNonBlocking), mcSuccess);
  EXPECT_NE(a, nullptr);
  EXPECT_NE(a, b);
  EXPECT_NE(a, mcStreamLegacy);
  EXPECT_NE(b, mcStreamPerThread);
  EXPECT_EQ(mcStreamSynchronize(a), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(b), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(a), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(b), mcSuccess);
}

TEST_F(Streams, FlagValues) {
  // [api.stream.create-with-flags.flag-values]
  EXPECT_EQ(mcStreamDefault, 0x00);
  EXPECT_EQ(mcStreamNonBlocking, 0x01);
}

TEST_F(Streams, DestroyValidation) {
  mcStream_t s = nullptr;
  ASSERT_EQ(mcStreamCreate(&s), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(s), mcSuccess);
  // [api.stream.destroy.twice-is-invalid-resource-handle]
  EXPECT_EQ(mcStreamDestroy(s), mcErrorInvalidResourceHandle);
  // [api.stream.destroy.default-stream-is-invalid-resource-handle]
  EXPECT_EQ(mcStreamDestroy(nullptr), mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcStreamDestroy(mcStreamLegacy), mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcStreamDestroy(mcStreamPerThread), mcErrorInvalidResourceHandle);
}

TEST_F(Streams, SynchronizeValidation) {
  // [api.stream.handle.invalid-handle-is-invalid-resource-handle]
  int not_a_stream = 0;
  EXPECT_EQ(mcStreamSynchronize(reinterpret_cast<mcStream_t>(&not_a_stream)),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcStreamSynchronize(nullptr), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(mcStreamLegacy), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(mcStreamPerThread), mcSuccess);
}

TEST_F(Streams, StreamOfAnotherDeviceCanBeSynchronized) {
  // [api.stream.synchronize.other-device-stream]
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  mcStream_t on1 = nullptr;
  ASSERT_EQ(mcStreamCreate(&on1), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(on1), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(on1), mcSuccess);
}

}  // namespace
