// Copyright mxcts authors.
//
// Tests of the handle layout: round trips, and bytes that are no handle
// (zero, changed, the other kind, impossible layouts) decoding to nothing.

#include "reference/runtime/ipc/handle_codec.h"

#include <gtest/gtest.h>

#include <cstring>

namespace mxcts::runtime {
namespace {

MemHandleFields SomeMemory() {
  MemHandleFields fields;
  fields.pid = 4242;
  fields.fd = 17;
  fields.start_time = 123456789012345;
  fields.generation = 9;
  fields.size = 5000;
  fields.file_size = 8192;
  fields.offset = 256;
  fields.device = 1;
  return fields;
}

EventHandleFields SomeEvent() {
  EventHandleFields fields;
  fields.pid = 99;
  fields.fd = 3;
  fields.start_time = 77;
  fields.serial = 5;
  fields.device = 0;
  return fields;
}

TEST(MemHandle, RoundTrips) {
  std::optional<MemHandleFields> back =
      DecodeMemHandle(EncodeMemHandle(SomeMemory()));
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(*back == SomeMemory());
}

TEST(MemHandle, ZeroBytesAreNoHandle) {
  mcIpcMemHandle_t handle;
  std::memset(&handle, 0, sizeof handle);
  EXPECT_FALSE(DecodeMemHandle(handle).has_value());
}

TEST(MemHandle, EveryChangedByteIsDetected) {
  const mcIpcMemHandle_t good = EncodeMemHandle(SomeMemory());
  for (size_t i = 0; i < sizeof good; ++i) {
    mcIpcMemHandle_t changed = good;
    changed.reserved[i] ^= 0x01;
    EXPECT_FALSE(DecodeMemHandle(changed).has_value()) << "byte " << i;
  }
}

TEST(MemHandle, ImpossibleLayoutsAreNoHandle) {
  MemHandleFields fields = SomeMemory();
  fields.size = fields.file_size;  // past the end from offset 256
  EXPECT_FALSE(DecodeMemHandle(EncodeMemHandle(fields)).has_value());
  fields = SomeMemory();
  fields.size = 0;
  EXPECT_FALSE(DecodeMemHandle(EncodeMemHandle(fields)).has_value());
  fields = SomeMemory();
  fields.pid = 0;
  EXPECT_FALSE(DecodeMemHandle(EncodeMemHandle(fields)).has_value());
}

TEST(EventHandle, RoundTrips) {
  std::optional<EventHandleFields> back =
      DecodeEventHandle(EncodeEventHandle(SomeEvent()));
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(*back == SomeEvent());
}

TEST(Handles, KindsDoNotMix) {
  mcIpcMemHandle_t memory = EncodeMemHandle(SomeMemory());
  mcIpcEventHandle_t as_event;
  std::memcpy(&as_event, &memory, sizeof memory);
  EXPECT_FALSE(DecodeEventHandle(as_event).has_value());
  mcIpcEventHandle_t event = EncodeEventHandle(SomeEvent());
  mcIpcMemHandle_t as_memory;
  std::memcpy(&as_memory, &event, sizeof event);
  EXPECT_FALSE(DecodeMemHandle(as_memory).has_value());
}

}  // namespace
}  // namespace mxcts::runtime
