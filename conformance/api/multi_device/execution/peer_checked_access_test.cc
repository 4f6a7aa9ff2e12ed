// Copyright mxcts authors.
//
// Conformance: a kernel that uses another device's memory without peer
// access (docs/spec/api-multi-device.md api.peer.access.without-enable-
// undefined, docs/spec/lang-undefined-behaviour.md lang.ub.memory.peer-
// pointer-without-access). The behaviour is undefined; these tests check
// what the spec says the reference does. In checked mode (MXCTS_MEMCHECK=1,
// a variable of the reference) the access traps with mcErrorIllegalAddress
// and a diagnostic naming both devices, the kernel, block and thread;
// with peer access enabled the same kernel runs and computes the right
// values (the control beside each trap). Managed and page-locked host
// memory need no peer access. Without checked mode the access simply
// works.
//
// The checked-mode variable is read when the runtime initializes, so every
// check runs in a fresh process (MX_EXPECT_TRAP, or
// MX_EXPECT_IN_FRESH_PROCESS for the controls).

#include <mc_runtime.h>

#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

using mxcts::conformance::ScopedEnvironment;

enum class Op { kRead, kWrite, kAtomicAdd };

// Thread (3,0,0) of block (1,0,0) applies `op` to data[index]: a read is
// stored to *sink, a write stores 77, an atomic adds 5. Every other thread
// touches only `own` (memory of the kernel's device).
__global__ void AccessPeer(int* data, long long index, Op op, int* own,
                           int* sink) {
  own[blockIdx.x * blockDim.x + threadIdx.x] += 1;
  if (blockIdx.x != 1 || threadIdx.x != 3) return;
  switch (op) {
    case Op::kRead:
      *sink = data[index];
      break;
    case Op::kWrite:
      data[index] = 77;
      break;
    case Op::kAtomicAdd:
      atomicAdd(&data[index], 5);
      break;
  }
}

constexpr int kBlocks = 2;
constexpr int kThreads = 8;

// One access from a kernel on device `kernel_device` to element `index`
// of an allocation of `elements` ints on device `memory_device`.
struct Access {
  int kernel_device;
  int memory_device;
  Op op;
  long long elements;
  long long index;
};

int InitialValue(long long i) { return static_cast<int>(i % 1000) + 10; }

// What data[index] must hold after the access, and what *sink must.
int ExpectedElement(const Access& a) {
  switch (a.op) {
    case Op::kRead:
      return InitialValue(a.index);
    case Op::kWrite:
      return 77;
    case Op::kAtomicAdd:
      return InitialValue(a.index) + 5;
  }
  return 0;
}

// The buffers of one access, made before the launch.
struct Buffers {
  int* data = nullptr;  // on the memory device
  int* own = nullptr;   // on the kernel device
  int* sink = nullptr;  // on the kernel device
};

// Allocates and fills the buffers; leaves the kernel device current.
// Returns "" or what failed.
std::string Prepare(const Access& a, Buffers* b) {
  std::vector<int> initial(a.elements);
  for (long long i = 0; i < a.elements; ++i) initial[i] = InitialValue(i);
  const size_t bytes = a.elements * sizeof(int);
  if (mcSetDevice(a.memory_device) != mcSuccess ||
      mcMalloc(&b->data, bytes) != mcSuccess ||
      mcMemcpy(b->data, initial.data(), bytes, mcMemcpyHostToDevice) !=
          mcSuccess ||
      // The kernel's device is not ordered after the memory device's
      // default stream: wait for the copy.
      mcDeviceSynchronize() != mcSuccess ||
      mcSetDevice(a.kernel_device) != mcSuccess ||
      mcMalloc(&b->own, kBlocks * kThreads * sizeof(int)) != mcSuccess ||
      mcMemset(b->own, 0, kBlocks * kThreads * sizeof(int)) != mcSuccess ||
      mcMalloc(&b->sink, sizeof(int)) != mcSuccess ||
      mcMemset(b->sink, 0, sizeof(int)) != mcSuccess) {
    return "could not prepare the buffers";
  }
  return "";
}

mcError_t Launch(const Access& a, const Buffers& b) {
  AccessPeer<<<kBlocks, kThreads>>>(b.data, a.index, a.op, b.own, b.sink);
  const mcError_t launched = mcGetLastError();
  return launched != mcSuccess ? launched : mcDeviceSynchronize();
}

