// Copyright mxcts authors.
//
// Conformance: a host access to a `__managed__` variable while a kernel is
// running (docs/spec/lang-variable-spaces.md,
// lang.variable.managed.host-access-during-kernel). It is defined only where
// the device reports mcDeviceAttributeConcurrentManagedAccess; there, a
// kernel that waits for a flag the host sets from another thread while the
// kernel runs sees the host's write, and the host reads what the kernel
// wrote before it. The wait is bounded, so a device that never sees the
// write fails the test instead of hanging it. The control sets the flag
// before the launch.

#include <mc_runtime.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "conformance/testing/spec.h"

__managed__ int host_flag;
__managed__ int kernel_progress;
__managed__ int kernel_saw_flag;

namespace {

constexpr long long kSpinLimit = 2000000000LL;

// Announces that it runs, then waits for the host's flag.
__global__ void WaitForHost() {
  *const_cast<volatile int*>(&kernel_progress) = 1;
  __threadfence_system();
  long long spins = 0;
  while (*const_cast<volatile int*>(&host_flag) == 0 && spins < kSpinLimit) {
    ++spins;
  }
  kernel_saw_flag = *const_cast<volatile int*>(&host_flag);
}

bool ConcurrentManagedAccess() {
  int device = 0, value = 0;
  if (mcGetDevice(&device) != mcSuccess) return false;
  if (mcDeviceGetAttribute(&value, mcDeviceAttributeConcurrentManagedAccess,
                           device) != mcSuccess) {
    return false;
  }
  return value != 0;
}

TEST(ManagedConcurrentAccess, HostWritesAndReadsWhileTheKernelRuns) {
  MX_SPEC("lang.variable.managed.host-access-during-kernel");
  if (!ConcurrentManagedAccess()) {
    GTEST_SKIP() << "unsupported: the device reports no concurrent managed "
                    "access, so the access is undefined";
  }
  host_flag = 0;
  kernel_progress = 0;
  kernel_saw_flag = -1;
  std::atomic<bool> saw_progress{false};
  // The host side: waits until the kernel has started, then sets the flag.
  std::thread host([&saw_progress] {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (*const_cast<volatile int*>(&kernel_progress) == 0 &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    saw_progress = *const_cast<volatile int*>(&kernel_progress) == 1;
    *const_cast<volatile int*>(&host_flag) = 1;
  });
  WaitForHost<<<1, 1>>>();
  const mcError_t synchronized = mcDeviceSynchronize();
  host.join();
  ASSERT_EQ(synchronized, mcSuccess);
  EXPECT_TRUE(saw_progress.load()) << "the host never saw the kernel start";
  EXPECT_EQ(kernel_saw_flag, 1) << "the kernel never saw the host's write";
}

TEST(ManagedConcurrentAccessControl, FlagSetBeforeTheLaunch) {
  MX_SPEC("lang.variable.managed.host-access-during-kernel");
  host_flag = 7;
  kernel_saw_flag = -1;
  WaitForHost<<<1, 1>>>();
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(kernel_saw_flag, 7);
}

}  // namespace
