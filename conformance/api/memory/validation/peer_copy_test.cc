// Copyright mxcts authors.
//
// Conformance: the errors of mcMemcpyPeer and mcMemcpyPeerAsync
// (docs/spec/api-memory.md "Peer copies", docs/spec/api-multi-device.md
// "Peer copies"): invalid device ordinals (checked even for a count of 0),
// pointers that are not device memory of the device named for them, ranges
// past the end of their allocation, invalid streams, and a faulted source
// or destination device. Each bad copy must leave the destination as it
// was; the control beside it is the same copy with the argument fixed.

#include <mc_runtime.h>

#include <climits>
#include <cstring>
#include <functional>
#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

constexpr size_t kBytes = 4096;
constexpr char kSourceByte = 0x5a;
constexpr char kDestinationByte = 0x11;

// Memory every test copies between: device memory of devices 0 and 1, and
// memory of other kinds, all kBytes long.
struct Buffers {
  char* on0 = nullptr;
  char* on1 = nullptr;
  char* freed_on1 = nullptr;
  char* pinned = nullptr;
  char* managed = nullptr;
  char host[kBytes];
};

bool AllBytesAre(const char* device_or_host, size_t n, char value) {
  static char copy[kBytes];
  if (mcMemcpy(copy, device_or_host, n, mcMemcpyDefault) != mcSuccess) {
    return false;
  }
  for (size_t i = 0; i < n; ++i) {
    if (copy[i] != value) return false;
  }
  return true;
}

class PeerCopyValidation : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
    ASSERT_EQ(mcSetDevice(1), mcSuccess);
    ASSERT_EQ(mcMalloc(&b_.on1, kBytes), mcSuccess);
    ASSERT_EQ(mcMalloc(&b_.freed_on1, kBytes), mcSuccess);
    ASSERT_EQ(mcFree(b_.freed_on1), mcSuccess);
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    ASSERT_EQ(mcMalloc(&b_.on0, kBytes), mcSuccess);
    ASSERT_EQ(mcMallocHost(&b_.pinned, kBytes), mcSuccess);
    ASSERT_EQ(mcMallocManaged(&b_.managed, kBytes), mcSuccess);
    ASSERT_EQ(mcMemset(b_.on0, kSourceByte, kBytes), mcSuccess);
    ASSERT_EQ(mcMemset(b_.on1, kDestinationByte, kBytes), mcSuccess);
    std::memset(b_.host, kSourceByte, kBytes);
    std::memset(b_.pinned, kSourceByte, kBytes);
    std::memset(b_.managed, kSourceByte, kBytes);
    // The sets ran in device 0's default stream, which the copies of
    // device 1's streams are not ordered after.
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    mcGetLastError();
  }
  void TearDown() override {
    mcSetDevice(0);
    mcFree(b_.on0);
    mcFreeHost(b_.pinned);
    mcFree(b_.managed);
    mcSetDevice(1);
    mcFree(b_.on1);
    mcSetDevice(0);
    mcGetLastError();
  }
  Buffers b_;
};

// --- Bad pointers. ---

// The arguments of a peer copy.
struct PeerCopy {
  char* dst;
  int dst_device;
  const char* src;
  int src_device;
  size_t count;
};

// A peer copy of `count` bytes from device 0 to device 1 (or the reverse,
// for a bad source) with one argument broken. The copy that must be
// unchanged is the device-1 buffer.
struct BadCopy {
  const char* name;
  // Breaks the argument of the good copy.
  std::function<void(Buffers*, PeerCopy*)> breaks;
};

const BadCopy kBadCopies[] = {
    {"NullDestination", [](Buffers*, PeerCopy* c) { c->dst = nullptr; }},
    {"NullSource", [](Buffers*, PeerCopy* c) { c->src = nullptr; }},
    {"PageableHostSource", [](Buffers* b, PeerCopy* c) { c->src = b->host; }},
    {"PageLockedHostSource",
     [](Buffers* b, PeerCopy* c) { c->src = b->pinned; }},
    {"ManagedSource", [](Buffers* b, PeerCopy* c) { c->src = b->managed; }},
    {"SourceNamedAsDevice1", [](Buffers*, PeerCopy* c) { c->src_device = 1; }},
    {"DestinationNamedAsDevice0",
     [](Buffers*, PeerCopy* c) { c->dst_device = 0; }},
    {"FreedDestination",
     [](Buffers* b, PeerCopy* c) { c->dst = b->freed_on1; }},
    {"DestinationPastTheEnd",
     [](Buffers*, PeerCopy* c) { c->count = kBytes + 1; }},
    {"DestinationOffsetPastTheEnd",
     [](Buffers*, PeerCopy* c) {
       c->dst += 1;
       c->count = kBytes;
     }},
    {"SourceOffsetPastTheEnd",
     [](Buffers*, PeerCopy* c) {
       c->src += kBytes - 8;
       c->count = 16;
     }},
    {"HugeCount", [](Buffers*, PeerCopy* c) { c->count = ~size_t{0}; }},
};

