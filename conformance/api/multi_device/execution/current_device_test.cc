// Copyright mxcts authors.
//
// Conformance: the current device of each host thread and what belongs to
// it (docs/spec/api-multi-device.md, "The current device" and "What belongs
// to a device"; api-device.md, mcSetDevice).
//
//   - Each host thread has its own current device, device 0 until it
//     selects another; mcGetDevice reports the one mcSetDevice selected,
//     for every valid ordinal, from any thread at any time.
//   - Several threads drive devices at once, different ones or the same,
//     sharing each device's context.
//   - Allocations and default-stream kernels go to the current device.
//   - mcSetDevice and mcDeviceSynchronize wait for no other device's work:
//     work held by a HostGate on the other device stays pending across the
//     call and is released afterwards, in time. These programs run in fresh
//     processes with the reference's deferred timeline, where a call that
//     waited would run the held work itself (host_gate.h); the control
//     shows that a call that does wait (mcDeviceSynchronize of the gated
//     device, made from another thread) does not return before the gate
//     opens.

#include <mc_runtime.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "conformance/api/testing/expect_error.h"
#include "conformance/api/testing/host_gate.h"
#include "conformance/api/testing/timeline_mode_scope.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

int DeviceCount() {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return 0;
  return count;
}

int Current() {
  int device = -1;
  if (mcGetDevice(&device) != mcSuccess) return -2;
  return device;
}

__global__ void Fill(int* out, int value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

// Each device's instance holds that device's ordinal
// [lang.variable.device.distinct-per-device], so a kernel that copies it
// tells on which device it ran. Device code has no portable query of its
// device: MXMACA's device runtime has no mcGetDevice
// [api.devrt.api.device-queries-optional].
__device__ int device_ordinal = -1;

__global__ void WhereAmI(int* out) { *out = device_ordinal; }

// --- The current device of each thread. ---

class EveryDevice : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", GetParam() + 1);
  }
};

TEST_P(EveryDevice, GetDeviceReportsTheSelectedDevice) {
  MX_SPEC("api.peer.current.get-device", "api.peer.current.valid-ordinals");
  ASSERT_EQ(mcSetDevice(GetParam()), mcSuccess);
  int device = -1;
  EXPECT_EQ(mcGetDevice(&device), mcSuccess);
  EXPECT_EQ(device, GetParam());
  // Control: selecting another device changes the answer.
  const int other = (GetParam() + 1) % DeviceCount();
  ASSERT_EQ(mcSetDevice(other), mcSuccess);
  EXPECT_EQ(Current(), other);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
}

