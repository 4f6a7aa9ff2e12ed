// Copyright mxcts authors.
//
// Conformance: results of the linear sets (docs/spec/api-memory.md):
// mcMemset and mcMemsetAsync on every kind of memory the runtime knows, for
// sizes around a page, every interesting value, and the driver-style
// element sets mcMemsetD8/D16/D32 (+Async). Each set covers the middle of
// its buffer, so the bytes around it must stay as they were.

#include <mc_runtime.h>

#include <cstring>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::Buffer;
using mxcts::conformance::memory::FirstDifference;
using mxcts::conformance::memory::Kind;
using mxcts::conformance::memory::KindName;

constexpr size_t kOffset = 4;
constexpr size_t kSlack = 12;

enum class Form { kSync, kAsyncDefaultStream, kAsyncStream };

struct SetCase {
  Kind kind;
  size_t size;
  Form form;
};

class SetKinds : public testing::TestWithParam<SetCase> {};

TEST_P(SetKinds, SetsExactlyTheRange) {
  MX_SPEC("api.memory.memset.sets-bytes",
          "api.memory.memset-async.stream-ordered",
          "api.memory.managed.runtime-functions-accept");
  const SetCase& c = GetParam();
  MX_REQUIRE_MEMORY_KIND(c.kind);
  Buffer buffer(c.kind, c.size + kSlack, 1);
  ASSERT_TRUE(buffer.ok());
  unsigned char* at = buffer.data() + kOffset;
  switch (c.form) {
    case Form::kSync:
      ASSERT_EQ(mcMemset(at, 0x3C, c.size), mcSuccess);
      break;
    case Form::kAsyncDefaultStream:
      ASSERT_EQ(mcMemsetAsync(at, 0x3C, c.size), mcSuccess);
      ASSERT_EQ(mcStreamSynchronize(0), mcSuccess);
      break;
    case Form::kAsyncStream: {
      mcStream_t stream = nullptr;
      ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
      ASSERT_EQ(mcMemsetAsync(at, 0x3C, c.size, stream), mcSuccess);
      ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
      ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
      break;
    }
  }
  std::vector<unsigned char> want = buffer.Initial();
  std::memset(want.data() + kOffset, 0x3C, c.size);
  EXPECT_EQ(FirstDifference(buffer.Read(), want), "");
}

std::vector<SetCase> SetCases() {
  std::vector<SetCase> cases;
  for (Kind kind : {Kind::kDevice, Kind::kPeer, Kind::kManaged, Kind::kPinned,
                    Kind::kRegistered}) {
    for (size_t size :
         {size_t{0}, size_t{1}, size_t{3}, size_t{4096}, size_t{4097}}) {
      for (Form form :
           {Form::kSync, Form::kAsyncDefaultStream, Form::kAsyncStream}) {
        cases.push_back({kind, size, form});
      }
    }
  }
  return cases;
}

std::string SetCaseName(const testing::TestParamInfo<SetCase>& info) {
  static const char* const kForms[] = {"Sync", "AsyncDefaultStream",
                                       "AsyncStream"};
  return std::string(KindName(info.param.kind)) + "_" +
         std::to_string(info.param.size) + "_" +
         kForms[static_cast<int>(info.param.form)];
}

INSTANTIATE_TEST_SUITE_P(EveryKind, SetKinds, testing::ValuesIn(SetCases()),
                         SetCaseName);

// Only the low eight bits of the value count.
class SetValues : public testing::TestWithParam<int> {};

TEST_P(SetValues, UsesTheLowEightBits) {
  MX_SPEC("api.memory.memset.sets-bytes");
  Buffer buffer(Kind::kDevice, 64, 1);
  ASSERT_TRUE(buffer.ok());
  ASSERT_EQ(mcMemset(buffer.data(), GetParam(), 64), mcSuccess);
  const std::vector<unsigned char> want(64,
                                        static_cast<unsigned char>(GetParam()));
  EXPECT_EQ(FirstDifference(buffer.Read(), want), "");
}

INSTANTIATE_TEST_SUITE_P(Values, SetValues,
                         testing::Values(0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x1A5,
                                         -1, -2, 0x7FFFFFFF));

TEST(SetOrdering, LaterCopySeesTheSetValue) {
  MX_SPEC("api.memory.memset.default-stream-ordered",
          "api.sync.host.memset-asynchronous");
  Buffer device(Kind::kDevice, 256, 1);
  Buffer pinned(Kind::kPinned, 256, 2);
  ASSERT_TRUE(device.ok() && pinned.ok());
  ASSERT_EQ(mcMemset(device.data(), 0x44, 256), mcSuccess);
  ASSERT_EQ(mcMemset(device.data() + 100, 0x45, 10), mcSuccess);
  std::vector<unsigned char> out(256);
  ASSERT_EQ(mcMemcpy(out.data(), device.data(), 256, mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(out[99], 0x44);
  EXPECT_EQ(out[100], 0x45);
  EXPECT_EQ(out[110], 0x44);
  // Page-locked memory is set when the call returns.
  ASSERT_EQ(mcMemset(pinned.data(), 0x46, 256), mcSuccess);
  EXPECT_EQ(pinned.data()[255], 0x46);
}

// --- mcMemsetD8/D16/D32. ---

struct ElementCase {
  int bits;
  Kind kind;
  size_t count;
  bool async;
};

class SetElements : public testing::TestWithParam<ElementCase> {};

TEST_P(SetElements, SetsEveryElement) {
  MX_SPEC("api.memory.memset-d.sets-elements");
  const ElementCase& c = GetParam();
  MX_REQUIRE_MEMORY_KIND(c.kind);
  const size_t element = c.bits / 8;
  Buffer buffer(c.kind, (c.count + 4) * element, 1);
  ASSERT_TRUE(buffer.ok());
  mcDeviceptr_t at = buffer.data() + 2 * element;
  const unsigned int value = 0xA1B2C3D4u;
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  mcError_t result = mcSuccess;
  switch (c.bits) {
    case 8:
      result = c.async ? mcMemsetD8Async(at, value & 0xFF, c.count, stream)
                       : mcMemsetD8(at, value & 0xFF, c.count);
      break;
    case 16:
      result = c.async ? mcMemsetD16Async(at, value & 0xFFFF, c.count, stream)
                       : mcMemsetD16(at, value & 0xFFFF, c.count);
      break;
    default:
      result = c.async ? mcMemsetD32Async(at, value, c.count, stream)
                       : mcMemsetD32(at, value, c.count);
      break;
  }
  ASSERT_EQ(result, mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  std::vector<unsigned char> want = buffer.Initial();
  for (size_t i = 0; i < c.count; ++i) {
    std::memcpy(want.data() + (2 + i) * element, &value, element);
  }
  EXPECT_EQ(FirstDifference(buffer.Read(), want), "");
}

std::vector<ElementCase> ElementCases() {
  std::vector<ElementCase> cases;
  for (int bits : {8, 16, 32}) {
    for (Kind kind : {Kind::kDevice, Kind::kManaged}) {
      for (size_t count : {size_t{0}, size_t{1}, size_t{3}, size_t{1025}}) {
        for (bool async : {false, true}) {
          cases.push_back({bits, kind, count, async});
        }
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Widths, SetElements, testing::ValuesIn(ElementCases()),
                         [](const testing::TestParamInfo<ElementCase>& info) {
                           const ElementCase& c = info.param;
                           return "D" + std::to_string(c.bits) + "_" +
                                  KindName(c.kind) + "_" +
                                  std::to_string(c.count) +
                                  (c.async ? "_Async" : "_Sync");
                         });

}  // namespace
