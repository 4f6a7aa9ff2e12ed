// Copyright mxcts authors.
//
// Tests of the peer entry points: the capability query, enabling and
// disabling with each of their errors, and peer copies (results, argument
// errors that change nothing, a faulted device's sticky error). The two
// simulated devices of the default configuration are used.

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "mc_runtime.h"
#include "reference/runtime/peer/peer_access.h"
#include "reference/runtime/testing/runtime_testing.h"

namespace {

class PeerApiTest : public testing::Test {
 protected:
  void SetUp() override {
    for (int device = 0; device < 2; ++device) {
      mxcts::runtime::ResetPeerAccess(device);
    }
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    mcGetLastError();
  }
  void TearDown() override {
    mcSetDevice(0);
    mcGetLastError();
  }
};

TEST_F(PeerApiTest, CanAccessPeer) {
  int can = -1;
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, 0, 1), mcSuccess);
  EXPECT_EQ(can, 1);
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, 1, 1), mcSuccess);
  EXPECT_EQ(can, 0);
  can = -1;
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, 2, 0), mcErrorInvalidDevice);
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, 0, -1), mcErrorInvalidDevice);
  EXPECT_EQ(can, -1);
  EXPECT_EQ(mcDeviceCanAccessPeer(nullptr, 0, 1), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
}

TEST_F(PeerApiTest, EnableErrors) {
  EXPECT_EQ(mcDeviceEnablePeerAccess(2, 0), mcErrorInvalidDevice);
  EXPECT_EQ(mcDeviceEnablePeerAccess(-1, 0), mcErrorInvalidDevice);
  EXPECT_EQ(mcDeviceEnablePeerAccess(0, 0), mcErrorInvalidDevice);  // self
  EXPECT_EQ(mcDeviceEnablePeerAccess(1, 1), mcErrorInvalidValue);
  EXPECT_FALSE(mxcts::runtime::PeerAccessTable::Get().IsEnabled(0, 1));
  EXPECT_EQ(mcDeviceEnablePeerAccess(1, 0), mcSuccess);
  EXPECT_EQ(mcDeviceEnablePeerAccess(1, 0), mcErrorPeerAccessAlreadyEnabled);
  EXPECT_TRUE(mxcts::runtime::PeerAccessTable::Get().IsEnabled(0, 1));
  EXPECT_FALSE(mxcts::runtime::PeerAccessTable::Get().IsEnabled(1, 0));
}

TEST_F(PeerApiTest, DisableErrors) {
  EXPECT_EQ(mcDeviceDisablePeerAccess(1), mcErrorPeerAccessNotEnabled);
  EXPECT_EQ(mcDeviceDisablePeerAccess(0), mcErrorInvalidDevice);  // self
  EXPECT_EQ(mcDeviceDisablePeerAccess(7), mcErrorInvalidDevice);
  ASSERT_EQ(mcDeviceEnablePeerAccess(1, 0), mcSuccess);
  EXPECT_EQ(mcDeviceDisablePeerAccess(1), mcSuccess);
  EXPECT_EQ(mcDeviceDisablePeerAccess(1), mcErrorPeerAccessNotEnabled);
}

// A device allocation of `bytes` on `device`; the current device is 0
// again afterwards.
char* AllocateOn(int device, size_t bytes) {
  char* p = nullptr;
  EXPECT_EQ(mcSetDevice(device), mcSuccess);
  EXPECT_EQ(mcMalloc(&p, bytes), mcSuccess);
  EXPECT_EQ(mcSetDevice(0), mcSuccess);
  return p;
}

