// Copyright mxcts authors.
//
// Conformance: the errors of bad linear copies (docs/spec/api-memory.md):
// an invalid kind, a null pointer, a range past the end of its allocation,
// a released allocation, a device side the runtime does not know, a stream
// that is not live, and a driver-style pointer that is not device memory.
// Each case checks the error, that the destination is unchanged
// [api.memory.lifetime.failed-call-changes-nothing], and, beside it, a
// control call that differs only in the broken rule and succeeds.

#include <mc_runtime.h>

#include <climits>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::Buffer;
using mxcts::conformance::memory::FirstDifference;
using mxcts::conformance::memory::Kind;
using mxcts::conformance::memory::KindName;

enum class Call { kMemcpy, kMemcpyAsync };

const char* CallName(Call call) {
  return call == Call::kMemcpy ? "Memcpy" : "MemcpyAsync";
}

mcError_t Copy(Call call, void* dst, const void* src, size_t n, int kind) {
  const mcMemcpyKind k = static_cast<mcMemcpyKind>(kind);
  if (call == Call::kMemcpy) return mcMemcpy(dst, src, n, k);
  const mcError_t result = mcMemcpyAsync(dst, src, n, k);
  if (result != mcSuccess) return result;
  return mcStreamSynchronize(0);
}

// --- Invalid kind. ---

struct KindCase {
  int kind;
  Call call;
};

class InvalidKind : public testing::TestWithParam<KindCase> {};

TEST_P(InvalidKind, IsInvalidMemcpyDirectionAndCopiesNothing) {
  MX_SPEC("api.memory.memcpy.invalid-kind",
          "api.memory.memcpy-async.invalid-kind",
          "api.memory.lifetime.failed-call-changes-nothing");
  const KindCase& c = GetParam();
  Buffer dst(Kind::kDevice, 64, 1);
  Buffer src(Kind::kPageable, 64, 2);
  ASSERT_TRUE(dst.ok() && src.ok());
  EXPECT_EQ(Copy(c.call, dst.data(), src.data(), 64, c.kind),
            mcErrorInvalidMemcpyDirection);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidMemcpyDirection);
  EXPECT_EQ(dst.FirstChange(), "");
  // Control: the same copy with a valid kind.
  EXPECT_EQ(Copy(c.call, dst.data(), src.data(), 64, mcMemcpyHostToDevice),
            mcSuccess);
  EXPECT_EQ(FirstDifference(dst.Read(), src.Initial()), "");
}

std::vector<KindCase> KindCases() {
  std::vector<KindCase> cases;
  for (int kind : {-1, 5, 6, 77, INT_MAX, INT_MIN}) {
    for (Call call : {Call::kMemcpy, Call::kMemcpyAsync}) {
      cases.push_back({kind, call});
    }
  }
  return cases;
}

std::string KindCaseName(const testing::TestParamInfo<KindCase>& info) {
  const int kind = info.param.kind;
  return std::string(CallName(info.param.call)) + "_kind" +
         (kind == INT_MIN ? std::string("Min")
          : kind < 0      ? "Neg" + std::to_string(-kind)
                          : std::to_string(kind));
}

INSTANTIATE_TEST_SUITE_P(Kinds, InvalidKind, testing::ValuesIn(KindCases()),
                         KindCaseName);

// --- Null pointers. ---

struct NullCase {
  bool null_dst;
  int kind;
  Call call;
};

class NullPointer : public testing::TestWithParam<NullCase> {};

// Whether the pointer that is not null is on the device side of the kind,
// so that it is valid and only the null pointer breaks a rule.
bool IsDeviceSideOf(const NullCase& c) {
  if (c.null_dst) {  // the source is given
    return c.kind == mcMemcpyDeviceToHost || c.kind == mcMemcpyDeviceToDevice;
  }
  return c.kind == mcMemcpyHostToDevice || c.kind == mcMemcpyDeviceToDevice;
}

TEST_P(NullPointer, IsInvalidValueUnlessCountIsZero) {
  MX_SPEC("api.memory.memcpy.null-pointer", "api.memory.memcpy.count-zero",
          "api.memory.memcpy-async.argument-errors");
  const NullCase& c = GetParam();
  Buffer other(IsDeviceSideOf(c) ? Kind::kDevice : Kind::kPageable, 32, 1);
  ASSERT_TRUE(other.ok());
  void* dst = c.null_dst ? nullptr : other.data();
  const void* src = c.null_dst ? other.data() : nullptr;
  EXPECT_EQ(Copy(c.call, dst, src, 32, c.kind), mcErrorInvalidValue);
  EXPECT_EQ(other.FirstChange(), "");
  // Control: count 0 with the same pointers.
  EXPECT_EQ(Copy(c.call, dst, src, 0, c.kind), mcSuccess);
}

