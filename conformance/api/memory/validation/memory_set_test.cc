// Copyright mxcts authors.
//
// Conformance: the errors of bad linear sets (docs/spec/api-memory.md):
// mcMemset, mcMemsetAsync and mcMemsetD8/D16/D32 (+Async) on memory the
// runtime does not know, a null or released pointer, a range past the end
// of its allocation, and elements that are not aligned. Each case checks
// that no byte changed, beside a control that succeeds.

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::Buffer;
using mxcts::conformance::memory::FirstDifference;
using mxcts::conformance::memory::Kind;
using mxcts::conformance::memory::KindName;

enum class SetCall { kMemset, kMemsetAsync, kD8, kD16, kD32, kD32Async };

const char* SetCallName(SetCall call) {
  static const char* const kNames[] = {"Memset", "MemsetAsync", "D8",
                                       "D16",    "D32",         "D32Async"};
  return kNames[static_cast<int>(call)];
}

size_t ElementSize(SetCall call) {
  return call == SetCall::kD16                                 ? 2
         : call == SetCall::kD32 || call == SetCall::kD32Async ? 4
                                                               : 1;
}

// Sets `bytes` bytes (a multiple of the element size) at `p`.
mcError_t Set(SetCall call, void* p, size_t bytes) {
  mcError_t result = mcSuccess;
  switch (call) {
    case SetCall::kMemset:
      return mcMemset(p, 0x5A, bytes);
    case SetCall::kMemsetAsync:
      result = mcMemsetAsync(p, 0x5A, bytes);
      break;
    case SetCall::kD8:
      return mcMemsetD8(p, 0x5A, bytes);
    case SetCall::kD16:
      return mcMemsetD16(p, 0x5A5A, bytes / 2);
    case SetCall::kD32:
      return mcMemsetD32(p, 0x5A5A5A5A, bytes / 4);
    case SetCall::kD32Async:
      result = mcMemsetD32Async(p, 0x5A5A5A5A, bytes / 4, 0);
      break;
  }
  return result != mcSuccess ? result : mcStreamSynchronize(0);
}

const std::vector<SetCall>& AllCalls() {
  static const std::vector<SetCall> calls = {
      SetCall::kMemset, SetCall::kMemsetAsync, SetCall::kD8,
      SetCall::kD16,    SetCall::kD32,         SetCall::kD32Async};
  return calls;
}

// --- Memory the runtime does not know, or null. ---

class UnknownMemory : public testing::TestWithParam<SetCall> {};

TEST_P(UnknownMemory, IsInvalidValueAndWritesNothing) {
  MX_SPEC("api.memory.memset.not-device-memory", "api.memory.memset.count-zero",
          "api.memory.memset-d.sets-elements",
          "api.memory.lifetime.failed-call-changes-nothing");
  Buffer pageable(Kind::kPageable, 64, 1);
  ASSERT_TRUE(pageable.ok());
  EXPECT_EQ(Set(GetParam(), pageable.data(), 64), mcErrorInvalidValue);
  EXPECT_EQ(Set(GetParam(), nullptr, 64), mcErrorInvalidValue);
  EXPECT_EQ(pageable.FirstChange(), "");
  // Controls: count 0 with the same pointers; device memory.
  EXPECT_EQ(Set(GetParam(), pageable.data(), 0), mcSuccess);
  EXPECT_EQ(Set(GetParam(), nullptr, 0), mcSuccess);
  Buffer device(Kind::kDevice, 64, 2);
  ASSERT_TRUE(device.ok());
  EXPECT_EQ(Set(GetParam(), device.data(), 64), mcSuccess);
  EXPECT_EQ(
      FirstDifference(device.Read(), std::vector<unsigned char>(64, 0x5A)), "");
}

INSTANTIATE_TEST_SUITE_P(EveryCall, UnknownMemory,
                         testing::ValuesIn(AllCalls()),
                         [](const testing::TestParamInfo<SetCall>& info) {
                           return std::string(SetCallName(info.param));
                         });

// --- Past the end, or released. ---

struct RangeCase {
  SetCall call;
  Kind kind;
};

std::string RangeCaseName(const testing::TestParamInfo<RangeCase>& info) {
  return std::string(SetCallName(info.param.call)) + "_" +
         KindName(info.param.kind);
}