// The access, on the kernel device, with no peer access enabled: the
// result of the synchronization.
mcError_t AccessWithoutPeerAccess(Access a) {
  Buffers b;
  if (!Prepare(a, &b).empty()) return mcErrorUnknown;
  return Launch(a, b);
}

// Checks the values after a successful access.
std::string CheckResults(const Access& a, const Buffers& b) {
  int element = 0, sink = 0;
  std::vector<int> own(kBlocks * kThreads);
  if (mcMemcpy(&element, b.data + a.index, sizeof(int), mcMemcpyDefault) !=
          mcSuccess ||
      mcMemcpy(&sink, b.sink, sizeof(int), mcMemcpyDefault) != mcSuccess ||
      mcMemcpy(own.data(), b.own, own.size() * sizeof(int), mcMemcpyDefault) !=
          mcSuccess) {
    return "could not read the results";
  }
  if (element != ExpectedElement(a)) {
    return "the element holds " + std::to_string(element) + ", expected " +
           std::to_string(ExpectedElement(a));
  }
  if (a.op == Op::kRead && sink != InitialValue(a.index)) {
    return "the read returned " + std::to_string(sink);
  }
  for (int value : own) {
    if (value != 1) return "a thread did not run";
  }
  return "";
}

// Prepares the buffers, enables peer access from the kernel's device to
// the memory's if `enable_after_allocating`, then makes the access; "" if
// it ran and left the values it should.
std::string AccessRuns(const Access& a, bool enable_after_allocating) {
  Buffers b;
  std::string problem = Prepare(a, &b);
  if (!problem.empty()) return problem;
  if (enable_after_allocating &&
      mcDeviceEnablePeerAccess(a.memory_device, 0) != mcSuccess) {
    return "mcDeviceEnablePeerAccess failed";
  }
  const mcError_t result = Launch(a, b);
  if (result != mcSuccess) {
    return std::string("the kernel returned ") + mcGetErrorName(result);
  }
  return CheckResults(a, b);
}

// The control: the same access with peer access enabled from the kernel's
// device to the memory's.
std::string AccessWithPeerAccess(const Access& a) {
  return AccessRuns(a, /*enable_after_allocating=*/true);
}

std::string AccessName(const testing::TestParamInfo<Access>& info) {
  const char* ops[] = {"Read", "Write", "AtomicAdd"};
  const Access& a = info.param;
  return std::string(ops[static_cast<int>(a.op)]) + "OnDevice" +
         std::to_string(a.kernel_device) + "OfDevice" +
         std::to_string(a.memory_device) + "Element" + std::to_string(a.index) +
         "Of" + std::to_string(a.elements);
}

std::string TrapPattern(const Access& a) {
  return "kernel '.*AccessPeer.*' block \\(1,0,0\\) thread \\(3,0,0\\): "
         "device memory of device " +
         std::to_string(a.memory_device) +
         " accessed from a kernel on device " +
         std::to_string(a.kernel_device) + " without peer access";
}

// A test of devices 0 and 1 whose fresh processes run in checked mode
// (MXCTS_MEMCHECK=1, set from the fixture's construction to its end).
template <typename Param>
class CheckedModeTest : public testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("peer_access");
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  }

 private:
  ScopedEnvironment memcheck_{"MXCTS_MEMCHECK", "1"};
};

class CheckedPeerAccess : public CheckedModeTest<Access> {};

TEST_P(CheckedPeerAccess, WithoutPeerAccessTraps) {
  MX_SPEC("lang.ub.memory.peer-pointer-without-access",
          "api.peer.access.without-enable-undefined",
          "api.trap.error.illegal-address");
  MX_REQUIRE_CAPABILITY("checked_memory");
  MX_EXPECT_TRAP(AccessWithoutPeerAccess(GetParam()), mcErrorIllegalAddress,
                 TrapPattern(GetParam()).c_str());
}

TEST_P(CheckedPeerAccess, WithPeerAccessRuns) {
  MX_SPEC("lang.ub.memory.peer-pointer-without-access",
          "api.peer.enable.grants-access");
  MX_EXPECT_IN_FRESH_PROCESS(AccessWithPeerAccess(GetParam()));
}

