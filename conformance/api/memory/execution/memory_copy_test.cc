// Copyright mxcts authors.
//
// Conformance: results of linear copies between every two kinds of memory
// (pageable, mcMallocHost, registered, device 0, device 1, managed), of
// several sizes, through mcMemcpy with the explicit kind, mcMemcpy with
// mcMemcpyDefault, mcMemcpyAsync in a created stream and in the default
// stream, and the driver-style calls (docs/spec/api-memory.md). Each copy
// writes into the middle of its destination, so the bytes around it must
// stay as they were.

#include <mc_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::AllKinds;
using mxcts::conformance::memory::Buffer;
using mxcts::conformance::memory::ExplicitKind;
using mxcts::conformance::memory::FirstDifference;
using mxcts::conformance::memory::IsHostKind;
using mxcts::conformance::memory::Kind;
using mxcts::conformance::memory::KindName;
using mxcts::conformance::memory::SynchronizeAllDevices;

// Bytes before the copied range in the destination and in the source.
constexpr size_t kDstOffset = 3;
constexpr size_t kSrcOffset = 5;
constexpr size_t kSlack = 16;

enum class Form { kExplicit, kDefault, kAsyncStream, kAsyncDefaultStream };

const char* FormName(Form form) {
  switch (form) {
    case Form::kExplicit:
      return "Explicit";
    case Form::kDefault:
      return "Default";
    case Form::kAsyncStream:
      return "AsyncStream";
    case Form::kAsyncDefaultStream:
      return "AsyncDefaultStream";
  }
  return "Unknown";
}

struct CopyCase {
  Kind dst;
  Kind src;
  size_t size;
  Form form;
};

std::string CaseName(const testing::TestParamInfo<CopyCase>& info) {
  return std::string(KindName(info.param.src)) + "To" +
         KindName(info.param.dst) + "_" + std::to_string(info.param.size) +
         "_" + FormName(info.param.form);
}

// What the destination holds after a correct copy.
std::vector<unsigned char> Expected(const Buffer& dst, const Buffer& src,
                                    size_t size) {
  std::vector<unsigned char> want = dst.Initial();
  std::vector<unsigned char> from = src.Initial();
  std::copy(from.begin() + kSrcOffset, from.begin() + kSrcOffset + size,
            want.begin() + kDstOffset);
  return want;
}

class CopyBetweenKinds : public testing::TestWithParam<CopyCase> {};

TEST_P(CopyBetweenKinds, CopiesExactlyTheRange) {
  MX_SPEC("api.memory.memcpy.copies-bytes",
          "api.memory.memcpy.kind-host-to-device",
          "api.memory.memcpy.kind-device-to-host",
          "api.memory.memcpy.kind-device-to-device",
          "api.memory.memcpy.kind-host-to-host",
          "api.memory.memcpy.kind-default-infers",
          "api.memory.memcpy-async.stream-ordered",
          "api.memory.memcpy-async.default-stream-argument",
          "api.memory.managed.runtime-functions-accept",
          "api.memory.host-register.pins-range");
  const CopyCase& c = GetParam();
  MX_REQUIRE_MEMORY_KIND(c.dst);
  MX_REQUIRE_MEMORY_KIND(c.src);
  const size_t total = c.size + kSlack;
  Buffer dst(c.dst, total, 1);
  Buffer src(c.src, total, 2);
  ASSERT_TRUE(dst.ok() && src.ok());
  unsigned char* to = dst.data() + kDstOffset;
  const unsigned char* from = src.data() + kSrcOffset;
  const mcMemcpyKind kind = ExplicitKind(c.dst, c.src);
  switch (c.form) {
    case Form::kExplicit:
      ASSERT_EQ(mcMemcpy(to, from, c.size, kind), mcSuccess);
      break;
    case Form::kDefault:
      ASSERT_EQ(mcMemcpy(to, from, c.size, mcMemcpyDefault), mcSuccess);
      break;
    case Form::kAsyncStream: {
      mcStream_t stream = nullptr;
      ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
      ASSERT_EQ(mcMemcpyAsync(to, from, c.size, kind, stream), mcSuccess);
      ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
      ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
      break;
    }
    case Form::kAsyncDefaultStream:
      ASSERT_EQ(mcMemcpyAsync(to, from, c.size, mcMemcpyDefault), mcSuccess);
      ASSERT_EQ(mcStreamSynchronize(0), mcSuccess);
      break;
  }
  EXPECT_EQ(FirstDifference(dst.Read(), Expected(dst, src, c.size)), "");
  // The source is unchanged.
  EXPECT_EQ(src.FirstChange(), "");
}

