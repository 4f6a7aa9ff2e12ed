// Copyright mxcts authors.
//
// Conformance: devices that cannot be peers (docs/spec/api-multi-device.md,
// "Peer access"; api-memory-pools.md, "Access from other devices"). For
// every pair of distinct devices that mcDeviceCanAccessPeer reports 0 for,
// mcDeviceEnablePeerAccess returns mcErrorPeerAccessUnsupported, and
// granting the other device access to a memory pool with
// mcMemPoolSetAccess returns mcErrorInvalidDevice; for a pair it reports 1
// for, the same calls succeed (the control).
//
// The source builds two targets (BUILD): as is, where every pair of the
// reference's devices can be peers (the controls run), and with
// MXCTS_PEER_ACCESS=none, where none can (the errors are checked). A test
// that finds no pair that cannot be peers is skipped as unsupported.

#include <mc_runtime.h>

#include "conformance/api/testing/pool_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

int CanAccess(int device, int peer) {
  int can = -1;
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, device, peer), mcSuccess);
  return can;
}

TEST(PeerUnsupported, EnableIsPeerAccessUnsupported) {
  MX_SPEC("api.peer.enable.unsupported");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  int refused = 0;
  for (int device = 0; device < DeviceCount(); ++device) {
    ASSERT_EQ(mcSetDevice(device), mcSuccess);
    for (int peer = 0; peer < DeviceCount(); ++peer) {
      if (peer == device) continue;
      if (CanAccess(device, peer) == 0) {
        EXPECT_EQ(mcDeviceEnablePeerAccess(peer, 0),
                  mcErrorPeerAccessUnsupported)
            << device << " -> " << peer;
        EXPECT_EQ(mcGetLastError(), mcErrorPeerAccessUnsupported);
        ++refused;
      } else {
        // Control: a pair that can be peers.
        EXPECT_EQ(mcDeviceEnablePeerAccess(peer, 0), mcSuccess)
            << device << " -> " << peer;
        EXPECT_EQ(mcDeviceDisablePeerAccess(peer), mcSuccess);
      }
    }
  }
  mcSetDevice(0);
  if (refused == 0) {
    GTEST_SKIP() << "unsupported: every pair of devices can be peers here "
                    "(the _none target turns peer access off); only the "
                    "controls ran";
  }
}

TEST(PeerUnsupported, PoolAccessForANonPeerIsInvalidDevice) {
  MX_SPEC("api.pool.access.non-peer-device-is-invalid-device");
  MX_REQUIRE_CAPABILITY("memory_pools");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  int refused = 0;
  for (int device = 0; device < DeviceCount(); ++device) {
    const mcMemPoolProps props = PoolProps(device);
    mcMemPool_t pool = nullptr;
    ASSERT_EQ(mcMemPoolCreate(&pool, &props), mcSuccess);
    for (int other = 0; other < DeviceCount(); ++other) {
      if (other == device) continue;
      mcMemAccessDesc desc{{mcMemLocationTypeDevice, other},
                           mcMemAccessFlagsProtReadWrite};
      if (CanAccess(other, device) == 0) {
        EXPECT_EQ(mcMemPoolSetAccess(pool, &desc, 1), mcErrorInvalidDevice)
            << other << " on the pool of " << device;
        mcGetLastError();
        ++refused;
      } else {
        EXPECT_EQ(mcMemPoolSetAccess(pool, &desc, 1), mcSuccess);  // control
      }
      // The pool's own device keeps its access either way.
      mcMemLocation own{mcMemLocationTypeDevice, device};
      mcMemAccessFlags flags = mcMemAccessFlagsProtNone;
      EXPECT_EQ(mcMemPoolGetAccess(&flags, pool, &own), mcSuccess);
      EXPECT_EQ(flags, mcMemAccessFlagsProtReadWrite);
    }
    EXPECT_EQ(mcMemPoolDestroy(pool), mcSuccess);
  }
  if (refused == 0) {
    GTEST_SKIP() << "unsupported: every pair of devices can be peers here "
                    "(the _none target turns peer access off); only the "
                    "controls ran";
  }
}

}  // namespace
}  // namespace mxcts::conformance
