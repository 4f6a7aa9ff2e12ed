// Copyright mxcts authors.
//
// Conformance: what peer access does (docs/spec/api-multi-device.md, "Peer
// access"): mcDeviceCanAccessPeer's answers, enabling and disabling in one
// direction at a time, access shared by every host thread and kept until
// disabled, and kernels on one device reading and writing another device's
// memory once access is enabled. Managed and page-locked host memory need
// no peer access.
//
// Every test leaves peer access disabled in both directions between
// devices 0 and 1. Checked mode, where access without peer access traps,
// is peer_checked_access_test.cc.

#include <mc_runtime.h>

#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "conformance/api/testing/memory_testing.h"
#include "conformance/testing/spec.h"

namespace {

using PeerAccess = ::mxcts::conformance::memory::PeerAccessTest;

// --- mcDeviceCanAccessPeer. ---

using DevicePair = std::pair<int, int>;

std::string PairName(const testing::TestParamInfo<DevicePair>& info) {
  return "Device" + std::to_string(info.param.first) + "Peer" +
         std::to_string(info.param.second);
}

class CanAccessPeer : public PeerAccess,
                      public testing::WithParamInterface<DevicePair> {};

TEST_P(CanAccessPeer, AnswersOneForDistinctDevicesAndZeroForTheSame) {
  MX_SPEC("api.peer.can-access.reports-capability",
          "api.peer.can-access.same-device",
          "api.peer.can-access.reference-every-pair");
  const auto [device, peer] = GetParam();
  int can = -1;
  ASSERT_EQ(mcDeviceCanAccessPeer(&can, device, peer), mcSuccess);
  EXPECT_EQ(can, device == peer ? 0 : 1);
  // The answer does not depend on the current device or on access being
  // enabled.
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  int again = -1;
  ASSERT_EQ(mcDeviceCanAccessPeer(&again, device, peer), mcSuccess);
  EXPECT_EQ(again, can);
  if (device != peer) {
    ASSERT_EQ(mcSetDevice(device), mcSuccess);
    ASSERT_EQ(mcDeviceEnablePeerAccess(peer, 0), mcSuccess);
    ASSERT_EQ(mcDeviceCanAccessPeer(&again, device, peer), mcSuccess);
    EXPECT_EQ(again, 1);
    ASSERT_EQ(mcDeviceDisablePeerAccess(peer), mcSuccess);
  }
}

INSTANTIATE_TEST_SUITE_P(Pairs, CanAccessPeer,
                         testing::Values(DevicePair(0, 1), DevicePair(1, 0),
                                         DevicePair(0, 0), DevicePair(1, 1)),
                         PairName);

// --- Enabling and disabling. ---

class Direction : public PeerAccess,
                  public testing::WithParamInterface<DevicePair> {
 protected:
  int From() const { return GetParam().first; }
  int To() const { return GetParam().second; }
};

TEST_P(Direction, DisableThenEnableAgain) {
  MX_SPEC("api.peer.disable.revokes-access");
  ASSERT_EQ(mcSetDevice(From()), mcSuccess);
  for (int round = 0; round < 5; ++round) {
    EXPECT_EQ(mcDeviceEnablePeerAccess(To(), 0), mcSuccess) << round;
    EXPECT_EQ(mcDeviceDisablePeerAccess(To()), mcSuccess) << round;
  }
  EXPECT_EQ(mcGetLastError(), mcSuccess);
}

TEST_P(Direction, EnablingOneDirectionLeavesTheOther) {
  MX_SPEC("api.peer.enable.one-directional");
  ASSERT_EQ(mcSetDevice(From()), mcSuccess);
  ASSERT_EQ(mcDeviceEnablePeerAccess(To(), 0), mcSuccess);
  ASSERT_EQ(mcSetDevice(To()), mcSuccess);
  // The opposite direction is not enabled ...
  EXPECT_EQ(mcDeviceDisablePeerAccess(From()), mcErrorPeerAccessNotEnabled);
  // ... and enabling it is a separate call that succeeds.
  EXPECT_EQ(mcDeviceEnablePeerAccess(From(), 0), mcSuccess);
  EXPECT_EQ(mcDeviceDisablePeerAccess(From()), mcSuccess);
  ASSERT_EQ(mcSetDevice(From()), mcSuccess);
  EXPECT_EQ(mcDeviceDisablePeerAccess(To()), mcSuccess);
}

TEST_P(Direction, AccessIsSharedByEveryHostThread) {
  MX_SPEC("api.peer.enable.process-wide");
  mcError_t enabled = mcErrorUnknown;
  std::thread enabler([&] {
    mcSetDevice(From());
    enabled = mcDeviceEnablePeerAccess(To(), 0);
  });
  enabler.join();
  ASSERT_EQ(enabled, mcSuccess);
  // This thread sees the access another thread enabled.
  ASSERT_EQ(mcSetDevice(From()), mcSuccess);
  EXPECT_EQ(mcDeviceEnablePeerAccess(To(), 0), mcErrorPeerAccessAlreadyEnabled);
  mcError_t disabled = mcErrorUnknown;
  mcError_t disabled_again = mcErrorUnknown;
  std::thread disabler([&] {
    mcSetDevice(From());
    disabled = mcDeviceDisablePeerAccess(To());
    disabled_again = mcDeviceDisablePeerAccess(To());
  });
  disabler.join();
  EXPECT_EQ(disabled, mcSuccess);
  EXPECT_EQ(disabled_again, mcErrorPeerAccessNotEnabled);
  // And sees it disabled.
  EXPECT_EQ(mcDeviceDisablePeerAccess(To()), mcErrorPeerAccessNotEnabled);
}

__global__ void AddOne(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

TEST_P(Direction, StaysEnabledUntilDisabled) {
  MX_SPEC("api.peer.enable.persists-until-disabled");
  ASSERT_EQ(mcSetDevice(From()), mcSuccess);
  ASSERT_EQ(mcDeviceEnablePeerAccess(To(), 0), mcSuccess);
  // Work on both devices, synchronization, switching devices, and
  // allocations do not end it.
  int* data = nullptr;
  for (int device : {From(), To(), From()}) {
    ASSERT_EQ(mcSetDevice(device), mcSuccess);
    ASSERT_EQ(mcMalloc(&data, 256 * sizeof(int)), mcSuccess);
    ASSERT_EQ(mcMemset(data, 0, 256 * sizeof(int)), mcSuccess);
    AddOne<<<1, 256>>>(data, 256);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    ASSERT_EQ(mcFree(data), mcSuccess);
  }
  ASSERT_EQ(mcSetDevice(From()), mcSuccess);
  EXPECT_EQ(mcDeviceEnablePeerAccess(To(), 0), mcErrorPeerAccessAlreadyEnabled);
  EXPECT_EQ(mcDeviceDisablePeerAccess(To()), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Directions, Direction,
                         testing::Values(DevicePair(0, 1), DevicePair(1, 0)),
                         PairName);

// --- Kernels using another device's memory. ---

// Each element i of `peer_data` (memory of the peer) becomes
// own[i] + 10 * peer_data[i]; own[i] gets the old peer value.
__global__ void ExchangeWithPeer(int* own, int* peer_data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int peer_value = peer_data[i];
    peer_data[i] = own[i] + 10 * peer_value;
    own[i] = peer_value;
  }
}

std::vector<int> Iota(int n, int start) {
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) values[i] = start + i;
  return values;
}

struct AccessCase {
  const char* name;
  int from;
  int to;
  int elements;
  bool allocate_after_enable;
};

class KernelOnPeerMemory : public PeerAccess,
                           public testing::WithParamInterface<AccessCase> {};

TEST_P(KernelOnPeerMemory, ReadsAndWritesItOnceEnabled) {
  MX_SPEC("api.peer.enable.grants-access");
  const AccessCase& c = GetParam();
  const size_t bytes = c.elements * sizeof(int);
  int* peer_data = nullptr;
  int* own = nullptr;
  ASSERT_EQ(mcSetDevice(c.to), mcSuccess);
  if (!c.allocate_after_enable) {
    ASSERT_EQ(mcMalloc(&peer_data, bytes), mcSuccess);
  }
  ASSERT_EQ(mcSetDevice(c.from), mcSuccess);
  ASSERT_EQ(mcDeviceEnablePeerAccess(c.to, 0), mcSuccess);
  if (c.allocate_after_enable) {
    ASSERT_EQ(mcSetDevice(c.to), mcSuccess);
    ASSERT_EQ(mcMalloc(&peer_data, bytes), mcSuccess);
    ASSERT_EQ(mcSetDevice(c.from), mcSuccess);
  }
  ASSERT_EQ(mcMalloc(&own, bytes), mcSuccess);
  const std::vector<int> own_in = Iota(c.elements, 1);
  const std::vector<int> peer_in = Iota(c.elements, 1000);
  ASSERT_EQ(mcMemcpy(own, own_in.data(), bytes, mcMemcpyHostToDevice),
            mcSuccess);
  ASSERT_EQ(mcMemcpy(peer_data, peer_in.data(), bytes, mcMemcpyHostToDevice),
            mcSuccess);
  ExchangeWithPeer<<<(c.elements + 127) / 128, 128>>>(own, peer_data,
                                                      c.elements);
  ASSERT_EQ(mcGetLastError(), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  std::vector<int> own_out(c.elements), peer_out(c.elements);
  ASSERT_EQ(mcMemcpy(own_out.data(), own, bytes, mcMemcpyDeviceToHost),
            mcSuccess);
  ASSERT_EQ(mcMemcpy(peer_out.data(), peer_data, bytes, mcMemcpyDeviceToHost),
            mcSuccess);
  for (int i = 0; i < c.elements; ++i) {
    ASSERT_EQ(own_out[i], peer_in[i]) << i;
    ASSERT_EQ(peer_out[i], own_in[i] + 10 * peer_in[i]) << i;
  }
  EXPECT_EQ(mcDeviceDisablePeerAccess(c.to), mcSuccess);
  mcFree(own);
  ASSERT_EQ(mcSetDevice(c.to), mcSuccess);
  mcFree(peer_data);
}

INSTANTIATE_TEST_SUITE_P(
    Directions, KernelOnPeerMemory,
    testing::Values(AccessCase{"From0To1", 0, 1, 1000, false},
                    AccessCase{"From1To0", 1, 0, 1000, false},
                    AccessCase{"From0To1AllocatedAfter", 0, 1, 4096, true},
                    AccessCase{"From1To0AllocatedAfter", 1, 0, 4096, true},
                    AccessCase{"From0To1OneElement", 0, 1, 1, false},
                    AccessCase{"From1To0Large", 1, 0, 1 << 18, false}),
    [](const testing::TestParamInfo<AccessCase>& info) {
      return info.param.name;
    });

// --- Managed and page-locked host memory. ---

__global__ void Scale(int* data, int n, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

TEST_F(PeerAccess, ManagedAndHostMemoryNeedNoPeerAccess) {
  MX_SPEC("api.peer.access.managed-and-host-memory-need-no-peer-access");
  constexpr int kN = 512;
  int* managed = nullptr;
  int* pinned = nullptr;
  ASSERT_EQ(mcMallocManaged(&managed, kN * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMallocHost(&pinned, kN * sizeof(int)), mcSuccess);
  for (int i = 0; i < kN; ++i) managed[i] = pinned[i] = i;
  // Allocated with device 0 current, used by kernels of both devices, with
  // no peer access anywhere.
  for (int device : {0, 1}) {
    ASSERT_EQ(mcSetDevice(device), mcSuccess);
    Scale<<<kN / 128, 128>>>(managed, kN, 2);
    Scale<<<kN / 128, 128>>>(pinned, kN, 3);
    ASSERT_EQ(mcGetLastError(), mcSuccess);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  }
  for (int i = 0; i < kN; ++i) {
    ASSERT_EQ(managed[i], 4 * i) << i;
    ASSERT_EQ(pinned[i], 9 * i) << i;
  }
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  mcFree(managed);
  mcFreeHost(pinned);
}

}  // namespace