std::string BadCopyName(const testing::TestParamInfo<BadCopy>& info) {
  return info.param.name;
}

class BadPointer : public PeerCopyValidation,
                   public testing::WithParamInterface<BadCopy> {
 protected:
  // The arguments of the good copy (device 0 to device 1, kBytes), with
  // the parameter's change applied.
  PeerCopy Arguments() {
    PeerCopy copy{b_.on1, 1, b_.on0, 0, kBytes};
    GetParam().breaks(&b_, &copy);
    return copy;
  }
};

TEST_P(BadPointer, MemcpyPeerIsInvalidValueAndCopiesNothing) {
  MX_SPEC("api.memory.memcpy-peer.pointer-not-on-device",
          "api.peer.copy.device-memory-only",
          "api.error.return.invalid-call-changes-nothing");
  // The copy is undefined; the reference's check is its own.
  MX_REQUIRE_CAPABILITY("reference_choices");
  const PeerCopy c = Arguments();
  EXPECT_EQ(mcMemcpyPeer(c.dst, c.dst_device, c.src, c.src_device, c.count),
            mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kDestinationByte));
  // Control: the good copy.
  EXPECT_EQ(mcMemcpyPeer(b_.on1, 1, b_.on0, 0, kBytes), mcSuccess);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kSourceByte));
}

TEST_P(BadPointer, MemcpyPeerAsyncIsInvalidValueAndCopiesNothing) {
  MX_SPEC("api.memory.memcpy-peer.pointer-not-on-device",
          "api.peer.copy.device-memory-only",
          "api.error.return.invalid-call-changes-nothing");
  // The copy is undefined; the reference's check is its own.
  MX_REQUIRE_CAPABILITY("reference_choices");
  const PeerCopy c = Arguments();
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  EXPECT_EQ(mcMemcpyPeerAsync(c.dst, c.dst_device, c.src, c.src_device, c.count,
                              stream),
            mcErrorInvalidValue);
  EXPECT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kDestinationByte));
  // Control.
  EXPECT_EQ(mcMemcpyPeerAsync(b_.on1, 1, b_.on0, 0, kBytes, stream), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kSourceByte));
  mcStreamDestroy(stream);
}

INSTANTIATE_TEST_SUITE_P(Pointers, BadPointer, testing::ValuesIn(kBadCopies),
                         BadCopyName);

// The destination kinds that are not device memory: the copy must not
// write them.
TEST_F(PeerCopyValidation, HostDestinationsAreNotWritten) {
  MX_SPEC("api.peer.copy.device-memory-only");
  MX_REQUIRE_CAPABILITY("reference_choices");
  char* destinations[] = {b_.host, b_.pinned, b_.managed};
  for (char* dst : destinations) {
    std::memset(dst, kDestinationByte, kBytes);
    EXPECT_EQ(mcMemcpyPeer(dst, 1, b_.on0, 0, kBytes), mcErrorInvalidValue);
    EXPECT_EQ(mcMemcpyPeer(dst, 0, b_.on0, 0, kBytes), mcErrorInvalidValue);
    for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(dst[i], kDestinationByte);
  }
  // Control: mcMemcpy with mcMemcpyDefault writes them.
  EXPECT_EQ(mcMemcpy(b_.managed, b_.on0, kBytes, mcMemcpyDefault), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(b_.managed[kBytes - 1], kSourceByte);
}

// --- Bad device ordinals. ---

struct BadOrdinal {
  const char* name;
  std::function<int(int count)> value;
};

const BadOrdinal kBadOrdinals[] = {
    {"MinusOne", [](int) { return -1; }},
    {"Count", [](int count) { return count; }},
    {"CountPlusOne", [](int count) { return count + 1; }},
    {"IntMax", [](int) { return INT_MAX; }},
    {"IntMin", [](int) { return INT_MIN; }},
};

class BadDevice : public PeerCopyValidation,
                  public testing::WithParamInterface<BadOrdinal> {
 protected:
  int Bad() const {
    int count = 0;
    mcGetDeviceCount(&count);
    return GetParam().value(count);
  }
};

TEST_P(BadDevice, DestinationDeviceOfMemcpyPeer) {
  MX_SPEC("api.memory.memcpy-peer.invalid-device");
  EXPECT_EQ(mcMemcpyPeer(b_.on1, Bad(), b_.on0, 0, kBytes),
            mcErrorInvalidDevice);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidDevice);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kDestinationByte));
}