TEST_P(EveryDevice, AnyThreadMaySelectItAtAnyTime) {
  MX_SPEC("api.peer.current.valid-ordinals",
          "api.peer.current.per-host-thread");
  // Busy first: the device has work and allocations when it is selected.
  int* data = nullptr;
  ASSERT_EQ(mcMalloc(&data, 64 * sizeof(int)), mcSuccess);
  Fill<<<1, 64>>>(data, 1, 64);
  mcError_t selected = mcErrorUnknown;
  int seen = -1;
  std::thread selector([&] {
    selected = mcSetDevice(GetParam());
    seen = Current();
  });
  selector.join();
  EXPECT_EQ(selected, mcSuccess);
  EXPECT_EQ(seen, GetParam());
  EXPECT_EQ(Current(), 0);  // this thread kept its own
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(mcFree(data), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(Devices, EveryDevice, testing::Values(0, 1),
                         [](const testing::TestParamInfo<int>& info) {
                           return "Device" + std::to_string(info.param);
                         });

TEST(CurrentDevice, SelectingInOneThreadLeavesTheOthers) {
  MX_SPEC("api.peer.current.per-host-thread");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  std::atomic<int> phase{0};
  int other_after = -1;
  std::thread other([&] {
    ASSERT_EQ(mcSetDevice(1), mcSuccess);
    phase.store(1);
    while (phase.load() != 2) std::this_thread::yield();
    other_after = Current();
  });
  while (phase.load() != 1) std::this_thread::yield();
  EXPECT_EQ(Current(), 0);  // the other thread's choice is not this one's
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  phase.store(2);
  other.join();
  EXPECT_EQ(other_after, 1);  // nor is this one's the other's
  // Control: in one thread the last selection holds.
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  EXPECT_EQ(Current(), 1);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
}

// A thread that selects nothing works on device 0, in a fresh process and
// in a new thread of a process whose main thread selected device 1.
std::string FirstCallsUseDeviceZero() {
  std::string problems;
  int* data = nullptr;
  problems +=
      Expect("mcMalloc as the first call", mcMalloc(&data, 16), mcSuccess);
  mcPointerAttributes attributes{};
  problems += Expect("mcPointerGetAttributes",
                     mcPointerGetAttributes(&attributes, data), mcSuccess);
  if (attributes.device != 0) {
    problems += "the first allocation is on device " +
                std::to_string(attributes.device) + "; ";
  }
  if (Current() != 0) problems += "the first thread's device is not 0; ";
  problems += Expect("mcSetDevice(1)", mcSetDevice(1), mcSuccess);
  int fresh_thread = -1;
  std::thread([&] { fresh_thread = Current(); }).join();
  if (fresh_thread != 0) {
    problems +=
        "a new thread's device is " + std::to_string(fresh_thread) + "; ";
  }
  // Control: this thread's selection is seen.
  if (Current() != 1) problems += "mcSetDevice(1) was not seen; ";
  mcFree(data);
  return problems;
}

TEST(CurrentDevice, IsDeviceZeroUntilSelected) {
  MX_SPEC("api.peer.current.default-device-zero");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  MX_EXPECT_IN_FRESH_PROCESS(FirstCallsUseDeviceZero());
}

// --- Threads driving devices at once. ---

TEST(CurrentDevice, ThreadsDriveDevicesConcurrently) {
  MX_SPEC("api.peer.current.threads-use-devices-concurrently");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  constexpr int kThreads = 4;  // two on each device
  constexpr int kRounds = 20;
  constexpr int kN = 256;
  // One allocation per device, made by this thread and shared.
  int* memory[2] = {nullptr, nullptr};
  for (int d = 0; d < 2; ++d) {
    ASSERT_EQ(mcSetDevice(d), mcSuccess);
    ASSERT_EQ(mcMalloc(&memory[d], 2 * kN * sizeof(int)), mcSuccess);
  }
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  std::atomic<int> failures{0};
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const int device = t % 2;
      int* mine = memory[device] + (t / 2) * kN;
      if (mcSetDevice(device) != mcSuccess) ++failures;
      ready.fetch_add(1);
      while (ready.load() != kThreads) std::this_thread::yield();
      mcStream_t stream = nullptr;
      if (mcStreamCreate(&stream) != mcSuccess) ++failures;
      for (int round = 0; round < kRounds; ++round) {
        Fill<<<kN / 64, 64, 0, stream>>>(mine, t * 1000 + round, kN);
      }
      if (mcStreamSynchronize(stream) != mcSuccess) ++failures;
      if (mcStreamDestroy(stream) != mcSuccess) ++failures;
      if (Current() != device) ++failures;
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  // Every thread's last kernel left its value in its part.
  std::vector<int> host(kN);
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(mcMemcpy(host.data(), memory[t % 2] + (t / 2) * kN,
                       kN * sizeof(int), mcMemcpyDeviceToHost),
              mcSuccess);
    for (int i = 0; i < kN; ++i) {
      ASSERT_EQ(host[i], t * 1000 + kRounds - 1) << "thread " << t << " " << i;
    }
  }
  for (int* m : memory) EXPECT_EQ(mcFree(m), mcSuccess);
}

// --- What belongs to the current device. ---

TEST_P(EveryDevice, AllocationIsOnTheCurrentDevice) {
  MX_SPEC("api.peer.ownership.allocation-on-current");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  const int other = 1 - GetParam();
  ASSERT_EQ(mcSetDevice(GetParam()), mcSuccess);
  void* here = nullptr;
  ASSERT_EQ(mcMalloc(&here, 64), mcSuccess);
  ASSERT_EQ(mcSetDevice(other), mcSuccess);
  void* there = nullptr;
  ASSERT_EQ(mcMalloc(&there, 64), mcSuccess);
  mcPointerAttributes a{};
  ASSERT_EQ(mcPointerGetAttributes(&a, here), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeDevice);
  EXPECT_EQ(a.device, GetParam());
  // Control: the allocation made with the other device current is there.
  ASSERT_EQ(mcPointerGetAttributes(&a, there), mcSuccess);
  EXPECT_EQ(a.device, other);
  EXPECT_EQ(mcFree(here), mcSuccess);
  EXPECT_EQ(mcFree(there), mcSuccess);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
}

TEST_P(EveryDevice, DefaultStreamKernelRunsOnTheCurrentDevice) {
  MX_SPEC("api.peer.ownership.kernel-on-current");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  for (int d : {0, 1}) {
    ASSERT_EQ(mcSetDevice(d), mcSuccess);
    ASSERT_EQ(mcMemcpyToSymbol(device_ordinal, &d, sizeof(d)), mcSuccess);
  }
  int where[2] = {-1, -1};
  int* out[2] = {nullptr, nullptr};
  for (int d : {GetParam(), 1 - GetParam()}) {
    ASSERT_EQ(mcSetDevice(d), mcSuccess);
    // Device-only memory of the current device, which the kernel uses.
    ASSERT_EQ(mcMalloc(&out[d], sizeof(int)), mcSuccess);
    WhereAmI<<<1, 1>>>(out[d]);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    ASSERT_EQ(mcMemcpy(&where[d], out[d], sizeof(int), mcMemcpyDeviceToHost),
              mcSuccess);
    EXPECT_EQ(mcFree(out[d]), mcSuccess);
  }
  EXPECT_EQ(where[GetParam()], GetParam());
  EXPECT_EQ(where[1 - GetParam()], 1 - GetParam());  // control
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
}

// --- Calls that wait for no other device. ---

// Holds a stream of `held` with a gate, switches to `other` with `call`,
// then opens the gate; the held work must have stayed pending across the
// call and been released in time.
template <typename Call>
std::string GateAcross(int held, int other, Call call, const char* name) {
  std::string problems;
  problems += Expect("mcSetDevice", mcSetDevice(held), mcSuccess);
  mcStream_t stream = nullptr;
  problems +=
      Expect("mcStreamCreateWithFlags",
             mcStreamCreateWithFlags(&stream, mcStreamNonBlocking), mcSuccess);
  HostGate gate;
  problems += Expect("mcLaunchHostFunc", gate.Hold(stream), mcSuccess);
  problems += Expect(name, call(other), mcSuccess);
  if (gate.Finished()) {
    problems += std::string(name) + " returned after the held work; ";
  }
  gate.Open();
  problems += Expect("mcStreamSynchronize of the held stream",
                     mcStreamSynchronize(stream), mcSuccess);
  if (!gate.ReleasedInTime()) {
    problems += std::string(name) +
                " waited for the held work until its bound ran out; ";
  }
  mcStreamDestroy(stream);
  return problems;
}

std::string SetDeviceDoesNotWait() {
  return GateAcross(
      0, 1, [](int d) { return mcSetDevice(d); }, "mcSetDevice");
}

std::string OtherDeviceSynchronizeDoesNotWait() {
  return GateAcross(
      1, 0,
      [](int d) {
        const mcError_t set = mcSetDevice(d);
        return set != mcSuccess ? set : mcDeviceSynchronize();
      },
      "mcDeviceSynchronize of device 0");
}

// Control: mcDeviceSynchronize of the gated device itself, from another
// thread, does not return while the gate is shut.
std::string GatedDeviceSynchronizeWaits() {
  std::string problems;
  problems += Expect("mcSetDevice", mcSetDevice(1), mcSuccess);
  HostGate gate;
  problems += Expect("mcLaunchHostFunc", gate.Hold(nullptr), mcSuccess);
  std::atomic<bool> returned{false};
  mcError_t synchronized = mcErrorUnknown;
  std::thread waiter([&] {
    mcSetDevice(1);
    synchronized = mcDeviceSynchronize();
    returned.store(true);
  });
  // Long enough for a call that does not wait to have returned.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  if (returned.load()) {
    problems +=
        "mcDeviceSynchronize of the gated device returned while the "
        "gate was shut; ";
  }
  gate.Open();
  waiter.join();
  problems += Expect("mcDeviceSynchronize", synchronized, mcSuccess);
  if (!gate.ReleasedInTime()) problems += "the gate's bound ran out; ";
  return problems;
}

class NoWaitAcrossDevices : public DeferredModeTest<> {
 protected:
  void SetUp() override { MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2); }
};

TEST_F(NoWaitAcrossDevices, SetDeviceDoesNotWaitForThePreviousDevice) {
  MX_SPEC("api.peer.current.set-device-does-not-synchronize",
          "api.device.set.does-not-synchronize");
  MX_EXPECT_IN_FRESH_PROCESS(SetDeviceDoesNotWait());
}

TEST_F(NoWaitAcrossDevices, DeviceSynchronizeWaitsForTheCurrentDeviceOnly) {
  MX_SPEC("api.peer.sync.device-synchronize-current-only");
  MX_EXPECT_IN_FRESH_PROCESS(OtherDeviceSynchronizeDoesNotWait());
}

TEST_F(NoWaitAcrossDevices, ControlSynchronizeOfTheGatedDeviceWaits) {
  MX_SPEC("api.peer.sync.device-synchronize-current-only",
          "api.peer.current.set-device-does-not-synchronize",
          "api.device.set.does-not-synchronize");
  MX_EXPECT_IN_FRESH_PROCESS(GatedDeviceSynchronizeWaits());
}

}  // namespace
}  // namespace mxcts::conformance
