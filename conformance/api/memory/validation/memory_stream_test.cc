// Copyright mxcts authors.
//
// Conformance: every asynchronous memory call with a stream handle that
// names no live stream (a destroyed stream) returns
// mcErrorInvalidResourceHandle and enqueues nothing; the same call in a
// live stream is the control (docs/spec/api-memory.md).

#include <mc_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using mxcts::conformance::memory::Buffer;
using mxcts::conformance::memory::Kind;

enum class AsyncCall {
  kMemcpyAsync,
  kMemcpy2DAsync,
  kMemcpy3DAsync,
  kMemcpyHtoDAsync,
  kMemcpyDtoHAsync,
  kMemcpyDtoDAsync,
  kMemsetAsync,
  kMemset2DAsync,
  kMemset3DAsync,
  kMemsetD8Async,
  kMemsetD16Async,
  kMemsetD32Async,
  kMemPrefetchAsync,
};

const char* AsyncCallName(AsyncCall call) {
  static const char* const kNames[] = {
      "MemcpyAsync",     "Memcpy2DAsync",   "Memcpy3DAsync",  "MemcpyHtoDAsync",
      "MemcpyDtoHAsync", "MemcpyDtoDAsync", "MemsetAsync",    "Memset2DAsync",
      "Memset3DAsync",   "MemsetD8Async",   "MemsetD16Async", "MemsetD32Async",
      "MemPrefetchAsync"};
  return kNames[static_cast<int>(call)];
}

// A device-to-device 3D copy of `depth` slices of 16 x 2 bytes from `src`
// to `dst`.
mcMemcpy3DParms Copy3DParams(unsigned char* dst, unsigned char* src,
                             size_t depth) {
  mcMemcpy3DParms p = {};
  p.srcPtr = make_mcPitchedPtr(src, 16, 16, 2);
  p.dstPtr = make_mcPitchedPtr(dst, 16, 16, 2);
  p.extent = make_mcExtent(16, 2, depth);
  p.kind = mcMemcpyDeviceToDevice;
  return p;
}

// Issues `call` in `stream`: writes 64 bytes of `dst` (device or managed
// memory) from `src` (device memory), or prefetches `dst`.
mcError_t Issue(AsyncCall call, unsigned char* dst, unsigned char* src,
                mcStream_t stream) {
  mcMemcpy3DParms p = Copy3DParams(dst, src, 2);
  unsigned char host[64] = {};
  switch (call) {
    case AsyncCall::kMemcpyAsync:
      return mcMemcpyAsync(dst, src, 64, mcMemcpyDeviceToDevice, stream);
    case AsyncCall::kMemcpy2DAsync:
      return mcMemcpy2DAsync(dst, 16, src, 16, 16, 4, mcMemcpyDeviceToDevice,
                             stream);
    case AsyncCall::kMemcpy3DAsync:
      return mcMemcpy3DAsync(&p, stream);
    case AsyncCall::kMemcpyHtoDAsync:
      return mcMemcpyHtoDAsync(dst, host, 64, stream);
    case AsyncCall::kMemcpyDtoHAsync:
      // Writes the host buffer: the device buffers must stay as they are.
      return mcMemcpyDtoHAsync(host, src, 64, stream);
    case AsyncCall::kMemcpyDtoDAsync:
      return mcMemcpyDtoDAsync(dst, src, 64, stream);
    case AsyncCall::kMemsetAsync:
      return mcMemsetAsync(dst, 0, 64, stream);
    case AsyncCall::kMemset2DAsync:
      return mcMemset2DAsync(dst, 16, 0, 16, 4, stream);
    case AsyncCall::kMemset3DAsync:
      return mcMemset3DAsync(p.dstPtr, 0, p.extent, stream);
    case AsyncCall::kMemsetD8Async:
      return mcMemsetD8Async(dst, 0, 64, stream);
    case AsyncCall::kMemsetD16Async:
      return mcMemsetD16Async(dst, 0, 32, stream);
    case AsyncCall::kMemsetD32Async:
      return mcMemsetD32Async(dst, 0, 16, stream);
    case AsyncCall::kMemPrefetchAsync:
      return mcMemPrefetchAsync(dst, 64, 0, stream);
  }
  return mcErrorUnknown;
}

class DestroyedStream : public testing::TestWithParam<AsyncCall> {};

