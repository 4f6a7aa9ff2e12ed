// Copyright mxcts authors.
//
// Conformance: mcDeviceReset ends peer access to and from the reset device
// (docs/spec/api-multi-device.md, api.peer.enable.persists-until-disabled).
// After resetting either device of an enabled pair, enabling succeeds again
// instead of returning mcErrorPeerAccessAlreadyEnabled, and disabling
// returns mcErrorPeerAccessNotEnabled; access between devices the reset
// does not concern is kept (the control, with three devices). In checked
// mode a kernel that used the peer's memory traps again after the reset.
//
// A reset destroys the device's allocations and streams, so every check
// runs in a fresh process.

#include <mc_runtime.h>

#include <string>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

using mxcts::conformance::ScopedEnvironment;

std::string Expect(mcError_t got, mcError_t want, const char* what) {
  if (got == want) return "";
  return std::string(what) + " returned " + mcGetErrorName(got) +
         ", expected " + mcGetErrorName(want);
}

// Access from 0 to 1 is enabled, then device `reset` is reset; afterwards
// access from 0 to 1 is no longer enabled.
std::string ResetEndsAccess(int reset) {
  std::string problem;
  if (mcSetDevice(0) != mcSuccess) return "mcSetDevice failed";
  problem = Expect(mcDeviceEnablePeerAccess(1, 0), mcSuccess, "enable");
  if (!problem.empty()) return problem;
  if (mcSetDevice(reset) != mcSuccess) return "mcSetDevice failed";
  problem = Expect(mcDeviceReset(), mcSuccess, "mcDeviceReset");
  if (!problem.empty()) return problem;
  if (mcSetDevice(0) != mcSuccess) return "mcSetDevice failed";
  problem = Expect(mcDeviceDisablePeerAccess(1), mcErrorPeerAccessNotEnabled,
                   "disable after the reset");
  if (!problem.empty()) return problem;
  return Expect(mcDeviceEnablePeerAccess(1, 0), mcSuccess,
                "enable after the reset");
}

class PeerReset : public testing::Test {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("peer_access");
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  }
};

TEST_F(PeerReset, ResettingTheEnablingDeviceEndsItsAccess) {
  MX_SPEC("api.peer.enable.persists-until-disabled");
  MX_EXPECT_IN_FRESH_PROCESS(ResetEndsAccess(0));
}

TEST_F(PeerReset, ResettingThePeerEndsAccessToIt) {
  MX_SPEC("api.peer.enable.persists-until-disabled");
  MX_EXPECT_IN_FRESH_PROCESS(ResetEndsAccess(1));
}

// The control: with three devices, resetting device 2 keeps access from 0
// to 1, and resetting 1 keeps access from 2 to 0.
std::string UninvolvedResetKeepsAccess() {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess || count < 3) {
    return "fewer than 3 devices";
  }
  std::string problem;
  if (mcSetDevice(0) != mcSuccess) return "mcSetDevice failed";
  problem = Expect(mcDeviceEnablePeerAccess(1, 0), mcSuccess, "enable 0->1");
  if (!problem.empty()) return problem;
  if (mcSetDevice(2) != mcSuccess) return "mcSetDevice failed";
  problem = Expect(mcDeviceEnablePeerAccess(0, 0), mcSuccess, "enable 2->0");
  if (!problem.empty()) return problem;
  problem = Expect(mcDeviceReset(), mcSuccess, "reset of device 2");
  if (!problem.empty()) return problem;
  if (mcSetDevice(0) != mcSuccess) return "mcSetDevice failed";
  problem = Expect(mcDeviceEnablePeerAccess(1, 0),
                   mcErrorPeerAccessAlreadyEnabled, "enable 0->1 again");
  if (!problem.empty()) return problem;
  // And the reset did end 2 -> 0.
  if (mcSetDevice(2) != mcSuccess) return "mcSetDevice failed";
  return Expect(mcDeviceDisablePeerAccess(0), mcErrorPeerAccessNotEnabled,
                "disable 2->0 after resetting 2");
}

TEST_F(PeerReset, ResettingAnUninvolvedDeviceKeepsAccess) {
  MX_SPEC("api.peer.enable.persists-until-disabled");
  // The reference's simulated device count; another backend needs three
  // devices of its own.
  ScopedEnvironment devices("MXCTS_DEVICE_COUNT", "3");
  MX_EXPECT_IN_FRESH_PROCESS(UninvolvedResetKeepsAccess());
}

__global__ void ReadPeer(const int* peer_data, int* sink) {
  if (threadIdx.x == 0) *sink = peer_data[0];
}

// Checked mode: the access that worked before the reset traps after it.
mcError_t AccessAfterReset() {
  int* peer_data = nullptr;
  int* sink = nullptr;
  if (mcSetDevice(1) != mcSuccess ||
      mcMalloc(&peer_data, sizeof(int)) != mcSuccess ||
      mcMemset(peer_data, 0, sizeof(int)) != mcSuccess ||
      mcSetDevice(0) != mcSuccess ||
      mcDeviceEnablePeerAccess(1, 0) != mcSuccess) {
    return mcErrorUnknown;
  }
  if (mcDeviceReset() != mcSuccess ||
      mcMalloc(&sink, sizeof(int)) != mcSuccess) {
    return mcErrorUnknown;
  }
  ReadPeer<<<1, 1>>>(peer_data, sink);
  return mcDeviceSynchronize();
}

mcError_t AccessWithoutReset() {
  int* peer_data = nullptr;
  int* sink = nullptr;
  if (mcSetDevice(1) != mcSuccess ||
      mcMalloc(&peer_data, sizeof(int)) != mcSuccess ||
      mcSetDevice(0) != mcSuccess ||
      mcDeviceEnablePeerAccess(1, 0) != mcSuccess ||
      mcMalloc(&sink, sizeof(int)) != mcSuccess) {
    return mcErrorUnknown;
  }
  ReadPeer<<<1, 1>>>(peer_data, sink);
  return mcDeviceSynchronize();
}

TEST_F(PeerReset, CheckedAccessTrapsAfterTheReset) {
  MX_SPEC("api.peer.enable.persists-until-disabled",
          "lang.ub.memory.peer-pointer-without-access");
  MX_REQUIRE_CAPABILITY("checked_memory");
  ScopedEnvironment memcheck("MXCTS_MEMCHECK", "1");
  MX_EXPECT_TRAP(AccessAfterReset(), mcErrorIllegalAddress,
                 "device memory of device 1 accessed from a kernel on device 0 "
                 "without peer access");
  // Control: without the reset, the same access runs.
  MX_EXPECT_HOLDS_IN_FRESH_PROCESS(AccessWithoutReset() == mcSuccess);
}

}  // namespace
