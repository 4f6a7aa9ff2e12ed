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
// The target runs with the reference's MXCTS_PEER_ACCESS=none (BUILD),
// where no pair can be peers, so the errors are checked; each test's
// control runs the same calls in a fresh process with MXCTS_PEER_ACCESS=all,
// where every pair can, and they succeed. A test that finds no pair that
// cannot be peers is skipped as unsupported.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/testing/pool_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/claimed.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

int CanAccess(int device, int peer) {
  int can = -1;
  EXPECT_EQ(mcDeviceCanAccessPeer(&can, device, peer), mcSuccess);
  return can;
}

// Refused with either error the clause allows; nothing enabled.
TEST(PeerUnsupported, EnableFailsAndEnablesNothing) {
  MX_SPEC("api.peer.enable.unsupported", "api.peer.disable.not-enabled");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  int refused = 0;
  for (int device = 0; device < DeviceCount(); ++device) {
    ASSERT_EQ(mcSetDevice(device), mcSuccess);
    for (int peer = 0; peer < DeviceCount(); ++peer) {
      if (peer == device) continue;
      if (CanAccess(device, peer) == 0) {
        const mcError_t result = mcDeviceEnablePeerAccess(peer, 0);
        EXPECT_TRUE(result == mcErrorInvalidDevice ||
                    result == mcErrorPeerAccessUnsupported)
            << device << " -> " << peer << ": " << mcGetErrorName(result);
        EXPECT_EQ(mcGetLastError(), result);
        if (Claimed("reference_choices")) {
          EXPECT_EQ(result, mcErrorPeerAccessUnsupported);
        }
        // Nothing was enabled: there is nothing to disable.
        EXPECT_EQ(mcDeviceDisablePeerAccess(peer), mcErrorPeerAccessNotEnabled)
            << device << " -> " << peer;
        mcGetLastError();
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

// The controls: in a process where every pair can be peers, enabling peer
// access and granting pool access succeed.
std::string PeersAllowed() {
  std::string problems;
  for (int device = 0; device < DeviceCount(); ++device) {
    if (mcSetDevice(device) != mcSuccess) return "mcSetDevice failed";
    const mcMemPoolProps props = PoolProps(device);
    mcMemPool_t pool = nullptr;
    if (mcMemPoolCreate(&pool, &props) != mcSuccess) {
      return "mcMemPoolCreate failed";
    }
    for (int peer = 0; peer < DeviceCount(); ++peer) {
      if (peer == device) continue;
      int can = -1;
      mcDeviceCanAccessPeer(&can, device, peer);
      if (can != 1) {
        problems += "device " + std::to_string(device) + " cannot reach " +
                    std::to_string(peer) + " with MXCTS_PEER_ACCESS=all; ";
        continue;
      }
      if (mcDeviceEnablePeerAccess(peer, 0) != mcSuccess) {
        problems += "enabling peer access failed; ";
      }
      mcDeviceDisablePeerAccess(peer);
      mcMemAccessDesc desc{{mcMemLocationTypeDevice, peer},
                           mcMemAccessFlagsProtReadWrite};
      if (mcMemPoolSetAccess(pool, &desc, 1) != mcSuccess) {
        problems += "granting pool access failed; ";
      }
    }
    mcMemPoolDestroy(pool);
  }
  return problems;
}

TEST(PeerUnsupported, ControlWhereDevicesArePeersTheCallsSucceed) {
  MX_SPEC("api.peer.enable.unsupported",
          "api.pool.access.non-peer-device-is-invalid-device");
  MX_REQUIRE_CAPABILITY("memory_pools");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  ScopedEnvironment all("MXCTS_PEER_ACCESS", "all");
  MX_EXPECT_IN_FRESH_PROCESS(PeersAllowed());
}

}  // namespace
}  // namespace mxcts::conformance
