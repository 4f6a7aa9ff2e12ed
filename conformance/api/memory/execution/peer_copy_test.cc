// Copyright mxcts authors.
//
// Conformance: the results of mcMemcpyPeer and mcMemcpyPeerAsync
// (docs/spec/api-memory.md "Peer copies", docs/spec/api-multi-device.md
// "Peer copies"). Copies of every size class, in each direction between
// devices 0 and 1 and within each device, at an offset inside their
// allocations, with and without peer access; the bytes around the
// destination range must stay as they were. The synchronous copy is
// ordered after work already issued to its devices; the asynchronous one
// in its stream, so a chain of kernels and copies in one stream sees each
// step's result.
//
// Every result is read after a synchronization, so the tests hold however
// an implementation schedules work.

#include <mc_runtime.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

// The bytes on either side of a copied range that must not change.
constexpr size_t kMargin = 64;

unsigned char SourceByte(size_t i) {
  return static_cast<unsigned char>((i * 131 + 7) % 251);
}
constexpr unsigned char kDestinationByte = 0xee;

using PeerCopyFixture = ::mxcts::conformance::memory::TwoDeviceTest;

// Allocates `bytes` of device memory on `device`; the current device is
// left as it was.
unsigned char* AllocateOn(int device, size_t bytes) {
  int previous = 0;
  mcGetDevice(&previous);
  unsigned char* p = nullptr;
  EXPECT_EQ(mcSetDevice(device), mcSuccess);
  EXPECT_EQ(mcMalloc(&p, bytes), mcSuccess);
  EXPECT_EQ(mcSetDevice(previous), mcSuccess);
  return p;
}

void FreeOn(int device, void* p) {
  int previous = 0;
  mcGetDevice(&previous);
  mcSetDevice(device);
  mcFree(p);
  mcSetDevice(previous);
}

// --- Sizes and directions. ---

enum class Mode { kSync, kAsyncDefaultStream, kAsyncCreatedStream };

struct CopyCase {
  size_t bytes;
  int src_device;
  int dst_device;
  Mode mode;
};

std::string CopyCaseName(const testing::TestParamInfo<CopyCase>& info) {
  const char* modes[] = {"Sync", "AsyncDefaultStream", "AsyncCreatedStream"};
  return std::to_string(info.param.bytes) + "BytesFrom" +
         std::to_string(info.param.src_device) + "To" +
         std::to_string(info.param.dst_device) +
         modes[static_cast<int>(info.param.mode)];
}

