// Copyright mxcts authors.
//
// Tests of the stream table: creation, destruction, validation of handles.

#include "reference/runtime/stream.h"

#include <gtest/gtest.h>

#include "reference/runtime/error_mapping.h"

namespace mxcts::runtime {
namespace {

StreamTable& T() { return StreamTable::Get(); }

TEST(StreamTable, CreatedStreamBelongsToItsDevice) {
  mcStream_t s = *T().Create(1, mcStreamNonBlocking);
  EXPECT_FALSE(StreamTable::IsDefaultStream(s));
  EXPECT_EQ(*T().DeviceOf(s, /*current_device=*/0), 1);
  EXPECT_EQ(s->flags, unsigned{mcStreamNonBlocking});
  EXPECT_TRUE(T().Destroy(s).ok());
}

TEST(StreamTable, DefaultStreamsNameTheCurrentDevice) {
  for (mcStream_t s :
       {mcStream_t{nullptr}, mcStreamLegacy, mcStreamPerThread}) {
    EXPECT_TRUE(StreamTable::IsDefaultStream(s));
    EXPECT_EQ(*T().DeviceOf(s, 1), 1);
  }
}

TEST(StreamTable, HandlesAreDistinct) {
  mcStream_t a = *T().Create(0, 0);
  mcStream_t b = *T().Create(0, 0);
  EXPECT_NE(a, b);
  EXPECT_NE(a, mcStreamLegacy);
  EXPECT_NE(a, mcStreamPerThread);
  T().Destroy(a).IgnoreError();
  T().Destroy(b).IgnoreError();
}

TEST(StreamTable, DestroyedOrForeignHandleIsInvalidResourceHandle) {
  mcStream_t s = *T().Create(0, 0);
  ASSERT_TRUE(T().Destroy(s).ok());
  EXPECT_EQ(ToMcError(T().Destroy(s)), mcErrorInvalidResourceHandle);
  EXPECT_EQ(ToMcError(T().DeviceOf(s, 0).status()),
            mcErrorInvalidResourceHandle);
  int not_a_stream = 0;
  auto bogus = reinterpret_cast<mcStream_t>(&not_a_stream);
  EXPECT_EQ(ToMcError(T().DeviceOf(bogus, 0).status()),
            mcErrorInvalidResourceHandle);
  // A new stream never gets the destroyed one's handle.
  mcStream_t fresh = *T().Create(0, 0);
  EXPECT_NE(fresh, s);
  T().Destroy(fresh).IgnoreError();
}

TEST(StreamTable, DefaultStreamsCannotBeDestroyed) {
  for (mcStream_t s :
       {mcStream_t{nullptr}, mcStreamLegacy, mcStreamPerThread}) {
    EXPECT_EQ(ToMcError(T().Destroy(s)), mcErrorInvalidResourceHandle);
  }
}

TEST(StreamTable, DestroyAllEndsOnlyThatDevicesStreams) {
  mcStream_t on0 = *T().Create(0, 0);
  mcStream_t on1 = *T().Create(1, 0);
  T().DestroyAll(0);
  EXPECT_FALSE(T().DeviceOf(on0, 0).ok());
  EXPECT_TRUE(T().DeviceOf(on1, 0).ok());
  T().Destroy(on1).IgnoreError();
}

}  // namespace
}  // namespace mxcts::runtime
