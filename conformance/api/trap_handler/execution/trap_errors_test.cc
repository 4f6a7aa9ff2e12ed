// Copyright mxcts authors.
//
// Conformance: what a reported trap does (docs/spec/api-trap-handler.md,
// "Errors" and "Recovery").
//
//   - It stops the faulting grid: of a large grid whose first thread
//     faults, not every thread completes, and a kernel queued after it in
//     the same stream does not run. The progress is written to mapped
//     page-locked memory, which the host still reads after the fault.
//   - The error names the cause: a misaligned atomic is
//     mcErrorMisalignedAddress; an illegal instruction (`__builtin_trap()`,
//     which compiles to one) is mcErrorIllegalInstruction; a read of an
//     address outside every allocation is mcErrorIllegalAddress.
//   - Recovery: the reference confines the sticky error to the faulting
//     device (calls using only another device succeed, calls using the
//     faulting one keep failing: the control), and mcDeviceReset with the
//     faulting device current gives a new context in which calls succeed,
//     while the allocations and streams made before it are invalid.
//
// Each trap happens in a fresh process (MX_EXPECT_TRAP,
// MX_EXPECT_IN_FRESH_PROCESS); the same kernels without the fault are the
// controls.

#include <mc_runtime.h>
#include <sys/mman.h>

#include <cstdio>
#include <string>