class PeerCopy : public PeerCopyFixture,
                 public testing::WithParamInterface<CopyCase> {
 protected:
  // Copies GetParam().bytes from offset `src_offset` of a source buffer to
  // offset kMargin of a destination buffer, and checks every byte of the
  // destination buffer.
  void CopyAndCheck(bool with_peer_access) {
    const CopyCase& c = GetParam();
    const size_t src_offset = 8;
    const size_t src_size = c.bytes + src_offset;
    const size_t dst_size = c.bytes + 2 * kMargin;
    unsigned char* src = AllocateOn(c.src_device, src_size);
    unsigned char* dst = AllocateOn(c.dst_device, dst_size);
    ASSERT_NE(src, nullptr);
    ASSERT_NE(dst, nullptr);
    std::vector<unsigned char> source(src_size);
    for (size_t i = 0; i < src_size; ++i) source[i] = SourceByte(i);
    ASSERT_EQ(mcMemcpy(src, source.data(), src_size, mcMemcpyHostToDevice),
              mcSuccess);
    ASSERT_EQ(mcMemset(dst, kDestinationByte, dst_size), mcSuccess);
    if (with_peer_access) {
      ASSERT_EQ(mcSetDevice(c.dst_device), mcSuccess);
      ASSERT_EQ(mcDeviceEnablePeerAccess(c.src_device, 0), mcSuccess);
      ASSERT_EQ(mcSetDevice(0), mcSuccess);
    }
    switch (c.mode) {
      case Mode::kSync:
        ASSERT_EQ(mcMemcpyPeer(dst + kMargin, c.dst_device, src + src_offset,
                               c.src_device, c.bytes),
                  mcSuccess);
        break;
      case Mode::kAsyncDefaultStream:
        ASSERT_EQ(mcMemcpyPeerAsync(dst + kMargin, c.dst_device,
                                    src + src_offset, c.src_device, c.bytes),
                  mcSuccess);
        ASSERT_EQ(mcStreamSynchronize(nullptr), mcSuccess);
        break;
      case Mode::kAsyncCreatedStream: {
        mcStream_t stream = nullptr;
        ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
        ASSERT_EQ(
            mcMemcpyPeerAsync(dst + kMargin, c.dst_device, src + src_offset,
                              c.src_device, c.bytes, stream),
            mcSuccess);
        ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
        ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
        break;
      }
    }
    std::vector<unsigned char> result(dst_size);
    ASSERT_EQ(mcMemcpy(result.data(), dst, dst_size, mcMemcpyDeviceToHost),
              mcSuccess);
    for (size_t i = 0; i < dst_size; ++i) {
      const bool copied = i >= kMargin && i < kMargin + c.bytes;
      const unsigned char expected =
          copied ? SourceByte(i - kMargin + src_offset) : kDestinationByte;
      ASSERT_EQ(result[i], expected) << "byte " << i;
    }
    if (with_peer_access) {
      ASSERT_EQ(mcSetDevice(c.dst_device), mcSuccess);
      EXPECT_EQ(mcDeviceDisablePeerAccess(c.src_device), mcSuccess);
      ASSERT_EQ(mcSetDevice(0), mcSuccess);
    }
    FreeOn(c.src_device, src);
    FreeOn(c.dst_device, dst);
  }
};

TEST_P(PeerCopy, CopiesExactlyTheRange) {
  MX_SPEC("api.memory.memcpy-peer.copies",
          "api.memory.memcpy-peer.async-stream-ordered",
          "api.peer.copy.no-peer-access-needed", "api.peer.copy.same-device");
  CopyAndCheck(/*with_peer_access=*/false);
}

// Every size class: below, at and above the 256-byte allocation granule
// and the 4 KiB page, and large copies.
const size_t kSizes[] = {
    1,    2,    3,     7,     64,    255,     256,           257,    4095,
    4096, 4097, 65535, 65536, 65537, 1 << 20, (1 << 20) + 3, 8 << 20};