std::vector<CopyCase> AllPairs(std::vector<size_t> sizes,
                               std::vector<Form> forms) {
  std::vector<CopyCase> cases;
  for (Kind dst : AllKinds()) {
    for (Kind src : AllKinds()) {
      for (size_t size : sizes) {
        for (Form form : forms) cases.push_back({dst, src, size, form});
      }
    }
  }
  return cases;
}

// 1 byte, an odd size, and more than a page.
INSTANTIATE_TEST_SUITE_P(
    Memcpy, CopyBetweenKinds,
    testing::ValuesIn(AllPairs({1, 7, 4099}, {Form::kExplicit, Form::kDefault,
                                              Form::kAsyncStream})),
    CaseName);

INSTANTIATE_TEST_SUITE_P(
    MemcpyAsyncDefaultStream, CopyBetweenKinds,
    testing::ValuesIn(AllPairs({64}, {Form::kAsyncDefaultStream})), CaseName);

// --- Count 0. ---

class CopyNothing : public testing::TestWithParam<int> {};

TEST_P(CopyNothing, CountZeroChangesNothing) {
  MX_SPEC("api.memory.memcpy.count-zero");
  const mcMemcpyKind kind = static_cast<mcMemcpyKind>(GetParam());
  Buffer dst(Kind::kDevice, 32, 1);
  Buffer src(Kind::kPageable, 32, 2);
  ASSERT_TRUE(dst.ok() && src.ok());
  EXPECT_EQ(mcMemcpy(dst.data(), src.data(), 0, kind), mcSuccess);
  EXPECT_EQ(mcMemcpy(nullptr, nullptr, 0, kind), mcSuccess);
  EXPECT_EQ(mcMemcpyAsync(nullptr, src.data(), 0, kind), mcSuccess);
  EXPECT_EQ(dst.FirstChange(), "");
}

INSTANTIATE_TEST_SUITE_P(EveryKind, CopyNothing,
                         testing::Values(mcMemcpyHostToHost,
                                         mcMemcpyHostToDevice,
                                         mcMemcpyDeviceToHost,
                                         mcMemcpyDeviceToDevice,
                                         mcMemcpyDefault));

TEST(CopyKinds, EnumeratorValues) {
  MX_SPEC("api.memory.memcpy.kind-enumerator-values");
  EXPECT_EQ(mcMemcpyHostToHost, 0);
  EXPECT_EQ(mcMemcpyHostToDevice, 1);
  EXPECT_EQ(mcMemcpyDeviceToHost, 2);
  EXPECT_EQ(mcMemcpyDeviceToDevice, 3);
  EXPECT_EQ(mcMemcpyDefault, 4);
}

// --- Driver-style copies. ---

enum class Driver { kHtoD, kDtoH, kDtoD, kHtoDAsync, kDtoHAsync, kDtoDAsync };

struct DriverCase {
  Driver call;
  Kind device_side;  // device 0, device 1 or managed
  size_t size;
};

std::string DriverName(const testing::TestParamInfo<DriverCase>& info) {
  static const char* const kNames[] = {"HtoD",      "DtoH",      "DtoD",
                                       "HtoDAsync", "DtoHAsync", "DtoDAsync"};
  return std::string(kNames[static_cast<int>(info.param.call)]) + "_" +
         KindName(info.param.device_side) + "_" +
         std::to_string(info.param.size);
}

class DriverCopy : public testing::TestWithParam<DriverCase> {};