std::vector<Access> AllAccesses() {
  std::vector<Access> accesses;
  for (int kernel_device : {0, 1}) {
    for (Op op : {Op::kRead, Op::kWrite, Op::kAtomicAdd}) {
      // The first and last int of a page, and one inside a larger
      // allocation.
      accesses.push_back({kernel_device, 1 - kernel_device, op, 1024, 0});
      accesses.push_back({kernel_device, 1 - kernel_device, op, 1024, 1023});
      accesses.push_back(
          {kernel_device, 1 - kernel_device, op, 1 << 18, 100000});
    }
  }
  return accesses;
}

INSTANTIATE_TEST_SUITE_P(Accesses, CheckedPeerAccess,
                         testing::ValuesIn(AllAccesses()), AccessName);

// --- Around the rule. ---

class CheckedPeerDirection : public CheckedModeTest<int> {
 protected:
  Access ReadAccess() const {
    return Access{GetParam(), 1 - GetParam(), Op::kRead, 1024, 17};
  }
};

// Enabled, the access runs; disabled again, it traps again.
mcError_t AccessAfterDisable(Access a) {
  Buffers b;
  if (!Prepare(a, &b).empty()) return mcErrorUnknown;
  if (mcDeviceEnablePeerAccess(a.memory_device, 0) != mcSuccess ||
      Launch(a, b) != mcSuccess || !CheckResults(a, b).empty() ||
      mcDeviceDisablePeerAccess(a.memory_device) != mcSuccess) {
    return mcErrorUnknown;
  }
  return Launch(a, b);
}

TEST_P(CheckedPeerDirection, DisablingAccessMakesItTrapAgain) {
  MX_SPEC("lang.ub.memory.peer-pointer-without-access",
          "api.peer.disable.revokes-access");
  MX_REQUIRE_CAPABILITY("checked_memory");
  MX_EXPECT_TRAP(AccessAfterDisable(ReadAccess()), mcErrorIllegalAddress,
                 TrapPattern(ReadAccess()).c_str());
}

// Access enabled in the opposite direction does not count.
mcError_t AccessWithTheOppositeDirectionEnabled(Access a) {
  Buffers b;
  if (!Prepare(a, &b).empty()) return mcErrorUnknown;
  if (mcSetDevice(a.memory_device) != mcSuccess ||
      mcDeviceEnablePeerAccess(a.kernel_device, 0) != mcSuccess ||
      mcSetDevice(a.kernel_device) != mcSuccess) {
    return mcErrorUnknown;
  }
  return Launch(a, b);
}

TEST_P(CheckedPeerDirection, OppositeDirectionDoesNotGrantAccess) {
  MX_SPEC("lang.ub.memory.peer-pointer-without-access",
          "api.peer.enable.one-directional");
  MX_REQUIRE_CAPABILITY("checked_memory");
  MX_EXPECT_TRAP(AccessWithTheOppositeDirectionEnabled(ReadAccess()),
                 mcErrorIllegalAddress, TrapPattern(ReadAccess()).c_str());
}

TEST_P(CheckedPeerDirection, DiagnosticNamesTheAllocation) {
  MX_SPEC("lang.ub.memory.peer-pointer-without-access",
          "api.trap.diagnostic.content");
  MX_REQUIRE_CAPABILITY("checked_memory");
  // Element 17 of 1024 ints: byte 68 of a 4096-byte allocation.
  MX_EXPECT_TRAP(AccessWithoutPeerAccess(ReadAccess()), mcErrorIllegalAddress,
                 "without peer access \\(0x[0-9a-f]+, byte 68 of the "
                 "4096-byte allocation at 0x[0-9a-f]+");
}

// Allocations made after access was enabled are covered too.
std::string AllocationAfterEnable(Access a) {
  if (mcSetDevice(a.kernel_device) != mcSuccess ||
      mcDeviceEnablePeerAccess(a.memory_device, 0) != mcSuccess) {
    return "mcDeviceEnablePeerAccess failed";
  }
  return AccessRuns(a, /*enable_after_allocating=*/false);
}

TEST_P(CheckedPeerDirection, AllocationsMadeAfterEnablingAreAccessible) {
  MX_SPEC("api.peer.enable.grants-access");
  MX_EXPECT_IN_FRESH_PROCESS(AllocationAfterEnable(ReadAccess()));
}

// After the trap, the other device and its memory are untouched: the
// memory is readable again and its device computes.
__global__ void Double(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2;
}

