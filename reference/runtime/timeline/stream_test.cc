// Copyright mxcts authors.
//
// Tests of the stream table: creation, destruction, validation of handles.

#include "reference/runtime/timeline/stream.h"

#include <gtest/gtest.h>

#include <thread>

#include "reference/runtime/errors/error_mapping.h"

namespace mxcts::runtime {
namespace {

StreamTable& T() { return StreamTable::Get(); }

TEST(StreamTable, CreatedStreamBelongsToItsDevice) {
  mcStream_t s = *T().Create(1, mcStreamNonBlocking, 0);
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
  mcStream_t a = *T().Create(0, 0, 0);
  mcStream_t b = *T().Create(0, 0, 0);
  EXPECT_NE(a, b);
  EXPECT_NE(a, mcStreamLegacy);
  EXPECT_NE(a, mcStreamPerThread);
  T().Destroy(a).IgnoreError();
  T().Destroy(b).IgnoreError();
}

TEST(StreamTable, DestroyedOrForeignHandleIsInvalidResourceHandle) {
  mcStream_t s = *T().Create(0, 0, 0);
  ASSERT_TRUE(T().Destroy(s).ok());
  EXPECT_EQ(ToMcError(T().Destroy(s)), mcErrorInvalidResourceHandle);
  EXPECT_EQ(ToMcError(T().DeviceOf(s, 0).status()),
            mcErrorInvalidResourceHandle);
  int not_a_stream = 0;
  auto bogus = reinterpret_cast<mcStream_t>(&not_a_stream);
  EXPECT_EQ(ToMcError(T().DeviceOf(bogus, 0).status()),
            mcErrorInvalidResourceHandle);
  // A new stream never gets the destroyed one's handle.
  mcStream_t fresh = *T().Create(0, 0, 0);
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
  mcStream_t on0 = *T().Create(0, 0, 0);
  mcStream_t on1 = *T().Create(1, 0, 0);
  T().DestroyAll(0);
  EXPECT_FALSE(T().DeviceOf(on0, 0).ok());
  EXPECT_TRUE(T().DeviceOf(on1, 0).ok());
  T().Destroy(on1).IgnoreError();
}

TEST(StreamTable, ResolveNamesTheQueueBehindEachHandle) {
  mcStream_t blocking = *T().Create(0, 0, -3);
  mcStream_t non_blocking = *T().Create(1, mcStreamNonBlocking, 0);
  ResolvedStream b = *T().Resolve(blocking, /*current_device=*/1);
  ResolvedStream n = *T().Resolve(non_blocking, /*current_device=*/0);
  EXPECT_EQ(b.device, 0);
  EXPECT_EQ(b.priority, -3);
  EXPECT_EQ(b.queue->kind(), QueueKind::kBlocking);
  EXPECT_EQ(n.device, 1);
  EXPECT_EQ(n.flags, unsigned{mcStreamNonBlocking});
  EXPECT_EQ(n.queue->kind(), QueueKind::kNonBlocking);
  // 0 and mcStreamLegacy name one queue per device.
  ResolvedStream zero = *T().Resolve(nullptr, 1);
  ResolvedStream legacy = *T().Resolve(mcStreamLegacy, 1);
  EXPECT_EQ(zero.queue, legacy.queue);
  EXPECT_EQ(zero.queue->kind(), QueueKind::kLegacy);
  EXPECT_NE(zero.queue, T().Resolve(nullptr, 0)->queue);
  T().Destroy(blocking).IgnoreError();
  T().Destroy(non_blocking).IgnoreError();
  EXPECT_FALSE(T().Resolve(blocking, 0).ok());
}

TEST(StreamTable, PerThreadStreamIsOnePerThreadAndDevice) {
  Queue* mine = T().Resolve(mcStreamPerThread, 0)->queue;
  EXPECT_EQ(T().Resolve(mcStreamPerThread, 0)->queue, mine);
  EXPECT_NE(T().Resolve(mcStreamPerThread, 1)->queue, mine);
  EXPECT_EQ(mine->kind(), QueueKind::kBlocking);
  Queue* theirs = nullptr;
  std::thread other([&] { theirs = T().Resolve(mcStreamPerThread, 0)->queue; });
  other.join();
  EXPECT_NE(theirs, mine);
  EXPECT_NE(theirs, nullptr);
}

}  // namespace
}  // namespace mxcts::runtime
