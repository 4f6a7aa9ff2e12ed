// Copyright mxcts authors.
//
// Conformance: host access to managed memory while a kernel is in flight
// (docs/spec/api-memory.md, "Managed memory"). Where
// mcDeviceAttributeConcurrentManagedAccess is 1 the host may use a managed
// allocation attached globally while a kernel runs: here the host writes
// one half while a kernel that writes the other half is in flight, and
// after synchronizing both halves hold what their writers stored. The
// kernel is still in flight at the host's write because the program runs
// in a fresh process with the reference's deferred timeline (elsewhere it
// may have finished: the rule still holds). What could fail is either
// write lost: the host's overwritten by the allocation's device copy, or
// the kernel's by the host's. Where the attribute is 0 such access is
// undefined and the test is skipped.

#include <mc_runtime.h>

#include <string>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kHalf = 128;

__global__ void FillFirstHalf(int* data, int value) {
  data[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

std::string HostWritesDuringKernel() {
  std::string problems;
  int* data = nullptr;
  problems +=
      Expect("mcMallocManaged", mcMallocManaged(&data, 2 * kHalf * sizeof(int)),
             mcSuccess);
  if (data == nullptr) return problems;
  for (int i = 0; i < 2 * kHalf; ++i) data[i] = -1;
  mcStream_t stream = nullptr;
  problems += Expect("mcStreamCreate", mcStreamCreate(&stream), mcSuccess);
  FillFirstHalf<<<kHalf / 64, 64, 0, stream>>>(data, 1);
  // The kernel is in flight: the host uses the other half only (reading
  // the kernel's half now would be a data race).
  for (int i = kHalf; i < 2 * kHalf; ++i) data[i] = 2;
  problems +=
      Expect("mcStreamSynchronize", mcStreamSynchronize(stream), mcSuccess);
  for (int i = 0; i < 2 * kHalf; ++i) {
    const int expected = i < kHalf ? 1 : 2;
    if (data[i] != expected) {
      problems += "element " + std::to_string(i) + " is " +
                  std::to_string(data[i]) + "; ";
      break;
    }
  }
  mcStreamDestroy(stream);
  mcFree(data);
  return problems;
}

bool ConcurrentManagedAccess() {
  int value = 0;
  EXPECT_EQ(
      mcDeviceGetAttribute(&value, mcDeviceAttributeConcurrentManagedAccess, 0),
      mcSuccess);
  return value != 0;
}

class ManagedDuringKernel : public DeferredModeTest<> {};

TEST_F(ManagedDuringKernel, HostUsesOtherDataWhileAKernelIsInFlight) {
  MX_SPEC("api.memory.managed.host-access-during-kernel");
  MX_REQUIRE_CAPABILITY("managed_memory");
  if (!ConcurrentManagedAccess()) {
    GTEST_SKIP() << "unsupported: device 0 has no concurrent managed access, "
                    "so host access during a kernel is undefined";
  }
  MX_EXPECT_IN_FRESH_PROCESS(HostWritesDuringKernel());
}

}  // namespace
}  // namespace mxcts::conformance