TEST_P(BadDevice, SourceDeviceOfMemcpyPeer) {
  MX_SPEC("api.memory.memcpy-peer.invalid-device");
  EXPECT_EQ(mcMemcpyPeer(b_.on1, 1, b_.on0, Bad(), kBytes),
            mcErrorInvalidDevice);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kDestinationByte));
}

TEST_P(BadDevice, DestinationDeviceOfMemcpyPeerAsync) {
  MX_SPEC("api.memory.memcpy-peer.invalid-device");
  EXPECT_EQ(mcMemcpyPeerAsync(b_.on1, Bad(), b_.on0, 0, kBytes, nullptr),
            mcErrorInvalidDevice);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kDestinationByte));
}

TEST_P(BadDevice, SourceDeviceOfMemcpyPeerAsync) {
  MX_SPEC("api.memory.memcpy-peer.invalid-device");
  EXPECT_EQ(mcMemcpyPeerAsync(b_.on1, 1, b_.on0, Bad(), kBytes, nullptr),
            mcErrorInvalidDevice);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kDestinationByte));
}

TEST_P(BadDevice, IsCheckedForACountOfZero) {
  MX_SPEC("api.peer.copy.devices-checked-before-count",
          "api.memory.memcpy-peer.count-zero");
  EXPECT_EQ(mcMemcpyPeer(b_.on1, Bad(), b_.on0, 0, 0), mcErrorInvalidDevice);
  EXPECT_EQ(mcMemcpyPeer(b_.on1, 1, b_.on0, Bad(), 0), mcErrorInvalidDevice);
  EXPECT_EQ(mcMemcpyPeerAsync(nullptr, Bad(), nullptr, 0, 0, nullptr),
            mcErrorInvalidDevice);
  // Control: with valid ordinals a count of 0 succeeds, null pointers
  // included, and copies nothing.
  EXPECT_EQ(mcMemcpyPeer(b_.on1, 1, b_.on0, 0, 0), mcSuccess);
  EXPECT_EQ(mcMemcpyPeer(nullptr, 1, nullptr, 0, 0), mcSuccess);
  EXPECT_EQ(mcMemcpyPeerAsync(nullptr, 0, nullptr, 1, 0, nullptr), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kDestinationByte));
}

INSTANTIATE_TEST_SUITE_P(Ordinals, BadDevice, testing::ValuesIn(kBadOrdinals),
                         [](const testing::TestParamInfo<BadOrdinal>& info) {
                           return info.param.name;
                         });

// --- Streams. ---

TEST_F(PeerCopyValidation, DestroyedStreamIsInvalidResourceHandle) {
  MX_SPEC("api.memory.memcpy-peer.invalid-stream");
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  EXPECT_EQ(mcMemcpyPeerAsync(b_.on1, 1, b_.on0, 0, kBytes, stream),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kDestinationByte));
  // Control: the default stream.
  EXPECT_EQ(mcMemcpyPeerAsync(b_.on1, 1, b_.on0, 0, kBytes, nullptr),
            mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kSourceByte));
}

TEST_F(PeerCopyValidation, ForgedStreamIsInvalidResourceHandle) {
  MX_SPEC("api.memory.memcpy-peer.invalid-stream");
  static char not_a_stream[64];
  EXPECT_EQ(mcMemcpyPeerAsync(b_.on1, 1, b_.on0, 0, kBytes,
                              reinterpret_cast<mcStream_t>(not_a_stream)),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kDestinationByte));
}

TEST_F(PeerCopyValidation, ZeroByteCopyChecksItsStreamInTheReference) {
  MX_SPEC("api.memory.memcpy-peer.invalid-stream");
  // Whether a zero-byte copy looks at its stream is implementation-defined.
  MX_REQUIRE_CAPABILITY("reference_choices");
  static char not_a_stream[64];
  EXPECT_EQ(mcMemcpyPeerAsync(b_.on1, 1, b_.on0, 0, 0,
                              reinterpret_cast<mcStream_t>(not_a_stream)),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  // Control: a zero-byte copy on the default stream succeeds.
  EXPECT_EQ(mcMemcpyPeerAsync(b_.on1, 1, b_.on0, 0, 0, nullptr), mcSuccess);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kDestinationByte));
}