// Every size, in each direction and within each device, synchronous and
// in a created stream.
std::vector<CopyCase> AllCopyCases() {
  const std::pair<int, int> directions[] = {{0, 1}, {1, 0}, {0, 0}, {1, 1}};
  std::vector<CopyCase> cases;
  for (size_t bytes : kSizes) {
    for (const auto& [src, dst] : directions) {
      for (Mode mode : {Mode::kSync, Mode::kAsyncCreatedStream}) {
        cases.push_back(CopyCase{bytes, src, dst, mode});
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(SizesAndDirections, PeerCopy,
                         testing::ValuesIn(AllCopyCases()), CopyCaseName);

class PeerCopyWithAccess : public PeerCopy {};

TEST_P(PeerCopyWithAccess, CopiesExactlyTheRange) {
  MX_SPEC("api.memory.memcpy-peer.copies",
          "api.peer.copy.no-peer-access-needed");
  CopyAndCheck(/*with_peer_access=*/true);
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, PeerCopyWithAccess,
    testing::Values(CopyCase{1, 0, 1, Mode::kSync},
                    CopyCase{4096, 1, 0, Mode::kSync},
                    CopyCase{65537, 0, 1, Mode::kAsyncDefaultStream},
                    CopyCase{1 << 20, 1, 0, Mode::kAsyncCreatedStream},
                    CopyCase{300, 0, 1, Mode::kAsyncCreatedStream},
                    CopyCase{8 << 20, 1, 0, Mode::kSync}),
    CopyCaseName);

class PeerCopyInTheDefaultStream : public PeerCopy {};

TEST_P(PeerCopyInTheDefaultStream, CopiesExactlyTheRange) {
  MX_SPEC("api.memory.memcpy-peer.async-stream-ordered");
  CopyAndCheck(/*with_peer_access=*/false);
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, PeerCopyInTheDefaultStream,
    testing::Values(CopyCase{1, 0, 1, Mode::kAsyncDefaultStream},
                    CopyCase{256, 1, 0, Mode::kAsyncDefaultStream},
                    CopyCase{4097, 0, 1, Mode::kAsyncDefaultStream},
                    CopyCase{1 << 20, 1, 0, Mode::kAsyncDefaultStream},
                    CopyCase{1000, 1, 1, Mode::kAsyncDefaultStream}),
    CopyCaseName);

TEST_F(PeerCopyFixture, CountZeroCopiesNothing) {
  MX_SPEC("api.memory.memcpy-peer.count-zero");
  unsigned char* on0 = AllocateOn(0, 256);
  unsigned char* on1 = AllocateOn(1, 256);
  ASSERT_EQ(mcMemset(on0, 1, 256), mcSuccess);
  ASSERT_EQ(mcMemset(on1, 2, 256), mcSuccess);
  EXPECT_EQ(mcMemcpyPeer(on1, 1, on0, 0, 0), mcSuccess);
  EXPECT_EQ(mcMemcpyPeerAsync(on1, 1, on0, 0, 0, nullptr), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  unsigned char read[256];
  ASSERT_EQ(mcMemcpy(read, on1, 256, mcMemcpyDeviceToHost), mcSuccess);
  for (unsigned char c : read) ASSERT_EQ(c, 2);
  // Control: one byte is copied.
  EXPECT_EQ(mcMemcpyPeer(on1, 1, on0, 0, 1), mcSuccess);
  ASSERT_EQ(mcMemcpy(read, on1, 2, mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(read[0], 1);
  EXPECT_EQ(read[1], 2);
  FreeOn(0, on0);
  FreeOn(1, on1);
}

// --- Device variables. ---

__device__ int device_table[64];

__global__ void SumTable(int* sum) {
  if (threadIdx.x == 0) {
    int total = 0;
    for (int i = 0; i < 64; ++i) total += device_table[i];
    *sum = total;
  }
}

TEST_F(PeerCopyFixture, CopiesIntoADeviceVariableOfThePeer) {
  MX_SPEC("api.memory.memcpy-peer.copies", "api.peer.copy.device-memory-only");
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  void* table_on1 = nullptr;
  ASSERT_EQ(mcGetSymbolAddress(&table_on1, device_table), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  std::vector<int> values(64);
  for (int i = 0; i < 64; ++i) values[i] = i + 1;
  int* on0 = nullptr;
  ASSERT_EQ(mcMalloc(&on0, sizeof(int) * 64), mcSuccess);
  ASSERT_EQ(
      mcMemcpy(on0, values.data(), sizeof(int) * 64, mcMemcpyHostToDevice),
      mcSuccess);
  ASSERT_EQ(mcMemcpyPeer(table_on1, 1, on0, 0, sizeof(int) * 64), mcSuccess);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  int* sum = nullptr;
  ASSERT_EQ(mcMallocManaged(&sum, sizeof(int)), mcSuccess);
  *sum = 0;
  SumTable<<<1, 1>>>(sum);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(*sum, 64 * 65 / 2);
  mcFree(sum);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  mcFree(on0);
}

// --- Ordering. ---

__global__ void FillWith(int* data, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value + i;
}

__global__ void AddTo(int* data, int n, int delta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += delta;
}

constexpr int kElements = 1 << 16;
constexpr size_t kChainBytes = kElements * sizeof(int);

struct ChainCase {
  const char* name;
  int stream_device;  // the device whose stream carries the chain
  bool created_stream;
  bool non_blocking;
};

class AsyncChain : public PeerCopyFixture,
                   public testing::WithParamInterface<ChainCase> {};

// In one stream: a kernel fills A (on the stream's device), A is copied to
// B (the other device), B back to C (the stream's device), a kernel adds
// to C, C goes to page-locked host memory. Only the stream orders these.
TEST_P(AsyncChain, EachStepSeesTheOneBefore) {
  MX_SPEC("api.peer.copy.async-ordered-in-stream-only",
          "api.memory.memcpy-peer.async-stream-ordered");
  const ChainCase& c = GetParam();
  const int here = c.stream_device;
  const int there = 1 - here;
  int* a = reinterpret_cast<int*>(AllocateOn(here, kChainBytes));
  int* b = reinterpret_cast<int*>(AllocateOn(there, kChainBytes));
  int* result = reinterpret_cast<int*>(AllocateOn(here, kChainBytes));
  ASSERT_EQ(mcSetDevice(here), mcSuccess);
  int* host = nullptr;
  ASSERT_EQ(mcMallocHost(&host, kChainBytes), mcSuccess);
  mcStream_t stream = nullptr;
  if (c.created_stream) {
    ASSERT_EQ(
        mcStreamCreateWithFlags(
            &stream, c.non_blocking ? mcStreamNonBlocking : mcStreamDefault),
        mcSuccess);
  }
  for (int round = 0; round < 3; ++round) {
    const int base = 1000 * (round + 1);
    FillWith<<<kElements / 256, 256, 0, stream>>>(a, kElements, base);
    ASSERT_EQ(mcMemcpyPeerAsync(b, there, a, here, kChainBytes, stream),
              mcSuccess);
    ASSERT_EQ(mcMemcpyPeerAsync(result, here, b, there, kChainBytes, stream),
              mcSuccess);
    AddTo<<<kElements / 256, 256, 0, stream>>>(result, kElements, 7);
    ASSERT_EQ(
        mcMemcpyAsync(host, result, kChainBytes, mcMemcpyDeviceToHost, stream),
        mcSuccess);
    ASSERT_EQ(mcGetLastError(), mcSuccess);
    ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
    for (int i = 0; i < kElements; ++i) {
      ASSERT_EQ(host[i], base + i + 7) << "round " << round << " element " << i;
    }
  }
  if (stream != nullptr) mcStreamDestroy(stream);
  mcFreeHost(host);
  FreeOn(here, a);
  FreeOn(there, b);
  FreeOn(here, result);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Streams, AsyncChain,
    testing::Values(ChainCase{"Device0DefaultStream", 0, false, false},
                    ChainCase{"Device1DefaultStream", 1, false, false},
                    ChainCase{"Device0CreatedStream", 0, true, false},
                    ChainCase{"Device1CreatedStream", 1, true, false},
                    ChainCase{"Device0NonBlockingStream", 0, true, true},
                    ChainCase{"Device1NonBlockingStream", 1, true, true}),
    [](const testing::TestParamInfo<ChainCase>& info) {
      return info.param.name;
    });

// The synchronous copy waits for work already issued to its source device
// (here in a non-blocking stream of device 1, which nothing else orders),
// and has finished when it returns.
TEST_F(PeerCopyFixture, SyncCopyWaitsForWorkIssuedToItsDevices) {
  MX_SPEC("api.peer.copy.sync-serialized-with-devices");
  int* src = reinterpret_cast<int*>(AllocateOn(1, kChainBytes));
  int* dst = reinterpret_cast<int*>(AllocateOn(0, kChainBytes));
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreateWithFlags(&stream, mcStreamNonBlocking), mcSuccess);
  for (int round = 0; round < 3; ++round) {
    ASSERT_EQ(mcSetDevice(1), mcSuccess);
    FillWith<<<kElements / 256, 256, 0, stream>>>(src, kElements, 50 * round);
    AddTo<<<kElements / 256, 256, 0, stream>>>(src, kElements, 3);
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    ASSERT_EQ(mcMemcpyPeer(dst, 0, src, 1, kChainBytes), mcSuccess);
    // Work issued afterwards does not change what was copied.
    ASSERT_EQ(mcSetDevice(1), mcSuccess);
    FillWith<<<kElements / 256, 256, 0, stream>>>(src, kElements, -1);
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    std::vector<int> host(kElements);
    ASSERT_EQ(mcMemcpy(host.data(), dst, kChainBytes, mcMemcpyDeviceToHost),
              mcSuccess);
    for (int i = 0; i < kElements; ++i) {
      ASSERT_EQ(host[i], 50 * round + i + 3) << "round " << round;
    }
  }
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  mcStreamDestroy(stream);
  FreeOn(1, src);
  FreeOn(0, dst);
}

// The same with the destination's device busy: the copy lands after the
// destination's pending kernel, so the kernel's writes are overwritten.
TEST_F(PeerCopyFixture, SyncCopyLandsAfterWorkOnItsDestinationDevice) {
  MX_SPEC("api.peer.copy.sync-serialized-with-devices");
  int* src = reinterpret_cast<int*>(AllocateOn(0, kChainBytes));
  int* dst = reinterpret_cast<int*>(AllocateOn(1, kChainBytes));
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  FillWith<<<kElements / 256, 256>>>(src, kElements, 9);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreateWithFlags(&stream, mcStreamNonBlocking), mcSuccess);
  FillWith<<<kElements / 256, 256, 0, stream>>>(dst, kElements, -500);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  ASSERT_EQ(mcMemcpyPeer(dst, 1, src, 0, kChainBytes), mcSuccess);
  std::vector<int> host(kElements);
  ASSERT_EQ(mcMemcpy(host.data(), dst, kChainBytes, mcMemcpyDefault),
            mcSuccess);
  for (int i = 0; i < kElements; ++i) ASSERT_EQ(host[i], 9 + i) << i;
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(stream), mcSuccess);
  mcStreamDestroy(stream);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  FreeOn(0, src);
  FreeOn(1, dst);
}

// Two streams of different devices: each chain sees only its own order,
// and both results are right once both streams are synchronized.
TEST_F(PeerCopyFixture, CopiesInTwoStreamsEachFollowTheirOwnStream) {
  MX_SPEC("api.peer.copy.async-ordered-in-stream-only");
  int* x0 = reinterpret_cast<int*>(AllocateOn(0, kChainBytes));
  int* x1 = reinterpret_cast<int*>(AllocateOn(1, kChainBytes));
  int* y0 = reinterpret_cast<int*>(AllocateOn(0, kChainBytes));
  int* y1 = reinterpret_cast<int*>(AllocateOn(1, kChainBytes));
  mcStream_t s0 = nullptr, s1 = nullptr;
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  ASSERT_EQ(mcStreamCreateWithFlags(&s0, mcStreamNonBlocking), mcSuccess);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcStreamCreateWithFlags(&s1, mcStreamNonBlocking), mcSuccess);
  // Chain 0: x0 -> x1 in s0. Chain 1: y1 -> y0 in s1.
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  FillWith<<<kElements / 256, 256, 0, s0>>>(x0, kElements, 100);
  ASSERT_EQ(mcMemcpyPeerAsync(x1, 1, x0, 0, kChainBytes, s0), mcSuccess);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  FillWith<<<kElements / 256, 256, 0, s1>>>(y1, kElements, 200);
  ASSERT_EQ(mcMemcpyPeerAsync(y0, 0, y1, 1, kChainBytes, s1), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(s0), mcSuccess);
  ASSERT_EQ(mcStreamSynchronize(s1), mcSuccess);
  std::vector<int> host(kElements);
  ASSERT_EQ(mcMemcpy(host.data(), x1, kChainBytes, mcMemcpyDefault), mcSuccess);
  for (int i = 0; i < kElements; ++i) ASSERT_EQ(host[i], 100 + i);
  ASSERT_EQ(mcMemcpy(host.data(), y0, kChainBytes, mcMemcpyDefault), mcSuccess);
  for (int i = 0; i < kElements; ++i) ASSERT_EQ(host[i], 200 + i);
  mcStreamDestroy(s1);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  mcStreamDestroy(s0);
  FreeOn(0, x0);
  FreeOn(1, x1);
  FreeOn(0, y0);
  FreeOn(1, y1);
}

}  // namespace