TEST_P(DriverCopy, CopiesAsTheMatchingKind) {
  MX_SPEC("api.memory.memcpy-htod.copies", "api.memory.memcpy-dtoh.copies",
          "api.memory.memcpy-dtod.copies",
          "api.memory.memcpy-driver.async-forms",
          "api.memory.malloc.deviceptr-form");
  const DriverCase& c = GetParam();
  MX_REQUIRE_MEMORY_KIND(c.device_side);
  const bool to_device =
      c.call == Driver::kHtoD || c.call == Driver::kHtoDAsync ||
      c.call == Driver::kDtoD || c.call == Driver::kDtoDAsync;
  const bool from_device =
      c.call == Driver::kDtoH || c.call == Driver::kDtoHAsync ||
      c.call == Driver::kDtoD || c.call == Driver::kDtoDAsync;
  const size_t total = c.size + kSlack;
  // The parameter's kind is the device side (the destination of DtoD).
  Buffer dst(to_device ? c.device_side : Kind::kPageable, total, 3);
  Buffer src(!from_device ? Kind::kPageable
             : to_device  ? Kind::kDevice
                          : c.device_side,
             total, 4);
  ASSERT_TRUE(dst.ok() && src.ok());
  mcDeviceptr_t to = dst.data() + kDstOffset;
  mcDeviceptr_t from = src.data() + kSrcOffset;
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  switch (c.call) {
    case Driver::kHtoD:
      ASSERT_EQ(mcMemcpyHtoD(to, from, c.size), mcSuccess);
      break;
    case Driver::kDtoH:
      ASSERT_EQ(mcMemcpyDtoH(to, from, c.size), mcSuccess);
      break;
    case Driver::kDtoD:
      ASSERT_EQ(mcMemcpyDtoD(to, from, c.size), mcSuccess);
      break;
    case Driver::kHtoDAsync:
      ASSERT_EQ(mcMemcpyHtoDAsync(to, from, c.size, stream), mcSuccess);
      break;
    case Driver::kDtoHAsync:
      ASSERT_EQ(mcMemcpyDtoHAsync(to, from, c.size, stream), mcSuccess);
      break;
    case Driver::kDtoDAsync:
      ASSERT_EQ(mcMemcpyDtoDAsync(to, from, c.size, stream), mcSuccess);
      break;
  }
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  EXPECT_EQ(FirstDifference(dst.Read(), Expected(dst, src, c.size)), "");
}