std::vector<RangeCase> RangeCases() {
  std::vector<RangeCase> cases;
  for (SetCall call : AllCalls()) {
    for (Kind kind :
         {Kind::kDevice, Kind::kPeer, Kind::kManaged, Kind::kPinned}) {
      cases.push_back({call, kind});
    }
  }
  return cases;
}

class PastEnd : public testing::TestWithParam<RangeCase> {};

TEST_P(PastEnd, IsInvalidValueAndWritesNothing) {
  MX_SPEC("api.memory.memset.past-end-of-allocation",
          "api.memory.lifetime.failed-call-changes-nothing");
  const RangeCase& c = GetParam();
  MX_REQUIRE_MEMORY_KIND(c.kind);
  Buffer buffer(c.kind, 4096 + 64, 1);
  ASSERT_TRUE(buffer.ok());
  const size_t element = ElementSize(c.call);
  unsigned char* at = buffer.data() + 64;
  EXPECT_EQ(Set(c.call, at, 4096 + element), mcErrorInvalidValue);
  EXPECT_EQ(Set(c.call, at, 2 * 4096), mcErrorInvalidValue);
  EXPECT_EQ(buffer.FirstChange(), "");
  EXPECT_EQ(Set(c.call, at, 4096), mcSuccess);  // control: to the end
}

INSTANTIATE_TEST_SUITE_P(EveryKind, PastEnd, testing::ValuesIn(RangeCases()),
                         RangeCaseName);

class Released : public testing::TestWithParam<RangeCase> {};

TEST_P(Released, IsInvalidValue) {
  MX_SPEC("api.memory.lifetime.freed-pointer-in-api",
          "api.memory.memset.not-device-memory");
  const RangeCase& c = GetParam();
  MX_REQUIRE_MEMORY_KIND(c.kind);
  unsigned char* p = nullptr;
  switch (c.kind) {
    case Kind::kPinned:
      ASSERT_EQ(mcMallocHost(&p, 256), mcSuccess);
      break;
    case Kind::kManaged:
      ASSERT_EQ(mcMallocManaged(&p, 256), mcSuccess);
      break;
    default: {
      mxcts::conformance::memory::ScopedDevice on(c.kind == Kind::kPeer);
      ASSERT_EQ(mcMalloc(&p, 256), mcSuccess);
      break;
    }
  }
  EXPECT_EQ(Set(c.call, p, 256), mcSuccess);  // control: while live
  ASSERT_EQ(c.kind == Kind::kPinned ? mcFreeHost(p) : mcFree(p), mcSuccess);
  EXPECT_EQ(Set(c.call, p, 256), mcErrorInvalidValue);
  EXPECT_EQ(Set(c.call, p + 128, 4), mcErrorInvalidValue);
}

INSTANTIATE_TEST_SUITE_P(EveryKind, Released, testing::ValuesIn(RangeCases()),
                         RangeCaseName);

// --- Elements not aligned. ---

struct AlignCase {
  SetCall call;
  size_t offset;
};

class Misaligned : public testing::TestWithParam<AlignCase> {};

TEST_P(Misaligned, IsInvalidValueAndWritesNothing) {
  MX_SPEC("api.memory.memset-d.alignment");
  const AlignCase& c = GetParam();
  Buffer device(Kind::kDevice, 256, 1);
  ASSERT_TRUE(device.ok());
  EXPECT_EQ(Set(c.call, device.data() + c.offset, 64), mcErrorInvalidValue);
  EXPECT_EQ(device.FirstChange(), "");
  // Control: aligned to the element.
  EXPECT_EQ(Set(c.call, device.data() + ElementSize(c.call), 64), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Offsets, Misaligned,
                         testing::Values(AlignCase{SetCall::kD16, 1},
                                         AlignCase{SetCall::kD16, 3},
                                         AlignCase{SetCall::kD32, 1},
                                         AlignCase{SetCall::kD32, 2},
                                         AlignCase{SetCall::kD32, 3},
                                         AlignCase{SetCall::kD32Async, 2}),
                         [](const testing::TestParamInfo<AlignCase>& info) {
                           return std::string(SetCallName(info.param.call)) +
                                  "_at" + std::to_string(info.param.offset);
                         });

}  // namespace