TEST_F(PeerCopyValidation, StreamOfTheOtherDeviceIsAccepted) {
  MX_SPEC("api.memory.memcpy-peer.invalid-stream",
          "api.peer.copy.async-ordered-in-stream-only");
  // Control for the stream errors: a live stream of device 1 while device
  // 0 is current.
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  EXPECT_EQ(mcMemcpyPeerAsync(b_.on1, 1, b_.on0, 0, kBytes, stream), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_TRUE(AllBytesAre(b_.on1, kBytes, kSourceByte));
  mcStreamDestroy(stream);
}

// --- A faulted device. ---

__global__ void WriteThroughNull(int* p) { *p = 1; }

// Device `faulting` faults; copies to or from it return its error and
// copy nothing, while copies on the other device go on.
std::string CopiesWithAFaultedDevice(int faulting) {
  const int other = 1 - faulting;
  char* on_faulting = nullptr;
  char* on_other = nullptr;
  char* second_on_other = nullptr;
  if (mcSetDevice(faulting) != mcSuccess ||
      mcMalloc(&on_faulting, 256) != mcSuccess ||
      mcMemset(on_faulting, 1, 256) != mcSuccess ||
      mcSetDevice(other) != mcSuccess ||
      mcMalloc(&on_other, 256) != mcSuccess ||
      mcMalloc(&second_on_other, 256) != mcSuccess ||
      mcMemset(on_other, 2, 256) != mcSuccess ||
      mcMemset(second_on_other, 3, 256) != mcSuccess) {
    return "could not prepare";
  }
  // Control: before the fault, the copies work.
  if (mcMemcpyPeer(on_other, other, on_faulting, faulting, 16) != mcSuccess ||
      mcMemset(on_other, 2, 256) != mcSuccess) {
    return "the copy failed before the fault";
  }
  if (mcSetDevice(faulting) != mcSuccess) return "mcSetDevice failed";
  WriteThroughNull<<<1, 1>>>(nullptr);
  if (mcDeviceSynchronize() != mcErrorIllegalAddress) return "no fault";
  // The current device is the healthy one from here on.
  if (mcSetDevice(other) != mcSuccess) return "mcSetDevice failed";
  mcGetLastError();
  if (mcMemcpyPeer(on_other, other, on_faulting, faulting, 256) !=
      mcErrorIllegalAddress) {
    return "a copy from the faulted device did not return its error";
  }
  if (mcMemcpyPeer(on_faulting, faulting, on_other, other, 256) !=
      mcErrorIllegalAddress) {
    return "a copy to the faulted device did not return its error";
  }
  if (mcMemcpyPeerAsync(on_other, other, on_faulting, faulting, 256, nullptr) !=
      mcErrorIllegalAddress) {
    return "an asynchronous copy from the faulted device did not fail";
  }
  mcDeviceSynchronize();
  char read[256];
  if (mcMemcpy(read, on_other, 256, mcMemcpyDeviceToHost) != mcSuccess) {
    return "reading the healthy device failed";
  }
  for (char c : read) {
    if (c != 2) return "a failed copy wrote the destination";
  }
  // A copy between buffers of the healthy device is unaffected.
  if (mcMemcpyPeer(on_other, other, second_on_other, other, 256) != mcSuccess) {
    return "a copy on the healthy device failed";
  }
  if (mcMemcpy(read, on_other, 256, mcMemcpyDeviceToHost) != mcSuccess ||
      read[255] != 3) {
    return "the copy on the healthy device copied wrongly";
  }
  return "";
}

TEST(PeerCopyAfterAFault, FaultedSourceOrDestinationDeviceOfDevice0) {
  MX_SPEC("api.peer.copy.faulted-device-returns-sticky-error");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  MX_EXPECT_IN_FRESH_PROCESS(CopiesWithAFaultedDevice(0));
}

TEST(PeerCopyAfterAFault, FaultedSourceOrDestinationDeviceOfDevice1) {
  MX_SPEC("api.peer.copy.faulted-device-returns-sticky-error");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  MX_EXPECT_IN_FRESH_PROCESS(CopiesWithAFaultedDevice(1));
}

}  // namespace