TEST_P(DestroyedStream, IsInvalidResourceHandleAndEnqueuesNothing) {
  MX_SPEC("api.memory.memcpy-async.invalid-stream",
          "api.memory.memcpy-2d-async.invalid-stream",
          "api.memory.memcpy-3d-async.invalid-stream",
          "api.memory.memcpy-driver.invalid-stream",
          "api.memory.memset-async.invalid-stream",
          "api.memory.prefetch.invalid-stream",
          "api.memory.lifetime.failed-call-changes-nothing");
  const AsyncCall call = GetParam();
  const Kind kind =
      call == AsyncCall::kMemPrefetchAsync ? Kind::kManaged : Kind::kDevice;
  MX_REQUIRE_MEMORY_KIND(kind);
  Buffer dst(kind, 64, 1);
  Buffer src(Kind::kDevice, 64, 2);
  ASSERT_TRUE(dst.ok() && src.ok());
  mcStream_t dead = nullptr;
  ASSERT_EQ(mcStreamCreate(&dead), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(dead), mcSuccess);
  EXPECT_EQ(Issue(call, dst.data(), src.data(), dead),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  EXPECT_EQ(dst.FirstChange(), "");
  EXPECT_EQ(src.FirstChange(), "");
  // Control: a live stream.
  mcStream_t live = nullptr;
  ASSERT_EQ(mcStreamCreate(&live), mcSuccess);
  EXPECT_EQ(Issue(call, dst.data(), src.data(), live), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(live), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(live), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    EveryCall, DestroyedStream,
    testing::Values(AsyncCall::kMemcpyAsync, AsyncCall::kMemcpy2DAsync,
                    AsyncCall::kMemcpy3DAsync, AsyncCall::kMemcpyHtoDAsync,
                    AsyncCall::kMemcpyDtoHAsync, AsyncCall::kMemcpyDtoDAsync,
                    AsyncCall::kMemsetAsync, AsyncCall::kMemset2DAsync,
                    AsyncCall::kMemset3DAsync, AsyncCall::kMemsetD8Async,
                    AsyncCall::kMemsetD16Async, AsyncCall::kMemsetD32Async,
                    AsyncCall::kMemPrefetchAsync),
    [](const testing::TestParamInfo<AsyncCall>& info) {
      return std::string(AsyncCallName(info.param));
    });

// A copy of nothing into a destroyed stream is refused all the same: an
// empty extent or count makes the copy empty, not the stream live
// (the zero-extent rules hold for otherwise valid parameters).
class EmptyCopyInDestroyedStream : public testing::TestWithParam<AsyncCall> {};

mcError_t IssueEmpty(AsyncCall call, unsigned char* dst, unsigned char* src,
                     mcStream_t stream) {
  mcMemcpy3DParms p = Copy3DParams(dst, src, 0);
  switch (call) {
    case AsyncCall::kMemcpy2DAsync:
      return mcMemcpy2DAsync(dst, 16, src, 16, 16, 0, mcMemcpyDeviceToDevice,
                             stream);
    case AsyncCall::kMemcpy3DAsync:
      return mcMemcpy3DAsync(&p, stream);
    default:
      return mcMemcpyAsync(dst, src, 0, mcMemcpyDeviceToDevice, stream);
  }
}

TEST_P(EmptyCopyInDestroyedStream, IsInvalidResourceHandle) {
  MX_SPEC("api.memory.memcpy-async.invalid-stream",
          "api.memory.memcpy-2d-async.invalid-stream",
          "api.memory.memcpy-3d-async.invalid-stream",
          "api.memory.memcpy.count-zero", "api.memory.memcpy-2d.zero-extent",
          "api.memory.memcpy-3d.zero-extent");
  Buffer dst(Kind::kDevice, 64, 1);
  Buffer src(Kind::kDevice, 64, 2);
  ASSERT_TRUE(dst.ok() && src.ok());
  mcStream_t dead = nullptr;
  ASSERT_EQ(mcStreamCreate(&dead), mcSuccess);
  ASSERT_EQ(mcStreamDestroy(dead), mcSuccess);
  EXPECT_EQ(IssueEmpty(GetParam(), dst.data(), src.data(), dead),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidResourceHandle);
  // Control: the same empty copy in a live stream succeeds.
  mcStream_t live = nullptr;
  ASSERT_EQ(mcStreamCreate(&live), mcSuccess);
  EXPECT_EQ(IssueEmpty(GetParam(), dst.data(), src.data(), live), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(live), mcSuccess);
  EXPECT_EQ(mcStreamDestroy(live), mcSuccess);
  EXPECT_EQ(dst.FirstChange(), "");
}

INSTANTIATE_TEST_SUITE_P(Copies, EmptyCopyInDestroyedStream,
                         testing::Values(AsyncCall::kMemcpyAsync,
                                         AsyncCall::kMemcpy2DAsync,
                                         AsyncCall::kMemcpy3DAsync),
                         [](const testing::TestParamInfo<AsyncCall>& info) {
                           return std::string(AsyncCallName(info.param));
                         });

}  // namespace