std::vector<NullCase> NullCases() {
  std::vector<NullCase> cases;
  for (bool null_dst : {true, false}) {
    for (int kind = mcMemcpyHostToHost; kind <= mcMemcpyDefault; ++kind) {
      for (Call call : {Call::kMemcpy, Call::kMemcpyAsync}) {
        cases.push_back({null_dst, kind, call});
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryKind, NullPointer, testing::ValuesIn(NullCases()),
                         [](const testing::TestParamInfo<NullCase>& info) {
                           return std::string(info.param.null_dst ? "NullDst"
                                                                  : "NullSrc") +
                                  "_kind" + std::to_string(info.param.kind) +
                                  "_" + CallName(info.param.call);
                         });

// --- A range past the end of an allocation. ---

struct PastEndCase {
  Kind kind;    // of the allocation the range starts in
  bool as_dst;  // the allocation is the destination
  size_t over;  // bytes past the end
  Call call;
};

class PastEnd : public testing::TestWithParam<PastEndCase> {};

TEST_P(PastEnd, IsInvalidValueAndChangesNoByte) {
  MX_SPEC("api.memory.memcpy.past-end-of-allocation",
          "api.memory.memcpy-async.argument-errors",
          "api.memory.lifetime.failed-call-changes-nothing");
  const PastEndCase& c = GetParam();
  MX_REQUIRE_MEMORY_KIND(c.kind);
  const size_t size = 4096 + 8;
  const size_t offset = 100;
  Buffer allocation(c.kind, size, 1);
  Buffer other(Kind::kPageable, size + c.over, 2);
  ASSERT_TRUE(allocation.ok() && other.ok());
  unsigned char* in_allocation = allocation.data() + offset;
  void* dst = c.as_dst ? in_allocation : other.data();
  const void* src = c.as_dst ? other.data() : in_allocation;
  const size_t fits = size - offset;
  EXPECT_EQ(Copy(c.call, dst, src, fits + c.over, mcMemcpyDefault),
            mcErrorInvalidValue);
  EXPECT_EQ(allocation.FirstChange(), "");
  EXPECT_EQ(other.FirstChange(), "");
  // Control: exactly to the end.
  EXPECT_EQ(Copy(c.call, dst, src, fits, mcMemcpyDefault), mcSuccess);
}

std::vector<PastEndCase> PastEndCases() {
  std::vector<PastEndCase> cases;
  for (Kind kind :
       {Kind::kDevice, Kind::kPeer, Kind::kManaged, Kind::kPinned}) {
    for (bool as_dst : {true, false}) {
      for (size_t over : {size_t{1}, size_t{4096}}) {
        for (Call call : {Call::kMemcpy, Call::kMemcpyAsync}) {
          cases.push_back({kind, as_dst, over, call});
        }
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryKind, PastEnd, testing::ValuesIn(PastEndCases()),
                         [](const testing::TestParamInfo<PastEndCase>& info) {
                           return std::string(KindName(info.param.kind)) +
                                  (info.param.as_dst ? "_Dst_" : "_Src_") +
                                  "over" + std::to_string(info.param.over) +
                                  "_" + CallName(info.param.call);
                         });

// --- A released allocation on the device side. ---

struct FreedCase {
  Kind kind;
  bool as_dst;
  Call call;
};

class FreedPointer : public testing::TestWithParam<FreedCase> {};

TEST_P(FreedPointer, IsInvalidValueAndAccessesNothing) {
  MX_SPEC("api.memory.lifetime.freed-pointer-in-api",
          "api.memory.lifetime.failed-call-changes-nothing");
  const FreedCase& c = GetParam();
  MX_REQUIRE_MEMORY_KIND(c.kind);
  Buffer other(Kind::kPageable, 256, 2);
  ASSERT_TRUE(other.ok());
  unsigned char* victim = nullptr;
  switch (c.kind) {
    case Kind::kPinned:
      ASSERT_EQ(mcMallocHost(&victim, 256), mcSuccess);
      break;
    case Kind::kManaged:
      ASSERT_EQ(mcMallocManaged(&victim, 256), mcSuccess);
      break;
    default: {
      mxcts::conformance::memory::ScopedDevice on(c.kind == Kind::kPeer);
      ASSERT_EQ(mcMalloc(&victim, 256), mcSuccess);
      break;
    }
  }
  // Control: the same copy while the allocation is live.
  const mcMemcpyKind kind =
      c.as_dst ? mcMemcpyHostToDevice : mcMemcpyDeviceToHost;
  void* dst = c.as_dst ? static_cast<void*>(victim) : other.data();
  const void* src = c.as_dst ? static_cast<void*>(other.data()) : victim;
  EXPECT_EQ(Copy(c.call, dst, src, 256, kind), mcSuccess);
  other.Write(0, other.Initial());
  if (c.kind == Kind::kPinned) {
    ASSERT_EQ(mcFreeHost(victim), mcSuccess);
  } else {
    ASSERT_EQ(mcFree(victim), mcSuccess);
  }
  EXPECT_EQ(Copy(c.call, dst, src, 256, kind), mcErrorInvalidValue);
  EXPECT_EQ(other.FirstChange(), "");
}

std::vector<FreedCase> FreedCases() {
  std::vector<FreedCase> cases;
  for (Kind kind :
       {Kind::kDevice, Kind::kPeer, Kind::kManaged, Kind::kPinned}) {
    for (bool as_dst : {true, false}) {
      for (Call call : {Call::kMemcpy, Call::kMemcpyAsync}) {
        cases.push_back({kind, as_dst, call});
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryKind, FreedPointer,
                         testing::ValuesIn(FreedCases()),
                         [](const testing::TestParamInfo<FreedCase>& info) {
                           return std::string(KindName(info.param.kind)) +
                                  (info.param.as_dst ? "_Dst_" : "_Src_") +
                                  CallName(info.param.call);
                         });

// --- The device side of an explicit kind is pageable memory. ---

struct SideCase {
  int kind;      // an explicit kind with a device side
  bool bad_dst;  // the pageable device side is the destination
  Call call;
};

class PageableDeviceSide : public testing::TestWithParam<SideCase> {};

TEST_P(PageableDeviceSide, IsInvalidValueAndCopiesNothing) {
  MX_SPEC("api.memory.memcpy.device-side-not-device-memory",
          "api.memory.memcpy-async.argument-errors",
          "api.memory.memcpy.kind-default-infers");
  const SideCase& c = GetParam();
  Buffer pageable(Kind::kPageable, 128, 1);
  Buffer device(Kind::kDevice, 128, 2);
  Buffer other_pageable(Kind::kPageable, 128, 3);
  ASSERT_TRUE(pageable.ok() && device.ok() && other_pageable.ok());
  // The other side is right for the kind: device memory where the kind
  // names a device side, pageable memory where it names a host side.
  const bool other_is_device = c.kind == mcMemcpyDeviceToDevice ||
                               (c.bad_dst && c.kind == mcMemcpyDeviceToHost) ||
                               (!c.bad_dst && c.kind == mcMemcpyHostToDevice);
  Buffer& other = other_is_device ? device : other_pageable;
  void* dst = c.bad_dst ? pageable.data() : other.data();
  const void* src = c.bad_dst ? other.data() : pageable.data();
  EXPECT_EQ(Copy(c.call, dst, src, 128, c.kind), mcErrorInvalidValue);
  EXPECT_EQ(pageable.FirstChange(), "");
  EXPECT_EQ(other.FirstChange(), "");
  // Control: mcMemcpyDefault copies between the same pointers.
  EXPECT_EQ(Copy(c.call, dst, src, 128, mcMemcpyDefault), mcSuccess);
}

std::vector<SideCase> SideCases() {
  std::vector<SideCase> cases;
  for (Call call : {Call::kMemcpy, Call::kMemcpyAsync}) {
    cases.push_back({mcMemcpyHostToDevice, true, call});
    cases.push_back({mcMemcpyDeviceToHost, false, call});
    cases.push_back({mcMemcpyDeviceToDevice, true, call});
    cases.push_back({mcMemcpyDeviceToDevice, false, call});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Kinds, PageableDeviceSide,
                         testing::ValuesIn(SideCases()),
                         [](const testing::TestParamInfo<SideCase>& info) {
                           return "kind" + std::to_string(info.param.kind) +
                                  (info.param.bad_dst ? "_Dst_" : "_Src_") +
                                  CallName(info.param.call);
                         });

// --- Driver-style copies with a device pointer that is not device memory.

enum class Driver {
  kHtoD,
  kDtoH,
  kDtoDDst,
  kDtoDSrc,
  kHtoDAsync,
  kDtoHAsync,
  kDtoDAsyncDst,
  kDtoDAsyncSrc
};
enum class Bad { kPageable, kPinned, kPastEnd };

struct DriverCase {
  Driver call;
  Bad bad;
};

mcError_t DriverCopy(Driver call, void* bad, void* device, void* host,
                     size_t n) {
  switch (call) {
    case Driver::kHtoD:
      return mcMemcpyHtoD(bad, host, n);
    case Driver::kDtoH:
      return mcMemcpyDtoH(host, bad, n);
    case Driver::kDtoDDst:
      return mcMemcpyDtoD(bad, device, n);
    case Driver::kDtoDSrc:
      return mcMemcpyDtoD(device, bad, n);
    case Driver::kHtoDAsync:
      return mcMemcpyHtoDAsync(bad, host, n, 0);
    case Driver::kDtoHAsync:
      return mcMemcpyDtoHAsync(host, bad, n, 0);
    case Driver::kDtoDAsyncDst:
      return mcMemcpyDtoDAsync(bad, device, n, 0);
    case Driver::kDtoDAsyncSrc:
      return mcMemcpyDtoDAsync(device, bad, n, 0);
  }
  return mcErrorUnknown;
}

class DriverPointer : public testing::TestWithParam<DriverCase> {};

TEST_P(DriverPointer, IsInvalidValueAndCopiesNothing) {
  MX_SPEC("api.memory.memcpy-driver.invalid-device-pointer",
          "api.memory.lifetime.failed-call-changes-nothing");
  const DriverCase& c = GetParam();
  const size_t n = 512;
  Buffer device(Kind::kDevice, n, 1);
  Buffer host(Kind::kPageable, n, 2);
  Buffer target(c.bad == Bad::kPageable ? Kind::kPageable
                : c.bad == Bad::kPinned ? Kind::kPinned
                                        : Kind::kDevice,
                n, 3);
  ASSERT_TRUE(device.ok() && host.ok() && target.ok());
  void* bad = target.data() + (c.bad == Bad::kPastEnd ? 1 : 0);
  EXPECT_EQ(DriverCopy(c.call, bad, device.data(), host.data(), n),
            mcErrorInvalidValue);
  EXPECT_EQ(device.FirstChange(), "");
  EXPECT_EQ(host.FirstChange(), "");
  EXPECT_EQ(target.FirstChange(), "");
  // Control: a device allocation, exactly in bounds.
  Buffer good(Kind::kDevice, n, 4);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(DriverCopy(c.call, good.data(), device.data(), host.data(), n),
            mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
}

std::vector<DriverCase> DriverCases() {
  std::vector<DriverCase> cases;
  for (Driver call : {Driver::kHtoD, Driver::kDtoH, Driver::kDtoDDst,
                      Driver::kDtoDSrc, Driver::kHtoDAsync, Driver::kDtoHAsync,
                      Driver::kDtoDAsyncDst, Driver::kDtoDAsyncSrc}) {
    for (Bad bad : {Bad::kPageable, Bad::kPinned, Bad::kPastEnd}) {
      cases.push_back({call, bad});
    }
  }
  return cases;
}

std::string DriverCaseName(const testing::TestParamInfo<DriverCase>& info) {
  static const char* const kCalls[] = {
      "HtoD",      "DtoH",      "DtoDDst",      "DtoDSrc",
      "HtoDAsync", "DtoHAsync", "DtoDAsyncDst", "DtoDAsyncSrc"};
  static const char* const kBad[] = {"Pageable", "Pinned", "PastEnd"};
  return std::string(kCalls[static_cast<int>(info.param.call)]) + "_" +
         kBad[static_cast<int>(info.param.bad)];
}

INSTANTIATE_TEST_SUITE_P(EveryCall, DriverPointer,
                         testing::ValuesIn(DriverCases()), DriverCaseName);

}  // namespace
