// Copyright mxcts authors.
//
// Conformance: MACA_LAUNCH_BLOCKING is read when the runtime initializes
// (docs/spec/api-environment.md, "General rules" and "Execution control").
// The reference's deferred timeline (MXCTS_TIMELINE=deferred, which other
// backends ignore) runs device work only when the host waits, so whether a
// kernel ran by the time its launch returned shows whether launches block:
// a program that sets MACA_LAUNCH_BLOCKING=1 after its first runtime call
// still launches asynchronously, while one started with it set launches
// synchronously (the control). The synchronization chapter's timeline
// tests cover the values themselves.

#include <mc_runtime.h>
#include <stdlib.h>

#include <string>

#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

__global__ void SetCell(int* cell) { *cell = 1; }

// "" if the kernel had (`ran`) or had not run when its launch returned.
std::string LaunchRan(bool set_after_initialization, bool ran) {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return "no device";
  if (set_after_initialization) setenv("MACA_LAUNCH_BLOCKING", "1", 1);
  int* cell = nullptr;
  if (mcMallocManaged(&cell, sizeof(int)) != mcSuccess) {
    return "mcMallocManaged failed";
  }
  *cell = 0;
  SetCell<<<1, 1>>>(cell);
  const int seen = *reinterpret_cast<volatile int*>(cell);
  std::string problems;
  if (mcDeviceSynchronize() != mcSuccess || *cell != 1) {
    problems += "the kernel did not run; ";
  }
  if ((seen == 1) != ran) {
    problems += ran ? "the launch did not block; "
                    : "the launch blocked: the variable was read late; ";
  }
  mcFree(cell);
  return problems;
}

TEST(LaunchBlockingOnce, SetAfterInitializationHasNoEffect) {
  MX_SPEC("api.env.general.read-at-initialization",
          "api.env.launch-blocking.synchronous-launches");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", nullptr);
  MX_EXPECT_IN_FRESH_PROCESS(LaunchRan(/*set_after_initialization=*/true,
                                       /*ran=*/false));
}

TEST(LaunchBlockingOnce, SetBeforeInitializationBlocks) {
  MX_SPEC("api.env.general.read-at-initialization",
          "api.env.launch-blocking.synchronous-launches");
  ScopedEnvironment timeline("MXCTS_TIMELINE", "deferred");
  ScopedEnvironment blocking("MACA_LAUNCH_BLOCKING", "1");
  MX_EXPECT_IN_FRESH_PROCESS(LaunchRan(/*set_after_initialization=*/false,
                                       /*ran=*/true));
}

}  // namespace
}  // namespace mxcts::conformance