TEST_F(PeerApiTest, MemcpyPeerCopiesBetweenDevices) {
  const size_t n = 10000;
  char* on0 = AllocateOn(0, n);
  char* on1 = AllocateOn(1, n);
  std::vector<char> in(n), out(n);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<char>(i * 7);
  ASSERT_EQ(mcMemcpy(on0, in.data(), n, mcMemcpyHostToDevice), mcSuccess);
  EXPECT_EQ(mcMemcpyPeer(on1, 1, on0, 0, n), mcSuccess);
  ASSERT_EQ(mcMemcpy(out.data(), on1, n, mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(out, in);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  std::memset(out.data(), 0, n);
  ASSERT_EQ(mcMemset(on0, 0, n), mcSuccess);
  EXPECT_EQ(mcMemcpyPeerAsync(on0, 0, on1, 1, n, stream), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(stream), mcSuccess);
  ASSERT_EQ(mcMemcpy(out.data(), on0, n, mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(out, in);
  mcStreamDestroy(stream);
  mcFree(on0);
  mcFree(on1);
}

TEST_F(PeerApiTest, MemcpyPeerArgumentErrorsCopyNothing) {
  char* on0 = AllocateOn(0, 256);
  char* on1 = AllocateOn(1, 256);
  ASSERT_EQ(mcMemset(on0, 1, 256), mcSuccess);
  ASSERT_EQ(mcMemset(on1, 2, 256), mcSuccess);
  EXPECT_EQ(mcMemcpyPeer(on1, 2, on0, 0, 16), mcErrorInvalidDevice);
  EXPECT_EQ(mcMemcpyPeer(on1, 1, on0, -1, 16), mcErrorInvalidDevice);
  EXPECT_EQ(mcMemcpyPeer(on1, 0, on0, 0, 16), mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpyPeer(on1, 1, on0, 1, 16), mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpyPeer(nullptr, 1, on0, 0, 16), mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpyPeer(on1, 1, on0, 0, 257), mcErrorInvalidValue);
  char host[16] = {};
  EXPECT_EQ(mcMemcpyPeer(host, 1, on0, 0, 16), mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpyPeerAsync(on1, 1, on0, 0, 16,
                              reinterpret_cast<mcStream_t>(0x5678)),
            mcErrorInvalidResourceHandle);
  // Count 0 succeeds whatever the pointers, once the devices are valid.
  EXPECT_EQ(mcMemcpyPeer(nullptr, 1, nullptr, 0, 0), mcSuccess);
  EXPECT_EQ(mcMemcpyPeer(nullptr, 3, nullptr, 0, 0), mcErrorInvalidDevice);
  char check[256];
  ASSERT_EQ(mcMemcpy(check, on1, 256, mcMemcpyDeviceToHost), mcSuccess);
  for (char c : check) ASSERT_EQ(c, 2);
  mcFree(on0);
  mcFree(on1);
}

// --- A faulted device. ---

void NothingEntry(void**) {}
const unsigned kNone[] = {0};
const __mc_internal::KernelRecord kNothing = {
    "[with Sig = void (*)(); Sig F = faulty]",
    &NothingEntry,
    0,
    kNone,
    kNone,
    0,
    0,
    0,
    nullptr};
void FaultyStub() {}

TEST_F(PeerApiTest, CopyWithAFaultedDeviceReturnsItsStickyError) {
  char* on0 = AllocateOn(0, 64);
  char* on1 = AllocateOn(1, 64);
  mxcts::runtime_testing::RegisterKernelRecord(
      reinterpret_cast<const void*>(&FaultyStub), &kNothing);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  {
    mxcts::runtime_testing::SetRunnerResult(mcErrorIllegalAddress);
    mxcts::runtime_testing::ScopedGridRunner runner(
        &mxcts::runtime_testing::ReturnRunnerResult);
    ASSERT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(&FaultyStub),
                             dim3(1), dim3(1), nullptr, 0, nullptr),
              mcSuccess);
  }
  ASSERT_EQ(mcDeviceSynchronize(), mcErrorIllegalAddress);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  EXPECT_EQ(mcMemcpyPeer(on0, 0, on1, 1, 64), mcErrorIllegalAddress);
  EXPECT_EQ(mcMemcpyPeer(on1, 1, on0, 0, 64), mcErrorIllegalAddress);
  // Control: device 0 alone still works.
  EXPECT_EQ(mcMemcpyPeer(on0, 0, on0, 0, 32), mcSuccess);
  EXPECT_EQ(mcDeviceEnablePeerAccess(1, 0), mcSuccess);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  EXPECT_EQ(mcDeviceEnablePeerAccess(0, 0), mcErrorIllegalAddress);
  EXPECT_EQ(mcDeviceReset(), mcSuccess);
  mcGetLastError();
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  mcFree(on0);
}

}  // namespace