#include "conformance/api/testing/expect_error.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace mxcts::conformance {
namespace {

constexpr int kBlocks = 256;
constexpr int kThreads = 64;

// --- The grid stops. ---

__global__ void FaultFirstThenCount(bool fault, int* completed) {
  if (fault && blockIdx.x == 0 && threadIdx.x == 0) {
    *static_cast<volatile int*>(nullptr) = 1;
  }
  atomicAdd(completed, 1);
}

__global__ void MarkRan(int* ran) { *ran = 1; }

// Returns the synchronization's error if the grid stopped and the next
// kernel did not run; mcErrorUnknown (with the reason on stderr) if not.
mcError_t GridStops(bool fault) {
  int* progress = nullptr;  // [0] threads completed, [1] the next kernel ran
  if (mcMallocHost(reinterpret_cast<void**>(&progress), 2 * sizeof(int),
                   mcHostAllocMapped) != mcSuccess) {
    return mcErrorUnknown;
  }
  progress[0] = progress[1] = 0;
  int* device_progress = nullptr;
  if (mcHostGetDevicePointer(reinterpret_cast<void**>(&device_progress),
                             progress, 0) != mcSuccess) {
    return mcErrorUnknown;
  }
  FaultFirstThenCount<<<kBlocks, kThreads>>>(fault, &device_progress[0]);
  MarkRan<<<1, 1>>>(&device_progress[1]);
  const mcError_t result = mcDeviceSynchronize();
  const int completed = progress[0];
  const int next_ran = progress[1];
  if (fault && completed >= kBlocks * kThreads - 1) {
    std::fprintf(stderr, "every other thread of the faulting grid completed\n");
    return mcErrorUnknown;
  }
  if (fault && next_ran != 0) {
    std::fprintf(stderr, "the kernel queued after the fault ran\n");
    return mcErrorUnknown;
  }
  if (!fault && (completed != kBlocks * kThreads || next_ran != 1)) {
    std::fprintf(stderr, "the control did not run to completion\n");
    return mcErrorUnknown;
  }
  return result;
}

TEST(TrapStopsTheGrid, RemainingThreadsAndLaterWorkDoNotRun) {
  MX_SPEC("api.trap.error.grid-stopped");
  MX_REQUIRE_CAPABILITY("trap_handler");
  MX_EXPECT_TRAP(GridStops(true), mcErrorIllegalAddress, "FaultFirstThenCount");
}

TEST(TrapStopsTheGrid, ControlWithoutTheFaultEverythingRuns) {
  MX_SPEC("api.trap.error.grid-stopped");
  MX_EXPECT_NO_TRAP(GridStops(false));
}

// --- The error names the cause. ---

__global__ void AddAt(char* base, int offset) {
  atomicAdd(reinterpret_cast<int*>(base + offset), 1);
}

mcError_t AtomicAtOffset(int offset) {
  char* base = nullptr;
  if (mcMalloc(reinterpret_cast<void**>(&base), 64) != mcSuccess) {
    return mcErrorUnknown;
  }
  AddAt<<<1, 1>>>(base, offset);
  return mcDeviceSynchronize();
}

TEST(TrapCause, MisalignedAtomicIsMisalignedAddress) {
  MX_SPEC("api.trap.error.misaligned-address");
  MX_REQUIRE_CAPABILITY("trap_handler");
  MX_EXPECT_TRAP(AtomicAtOffset(2),
                 ::mxcts::conformance::AnyOf(mcErrorMisalignedAddress,
                                             mcErrorIllegalAddress),
                 "AddAt");
}

TEST(TrapCause, ControlAlignedAtomicRuns) {
  MX_SPEC("api.trap.error.misaligned-address");
  MX_EXPECT_NO_TRAP(AtomicAtOffset(4));
}

__global__ void MaybeIllegal(bool illegal, int* out) {
  if (illegal && threadIdx.x == 1) __builtin_trap();
  out[threadIdx.x] = 1;
}

mcError_t RunMaybeIllegal(bool illegal) {
  int* out = nullptr;
  if (mcMalloc(&out, 4 * sizeof(int)) != mcSuccess) return mcErrorUnknown;
  MaybeIllegal<<<1, 4>>>(illegal, out);
  return mcDeviceSynchronize();
}

TEST(TrapCause, IllegalInstructionIsIllegalInstruction) {
  MX_SPEC("api.trap.error.illegal-instruction");
  MX_REQUIRE_CAPABILITY("trap_handler");
  MX_EXPECT_TRAP(RunMaybeIllegal(true), mcErrorIllegalInstruction,
                 "MaybeIllegal");
}

TEST(TrapCause, ControlWithoutTheInstructionRuns) {
  MX_SPEC("api.trap.error.illegal-instruction");
  MX_EXPECT_NO_TRAP(RunMaybeIllegal(false));
}

// A read through a pointer into a range of host addresses the test
// reserves with no access (mmap with PROT_NONE): no allocation of the
// runtime is there, so the access is outside any valid allocation. The
// control reads a device allocation with the same kernel.
__global__ void ReadThrough(const int* from, int* out) {
  *out = *static_cast<const volatile int*>(from);
}

mcError_t ReadOutsideEveryAllocation(bool outside) {
  constexpr size_t kReserved = 1 << 20;
  void* reserved = mmap(nullptr, kReserved, PROT_NONE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  int* cells = nullptr;
  if (reserved == MAP_FAILED ||
      mcMalloc(&cells, 2 * sizeof(int)) != mcSuccess) {
    return mcErrorUnknown;
  }
  const int* from =
      outside ? static_cast<const int*>(reserved) + kReserved / 2 / sizeof(int)
              : cells;
  ReadThrough<<<1, 1>>>(from, cells + 1);
  const mcError_t result = mcDeviceSynchronize();
  if (result == mcSuccess) {
    mcFree(cells);
    munmap(reserved, kReserved);
  }
  return result;
}

TEST(TrapCause, AccessOutsideEveryAllocationIsIllegalAddress) {
  MX_SPEC("api.trap.cause.memory-violation", "api.trap.error.illegal-address");
  MX_REQUIRE_CAPABILITY("trap_handler");
  MX_EXPECT_TRAP(ReadOutsideEveryAllocation(true), mcErrorIllegalAddress,
                 "ReadThrough");
}

TEST(TrapCause, ControlReadOfAnAllocationRuns) {
  MX_SPEC("api.trap.cause.memory-violation");
  MX_EXPECT_NO_TRAP(ReadOutsideEveryAllocation(false));
}

// --- Recovery. ---

__global__ void Store(int* out, int value) { *out = value; }

// Faults on device `device`; "" if it did, else why not.
std::string FaultOn(int device) {
  std::string problems = Expect("mcSetDevice", mcSetDevice(device), mcSuccess);
  Store<<<1, 1>>>(nullptr, 1);
  problems += Expect("mcDeviceSynchronize after the fault",
                     mcDeviceSynchronize(), mcErrorIllegalAddress);
  return problems;
}

// The device works: an allocation, a kernel, a copy back.
std::string Works(const char* when) {
  std::string problems;
  const std::string prefix = std::string(when) + ": ";
  int* p = nullptr;
  problems += Expect((prefix + "mcMalloc").c_str(), mcMalloc(&p, sizeof(int)),
                     mcSuccess);
  Store<<<1, 1>>>(p, 7);
  problems += Expect((prefix + "mcDeviceSynchronize").c_str(),
                     mcDeviceSynchronize(), mcSuccess);
  int value = 0;
  problems +=
      Expect((prefix + "mcMemcpy").c_str(),
             mcMemcpy(&value, p, sizeof(int), mcMemcpyDeviceToHost), mcSuccess);
  if (value != 7) problems += prefix + "the kernel did not run; ";
  mcFree(p);
  return problems;
}

std::string OtherDeviceKeepsWorking(int faulting) {
  std::string problems = FaultOn(faulting);
  problems += Expect("mcSetDevice to the other device",
                     mcSetDevice(1 - faulting), mcSuccess);
  problems += Works("the other device");
  // Control: the faulting device keeps its sticky error.
  problems += Expect("mcSetDevice back", mcSetDevice(faulting), mcSuccess);
  problems += Expect("mcDeviceSynchronize of the faulting device",
                     mcDeviceSynchronize(), mcErrorIllegalAddress);
  return problems;
}

class TrapRecovery : public testing::TestWithParam<int> {};

TEST_P(TrapRecovery, OtherDevicesKeepWorking) {
  MX_SPEC("api.trap.recovery.other-devices");
  MX_REQUIRE_CAPABILITY("trap_handler");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  MX_EXPECT_IN_FRESH_PROCESS(OtherDeviceKeepsWorking(GetParam()));
}

std::string ResetRecoversTheDevice(int faulting) {
  std::string problems =
      Expect("mcSetDevice", mcSetDevice(faulting), mcSuccess);
  int* before = nullptr;
  problems += Expect("mcMalloc before the fault",
                     mcMalloc(&before, sizeof(int)), mcSuccess);
  mcStream_t stream = nullptr;
  problems += Expect("mcStreamCreate before the fault", mcStreamCreate(&stream),
                     mcSuccess);
  problems += FaultOn(faulting);
  // Control: before the reset the device refuses work.
  int* refused = nullptr;
  problems += Expect("mcMalloc before the reset",
                     mcMalloc(&refused, sizeof(int)), mcErrorIllegalAddress);
  problems += Expect("mcDeviceReset", mcDeviceReset(), mcSuccess);
  problems += Works("after the reset");
  problems += Expect("mcStreamQuery of a stream made before the reset",
                     mcStreamQuery(stream), mcErrorInvalidResourceHandle);
  problems += Expect("mcFree of memory allocated before the reset",
                     mcFree(before), mcErrorInvalidValue);
  mcGetLastError();
  return problems;
}

TEST_P(TrapRecovery, DeviceResetGivesANewContext) {
  MX_SPEC("api.trap.recovery.device-reset");
  MX_REQUIRE_CAPABILITY("trap_handler");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", GetParam() + 1);
  MX_EXPECT_IN_FRESH_PROCESS(ResetRecoversTheDevice(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Devices, TrapRecovery, testing::Values(0, 1),
                         [](const testing::TestParamInfo<int>& info) {
                           return "FaultOnDevice" + std::to_string(info.param);
                         });

}  // namespace
}  // namespace mxcts::conformance