std::vector<DriverCase> DriverCases() {
  std::vector<DriverCase> cases;
  for (Driver call :
       {Driver::kHtoD, Driver::kDtoH, Driver::kDtoD, Driver::kHtoDAsync,
        Driver::kDtoHAsync, Driver::kDtoDAsync}) {
    for (Kind kind : {Kind::kDevice, Kind::kPeer, Kind::kManaged}) {
      for (size_t size : {size_t{1}, size_t{4097}}) {
        cases.push_back({call, kind, size});
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryCall, DriverCopy,
                         testing::ValuesIn(DriverCases()), DriverName);

// --- Ordering and host synchronization. ---

TEST(CopyOrdering, LaterCopiesSeeEarlierOnesInTheDefaultStream) {
  MX_SPEC("api.memory.memcpy.default-stream-ordered",
          "api.sync.host.memcpy-device-to-device-asynchronous");
  Buffer a(Kind::kDevice, 256, 1);
  Buffer b(Kind::kDevice, 256, 2);
  Buffer c(Kind::kDevice, 256, 3);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  // a -> b -> c, each copy from the previous one's result.
  ASSERT_EQ(mcMemcpy(b.data(), a.data(), 256, mcMemcpyDeviceToDevice),
            mcSuccess);
  ASSERT_EQ(mcMemcpy(c.data(), b.data(), 256, mcMemcpyDeviceToDevice),
            mcSuccess);
  std::vector<unsigned char> out(256);
  ASSERT_EQ(mcMemcpy(out.data(), c.data(), 256, mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(FirstDifference(out, a.Initial()), "");
}

TEST(CopyOrdering, SourceMayBeReusedAtOnce) {
  MX_SPEC("api.sync.host.memcpy-host-to-device-source-reusable",
          "api.sync.host.memcpy-async-pageable-synchronous");
  Buffer device(Kind::kDevice, 4096, 1);
  ASSERT_TRUE(device.ok());
  std::vector<unsigned char> source(4096, 0x42);
  ASSERT_EQ(mcMemcpy(device.data(), source.data(), 2048, mcMemcpyHostToDevice),
            mcSuccess);
  std::fill(source.begin(), source.end(), 0x17);
  ASSERT_EQ(mcMemcpyAsync(device.data() + 2048, source.data(), 2048,
                          mcMemcpyHostToDevice),
            mcSuccess);
  std::fill(source.begin(), source.end(), 0);
  std::vector<unsigned char> got = device.Read();
  EXPECT_EQ(got[0], 0x42);
  EXPECT_EQ(got[2047], 0x42);
  EXPECT_EQ(got[2048], 0x17);
  EXPECT_EQ(got[4095], 0x17);
}

TEST(CopyOrdering, CopyToHostCompletesBeforeReturning) {
  MX_SPEC("api.sync.host.memcpy-device-to-host-completes",
          "api.memory.memcpy.host-to-device-pinned-synchronous",
          "api.memory.memcpy.host-to-host-synchronous");
  Buffer device(Kind::kDevice, 512, 1);
  Buffer pinned(Kind::kPinned, 512, 2);
  ASSERT_TRUE(device.ok() && pinned.ok());
  ASSERT_EQ(mcMemset(device.data(), 0x66, 512), mcSuccess);
  std::vector<unsigned char> out(512);
  // No synchronization in between: the copy itself waits for the set.
  ASSERT_EQ(mcMemcpy(out.data(), device.data(), 512, mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(out[0], 0x66);
  EXPECT_EQ(out[511], 0x66);
  ASSERT_EQ(mcMemcpy(pinned.data(), device.data(), 512, mcMemcpyDefault),
            mcSuccess);
  EXPECT_EQ(pinned.data()[100], 0x66);
  ASSERT_EQ(mcMemcpy(out.data(), pinned.data(), 512, mcMemcpyHostToHost),
            mcSuccess);
  EXPECT_EQ(out[300], 0x66);
}

TEST(CopyOrdering, AsyncCopyToPageableMemoryCompletesBeforeReturning) {
  MX_SPEC("api.sync.host.memcpy-async-pageable-synchronous",
          "api.memory.memcpy-async.host-to-host-synchronous");
  Buffer device(Kind::kDevice, 128, 1);
  ASSERT_TRUE(device.ok());
  ASSERT_EQ(mcMemsetAsync(device.data(), 0x21, 128), mcSuccess);
  std::vector<unsigned char> out(128);
  ASSERT_EQ(mcMemcpyAsync(out.data(), device.data(), 128, mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(out[127], 0x21);
  std::vector<unsigned char> other(128, 0x9);
  ASSERT_EQ(mcMemcpyAsync(out.data(), other.data(), 128, mcMemcpyHostToHost),
            mcSuccess);
  EXPECT_EQ(out[5], 0x9);
}

TEST(CopyOrdering, StreamOfAnotherDevice) {
  MX_SPEC("api.memory.memcpy-async.any-device-stream");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  Buffer device(Kind::kDevice, 64, 1);
  Buffer peer(Kind::kPeer, 64, 2);
  ASSERT_TRUE(device.ok() && peer.ok());
  mcStream_t on1 = nullptr;
  {
    mxcts::conformance::memory::ScopedDevice one(1);
    ASSERT_EQ(mcStreamCreate(&on1), mcSuccess);
  }
  ASSERT_EQ(mcMemcpyAsync(device.data(), peer.data(), 64, mcMemcpyDefault, on1),
            mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(on1), mcSuccess);
  EXPECT_EQ(FirstDifference(device.Read(), peer.Initial()), "");
  ASSERT_EQ(mcStreamDestroy(on1), mcSuccess);
}

}  // namespace
