// Conformance: the errors of bad calls of the basic memory API, each beside
// a control call that succeeds (docs/spec/api-memory.md).

#include <mc_runtime.h>

#include "conformance/testing/spec.h"

namespace {

TEST(MemoryValidation, MallocNullOutPointer) {
  MX_SPEC("api.memory.malloc.null-pointer-to-pointer");
  EXPECT_EQ(mcMalloc(static_cast<void**>(nullptr), 16), mcErrorInvalidValue);
  void* control = nullptr;
  EXPECT_EQ(mcMalloc(&control, 16), mcSuccess);
  mcFree(control);
}

TEST(MemoryValidation, FreeOfHostPointer) {
  MX_SPEC("api.memory.free.non-device-pointer");
  int on_stack = 0;
  EXPECT_EQ(mcFree(&on_stack), mcErrorInvalidValue);
}

TEST(MemoryValidation, FreeOfInteriorPointerKeepsAllocation) {
  MX_SPEC("api.memory.free.interior-pointer");
  char* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, 64), mcSuccess);
  EXPECT_EQ(mcFree(device + 8), mcErrorInvalidValue);
  // The allocation stays live: it can still be written and freed.
  EXPECT_EQ(mcMemset(device, 0, 64), mcSuccess);
  EXPECT_EQ(mcFree(device), mcSuccess);
}

TEST(MemoryValidation, DoubleFree) {
  MX_SPEC("api.memory.free.double-free");
  void* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, 32), mcSuccess);
  EXPECT_EQ(mcFree(device), mcSuccess);
  EXPECT_EQ(mcFree(device), mcErrorInvalidValue);
}

TEST(MemoryValidation, MemcpyInvalidKind) {
  MX_SPEC("api.memory.memcpy.invalid-kind");
  int source = 1, destination = 0;
  EXPECT_EQ(mcMemcpy(&destination, &source, sizeof(int),
                     static_cast<mcMemcpyKind>(77)),
            mcErrorInvalidMemcpyDirection);
  EXPECT_EQ(destination, 0);
  EXPECT_EQ(mcMemcpy(&destination, &source, sizeof(int), mcMemcpyHostToHost),
            mcSuccess);
  EXPECT_EQ(destination, 1);
}

TEST(MemoryValidation, MemcpyNullPointers) {
  MX_SPEC("api.memory.memcpy.null-pointer", "api.memory.memcpy.count-zero");
  int value = 3;
  EXPECT_EQ(mcMemcpy(nullptr, &value, sizeof(int), mcMemcpyHostToHost),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpy(&value, nullptr, sizeof(int), mcMemcpyHostToHost),
            mcErrorInvalidValue);
  // Control: a count of zero is fine even with null pointers.
  EXPECT_EQ(mcMemcpy(nullptr, nullptr, 0, mcMemcpyHostToHost), mcSuccess);
}

TEST(MemoryValidation, MemcpyPastEndOfAllocation) {
  MX_SPEC("api.memory.memcpy.past-end-of-allocation");
  char* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, 16), mcSuccess);
  ASSERT_EQ(mcMemset(device, 7, 16), mcSuccess);
  char source[32] = {};
  EXPECT_EQ(mcMemcpy(device, source, 17, mcMemcpyHostToDevice),
            mcErrorInvalidValue);
  char read[16] = {};
  ASSERT_EQ(mcMemcpy(read, device, 16, mcMemcpyDeviceToHost), mcSuccess);
  for (char c : read) EXPECT_EQ(c, 7);
  EXPECT_EQ(mcMemcpy(device, source, 16, mcMemcpyHostToDevice), mcSuccess);
  mcFree(device);
}

}  // namespace