std::string MemoryDeviceUnaffectedByTheTrap(Access a) {
  a.op = Op::kWrite;
  Buffers b;
  std::string problem = Prepare(a, &b);
  if (!problem.empty()) return problem;
  if (Launch(a, b) != mcErrorIllegalAddress) return "the access did not trap";
  if (mcSetDevice(a.memory_device) != mcSuccess) return "mcSetDevice failed";
  Double<<<(a.elements + 255) / 256, 256>>>(b.data, a.elements);
  if (mcDeviceSynchronize() != mcSuccess) return "the other device faulted";
  std::vector<int> values(a.elements);
  if (mcMemcpy(values.data(), b.data, a.elements * sizeof(int),
               mcMemcpyDeviceToHost) != mcSuccess) {
    return "the memory could not be read";
  }
  for (long long i = 0; i < a.elements; ++i) {
    // The trapped write never happened.
    if (values[i] != 2 * InitialValue(i)) return "the memory changed";
  }
  if (mcSetDevice(a.kernel_device) != mcSuccess ||
      mcDeviceSynchronize() != mcErrorIllegalAddress) {
    return "the faulted device's error is not sticky";
  }
  return "";
}

TEST_P(CheckedPeerDirection, TheOtherDeviceIsUnaffected) {
  MX_SPEC("lang.ub.memory.peer-pointer-without-access",
          "api.error.sticky.reset-recovery");
  MX_EXPECT_IN_FRESH_PROCESS(MemoryDeviceUnaffectedByTheTrap(ReadAccess()));
}

// Managed and page-locked memory, and the kernel's own device memory, need
// no peer access, even in checked mode.
__global__ void AddEverywhere(int* managed, int* pinned, int* own, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    managed[i] += 1;
    pinned[i] += 2;
    own[i] += 3;
  }
}

std::string SharedMemoryKindsAccessible(int kernel_device) {
  constexpr int kN = 2048;
  int* managed = nullptr;
  int* pinned = nullptr;
  int* own = nullptr;
  // Allocated while the other device is current.
  if (mcSetDevice(1 - kernel_device) != mcSuccess ||
      mcMallocManaged(&managed, kN * sizeof(int)) != mcSuccess ||
      mcMallocHost(&pinned, kN * sizeof(int)) != mcSuccess ||
      mcSetDevice(kernel_device) != mcSuccess ||
      mcMalloc(&own, kN * sizeof(int)) != mcSuccess ||
      mcMemset(own, 0, kN * sizeof(int)) != mcSuccess) {
    return "could not allocate";
  }
  for (int i = 0; i < kN; ++i) managed[i] = pinned[i] = i;
  AddEverywhere<<<kN / 256, 256>>>(managed, pinned, own, kN);
  const mcError_t result = mcDeviceSynchronize();
  if (result != mcSuccess) {
    return std::string("the kernel returned ") + mcGetErrorName(result);
  }
  std::vector<int> own_values(kN);
  if (mcMemcpy(own_values.data(), own, kN * sizeof(int),
               mcMemcpyDeviceToHost) != mcSuccess) {
    return "could not read the kernel's own memory";
  }
  for (int i = 0; i < kN; ++i) {
    if (managed[i] != i + 1 || pinned[i] != i + 2 || own_values[i] != 3) {
      return "wrong value at " + std::to_string(i);
    }
  }
  return "";
}

TEST_P(CheckedPeerDirection, ManagedHostAndOwnMemoryNeedNoPeerAccess) {
  MX_SPEC("api.peer.access.managed-and-host-memory-need-no-peer-access",
          "lang.ub.memory.peer-pointer-without-access");
  MX_EXPECT_IN_FRESH_PROCESS(SharedMemoryKindsAccessible(GetParam()));
}

// Without checked mode the reference does not detect the access: it reads
// and writes the memory, as hardware with full peer reach would.
TEST_P(CheckedPeerDirection, OutsideCheckedModeTheAccessIsNotDetected) {
  MX_SPEC("lang.ub.memory.peer-pointer-without-access");
  MX_REQUIRE_CAPABILITY("reference_choices");
  ScopedEnvironment unchecked("MXCTS_MEMCHECK", nullptr);
  Access write = ReadAccess();
  write.op = Op::kWrite;
  MX_EXPECT_IN_FRESH_PROCESS(
      AccessRuns(write, /*enable_after_allocating=*/false));
}

INSTANTIATE_TEST_SUITE_P(KernelDevices, CheckedPeerDirection,
                         testing::Values(0, 1),
                         [](const testing::TestParamInfo<int>& info) {
                           return "KernelOnDevice" + std::to_string(info.param);
                         });

}  // namespace
