// Copyright mxcts authors.
//
// Conformance: how a kernel receives its parameters
// (docs/spec/lang-function-spaces.md, "__global__"): by value, a copy per
// thread made at launch; class types byte for byte; parameter lists of at
// least 4096 bytes. Each check has a control that would see the rule
// broken: a thread that changes its copy, a host change after the launch,
// the last byte of the largest parameter.

#include <mc_runtime.h>

#include <cstring>

#include "conformance/testing/spec.h"

namespace {

// Every thread reads its parameter, then thread 0 changes its own copy and
// every thread reads again after a barrier: a shared parameter would show
// thread 0's value in the others.
__global__ void ChangeOwnCopy(int value, int* before, int* after) {
  before[threadIdx.x] = value;
  if (threadIdx.x == 0) value = -1;
  __syncthreads();
  after[threadIdx.x] = value;
}

TEST(KernelParameters, EachThreadChangesOnlyItsOwnCopy) {
  MX_SPEC("lang.function.global.parameters-by-value");
  constexpr int kThreads = 128;
  int* before = nullptr;
  int* after = nullptr;
  ASSERT_EQ(mcMallocManaged(&before, kThreads * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMallocManaged(&after, kThreads * sizeof(int)), mcSuccess);
  int host_value = 17;
  ChangeOwnCopy<<<1, kThreads>>>(host_value, before, after);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  // Control: thread 0's change is visible to thread 0 itself.
  EXPECT_EQ(after[0], -1);
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(before[t], 17) << "thread " << t;
  for (int t = 1; t < kThreads; ++t) EXPECT_EQ(after[t], 17) << "thread " << t;
  EXPECT_EQ(host_value, 17);  // nor is the host's variable changed
  mcFree(before);
  mcFree(after);
}

// A kernel that writes through its pointer parameter and changes the
// pointer itself: the host's pointer variable is unchanged.
__global__ void AdvanceOwnPointer(int* p) {
  *p = 5;
  ++p;
  *p = 6;
}

TEST(KernelParameters, APointerParameterIsACopyOfThePointer) {
  MX_SPEC("lang.function.global.parameters-by-value");
  int* cells = nullptr;
  ASSERT_EQ(mcMallocManaged(&cells, 2 * sizeof(int)), mcSuccess);
  int* const original = cells;
  AdvanceOwnPointer<<<1, 1>>>(cells);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(cells, original);
  // Control: the writes through the copy reach the memory it points to.
  EXPECT_EQ(cells[0], 5);
  EXPECT_EQ(cells[1], 6);
  mcFree(cells);
}

// A struct of mixed fields, with padding, and an array member.
struct Mixed {
  char tag;
  double scale;
  short pair[2];
  int values[5];
  float* target;
};

__global__ void CopyMixed(Mixed in, Mixed* out) { *out = in; }

TEST(KernelParameters, StructParametersArriveByteForByte) {
  MX_SPEC("lang.function.global.struct-parameters");
  Mixed* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, sizeof(Mixed)), mcSuccess);
  std::memset(out, 0, sizeof(Mixed));
  float marker = 0;
  Mixed in{'q', 2.75, {-3, 4}, {1, 2, 3, 4, 5}, &marker};
  CopyMixed<<<1, 1>>>(in, out);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out->tag, 'q');
  EXPECT_EQ(out->scale, 2.75);
  EXPECT_EQ(out->pair[0], -3);
  EXPECT_EQ(out->pair[1], 4);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out->values[i], i + 1);
  EXPECT_EQ(out->target, &marker);
  mcFree(out);
}

TEST(KernelParameters, StructArgumentIsCopiedWhenTheLaunchIsMade) {
  MX_SPEC("lang.function.global.struct-parameters",
          "lang.function.global.parameters-by-value");
  Mixed* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 2 * sizeof(Mixed)), mcSuccess);
  Mixed in{'a', 1.0, {1, 1}, {7, 7, 7, 7, 7}, nullptr};
  CopyMixed<<<1, 1>>>(in, out);
  // Changed after the launch returned: the first kernel keeps the old
  // bytes, the second (the control) sees the new ones.
  in.tag = 'b';
  in.values[4] = 9;
  CopyMixed<<<1, 1>>>(in, out + 1);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0].tag, 'a');
  EXPECT_EQ(out[0].values[4], 7);
  EXPECT_EQ(out[1].tag, 'b');
  EXPECT_EQ(out[1].values[4], 9);
  mcFree(out);
}

// Parameters of 4096 bytes in all: the least limit any implementation
// allows (one 4088-byte struct and a pointer).
struct Block4088 {
  unsigned char bytes[4088];
};
static_assert(sizeof(Block4088) + sizeof(unsigned char*) == 4096,
              "the kernel's parameters total exactly 4096 bytes");

__global__ void SumLargeParameter(Block4088 block, unsigned* out) {
  unsigned sum = 0;
  for (unsigned i = 0; i < sizeof(block.bytes); ++i) sum += block.bytes[i];
  out[0] = sum;
  out[1] = block.bytes[0];
  out[2] = block.bytes[sizeof(block.bytes) - 1];
}

TEST(KernelParameters, ParametersOf4096BytesAreAccepted) {
  MX_SPEC("lang.function.global.parameter-size-limit",
          "lang.function.global.struct-parameters");
  unsigned* out = nullptr;
  ASSERT_EQ(mcMallocManaged(&out, 3 * sizeof(unsigned)), mcSuccess);
  Block4088 block;
  unsigned expected = 0;
  for (unsigned i = 0; i < sizeof(block.bytes); ++i) {
    block.bytes[i] = static_cast<unsigned char>(i * 7 + 3);
    expected += block.bytes[i];
  }
  SumLargeParameter<<<1, 1>>>(block, out);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(out[0], expected);
  // Control: the first and last bytes are the ones the host wrote, so a
  // truncated copy would show.
  EXPECT_EQ(out[1], 3u);
  EXPECT_EQ(out[2], static_cast<unsigned char>(4087 * 7 + 3));
  mcFree(out);
}

}  // namespace
