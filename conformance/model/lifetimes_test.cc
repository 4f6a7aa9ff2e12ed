// Copyright mxcts authors.
//
// Conformance: the lifetimes of the memory spaces (docs/spec/model.md,
// "Memory model"; the initialization rules of "Programming model"):
// device variables and allocations live as long as their context, or
// until freed; managed variables as long as the application; the primary
// context is created at the first call that needs it, shared by the host
// threads, and destroyed by mcDeviceReset; a thread's current device is 0
// until it selects another.
//
// Checks that depend on what the process did before (the first runtime
// call, a reset) run in a fresh process (conformance/testing/
// fresh_process.h). Each rule has a control: the same steps without the
// event that ends the lifetime, or with the other device selected.

#include <mc_runtime.h>

#include <string>
#include <thread>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

__device__ int d_counter = 40;
__managed__ int m_counter = 50;

__global__ void Bump(int* allocation) {
  ++d_counter;
  ++m_counter;
  if (allocation != nullptr) ++*allocation;
}

int DeviceCounter() {
  int value = -1;
  EXPECT_EQ(mcMemcpyFromSymbol(&value, d_counter, sizeof(int)), mcSuccess);
  return value;
}

// --- Device variables and allocations: until the context ends. ---

// Bumps the variables and an allocation twice, optionally resets the
// device, and reports what survived.
std::string BumpThenMaybeReset(bool reset) {
  int* allocation = nullptr;
  if (mcMalloc(&allocation, sizeof(int)) != mcSuccess) return "mcMalloc failed";
  if (mcMemset(allocation, 0, sizeof(int)) != mcSuccess) return "mcMemset";
  const int device_before = DeviceCounter();
  const int managed_before = m_counter;
  Bump<<<1, 1>>>(allocation);
  if (mcDeviceSynchronize() != mcSuccess) return "first grid failed";
  Bump<<<1, 1>>>(allocation);
  if (mcDeviceSynchronize() != mcSuccess) return "second grid failed";
  std::string problems;
  if (DeviceCounter() != device_before + 2) {
    problems += "the __device__ variable lost a write between grids; ";
  }
  if (m_counter != managed_before + 2) {
    problems += "the __managed__ variable lost a write between grids; ";
  }
  int stored = -1;
  mcMemcpy(&stored, allocation, sizeof(int), mcMemcpyDeviceToHost);
  if (stored != 2) problems += "the allocation lost a write between grids; ";
  if (reset) {
    if (mcDeviceReset() != mcSuccess) return problems + "mcDeviceReset failed";
    if (DeviceCounter() != 40) {
      problems += "the __device__ variable survived the context; ";
    }
    mcPointerAttributes attributes{};
    if (mcPointerGetAttributes(&attributes, allocation) != mcSuccess ||
        attributes.type != mcMemoryTypeUnregistered) {
      problems += "the allocation survived the context; ";
    }
    // [model.memory.lifetimes] managed variables live as long as the
    // application.
    if (m_counter != managed_before + 2) {
      problems += "the __managed__ variable did not survive the reset; ";
    }
    // [model.program.device-reset-destroys-context] The next call creates
    // a fresh context, which works.
    Bump<<<1, 1>>>(nullptr);
    if (mcDeviceSynchronize() != mcSuccess || DeviceCounter() != 41) {
      problems += "the fresh context does not work; ";
    }
  } else {
    mcPointerAttributes attributes{};
    if (mcPointerGetAttributes(&attributes, allocation) != mcSuccess ||
        attributes.type != mcMemoryTypeDevice) {
      problems += "the allocation ended early; ";
    }
    if (DeviceCounter() != device_before + 2) {
      problems += "the __device__ variable ended early; ";
    }
    mcFree(allocation);
  }
  return problems;
}

TEST(Lifetimes, VariablesAndAllocationsLastUntilTheContextEnds) {
  MX_SPEC("model.memory.lifetimes",
          "model.program.device-reset-destroys-context",
          "model.memory.global-visible-to-all-grids");
  MX_EXPECT_IN_FRESH_PROCESS(BumpThenMaybeReset(true));
}

TEST(Lifetimes, ControlWithoutResetEverythingSurvives) {
  MX_SPEC("model.memory.lifetimes",
          "model.program.device-reset-destroys-context");
  MX_EXPECT_IN_FRESH_PROCESS(BumpThenMaybeReset(false));
}

TEST(Lifetimes, FreedAllocationEnds) {
  MX_SPEC("model.memory.lifetimes");
  int* allocation = nullptr;
  ASSERT_EQ(mcMalloc(&allocation, 64), mcSuccess);
  mcPointerAttributes attributes{};
  ASSERT_EQ(mcPointerGetAttributes(&attributes, allocation), mcSuccess);
  EXPECT_EQ(attributes.type, mcMemoryTypeDevice);  // the control: alive
  ASSERT_EQ(mcFree(allocation), mcSuccess);
  ASSERT_EQ(mcPointerGetAttributes(&attributes, allocation), mcSuccess);
  EXPECT_EQ(attributes.type, mcMemoryTypeUnregistered);
}

// --- Initialization happens by itself. ---

std::string FirstCallIs(int which) {
  int* allocation = nullptr;
  switch (which) {
    case 0:
      if (mcMalloc(&allocation, sizeof(int)) != mcSuccess) {
        return "mcMalloc as the first call failed";
      }
      break;
    case 1:
      Bump<<<1, 1>>>(nullptr);
      if (mcGetLastError() != mcSuccess) return "the first launch failed";
      break;
    case 2:
      if (mcMemcpyToSymbol(d_counter, &which, sizeof(int)) != mcSuccess) {
        return "mcMemcpyToSymbol as the first call failed";
      }
      break;
  }
  if (mcDeviceSynchronize() != mcSuccess) return "the synchronization failed";
  if (DeviceCounter() != (which == 1 ? 41 : which == 2 ? 2 : 40)) {
    return "the device variable does not hold what the first call left";
  }
  if (allocation != nullptr) mcFree(allocation);
  return "";
}

TEST(ImplicitInitialization, MallocAsTheFirstCall) {
  MX_SPEC("model.program.implicit-initialization");
  MX_EXPECT_IN_FRESH_PROCESS(FirstCallIs(0));
}

TEST(ImplicitInitialization, LaunchAsTheFirstCall) {
  MX_SPEC("model.program.implicit-initialization",
          "model.program.kernel-is-entry-point");
  MX_EXPECT_IN_FRESH_PROCESS(FirstCallIs(1));
}

TEST(ImplicitInitialization, SymbolCopyAsTheFirstCall) {
  MX_SPEC("model.program.implicit-initialization");
  MX_EXPECT_IN_FRESH_PROCESS(FirstCallIs(2));
}

// --- The primary context is shared by the host threads. ---

__global__ void AddTo(int* cell, int value) { atomicAdd(cell, value); }

TEST(PrimaryContext, SharedByHostThreads) {
  MX_SPEC("model.program.primary-context-shared-by-host-threads");
  int* cell = nullptr;
  ASSERT_EQ(mcMalloc(&cell, sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMemset(cell, 0, sizeof(int)), mcSuccess);
  const int counter_value = 1234;
  ASSERT_EQ(mcMemcpyToSymbol(d_counter, &counter_value, sizeof(int)),
            mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  int seen_counter = -1;
  mcPointerAttributes attributes{};
  mcError_t attribute_error = mcErrorUnknown;
  mcError_t launch_error = mcErrorUnknown;
  int* theirs = nullptr;
  std::thread other([&] {
    // Memory and variables of the main thread, through the same context.
    attribute_error = mcPointerGetAttributes(&attributes, cell);
    mcMemcpyFromSymbol(&seen_counter, d_counter, sizeof(int));
    AddTo<<<1, 8>>>(cell, 3);
    launch_error = mcDeviceSynchronize();
    mcMalloc(&theirs, sizeof(int));
    mcMemset(theirs, 0, sizeof(int));
    mcDeviceSynchronize();
  });
  other.join();
  EXPECT_EQ(attribute_error, mcSuccess);
  EXPECT_EQ(attributes.type, mcMemoryTypeDevice);
  EXPECT_EQ(seen_counter, counter_value);
  EXPECT_EQ(launch_error, mcSuccess);
  // And the other thread's allocation is usable here.
  ASSERT_NE(theirs, nullptr);
  AddTo<<<1, 4>>>(theirs, 5);
  AddTo<<<1, 4>>>(cell, 5);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  int values[2] = {0, 0};
  ASSERT_EQ(mcMemcpy(&values[0], cell, sizeof(int), mcMemcpyDeviceToHost),
            mcSuccess);
  ASSERT_EQ(mcMemcpy(&values[1], theirs, sizeof(int), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(values[0], 8 * 3 + 4 * 5);
  EXPECT_EQ(values[1], 4 * 5);
  mcFree(cell);
  mcFree(theirs);
}

// The control: an allocation of another device is not the same memory,
// and the check above would see the difference.
TEST(PrimaryContext, ControlOtherDevicesContextHoldsOtherVariables) {
  MX_SPEC("model.program.primary-context-shared-by-host-threads");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  const int mine = 777;
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
  ASSERT_EQ(mcMemcpyToSymbol(d_counter, &mine, sizeof(int)), mcSuccess);
  int seen = -1;
  std::thread other([&] {
    mcSetDevice(1);
    mcMemcpyFromSymbol(&seen, d_counter, sizeof(int));
  });
  other.join();
  EXPECT_NE(seen, mine);
}

// --- The current device: 0 until the thread selects another. ---

TEST(CurrentDevice, NewHostThreadStartsOnDeviceZero) {
  MX_SPEC("model.program.current-device-default-zero");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  int current = -1;
  int owner = -1;
  std::thread other([&] {
    mcGetDevice(&current);
    int* allocation = nullptr;
    if (mcMalloc(&allocation, 16) == mcSuccess) {
      mcPointerAttributes attributes{};
      mcPointerGetAttributes(&attributes, allocation);
      owner = attributes.device;
      mcFree(allocation);
    }
  });
  other.join();
  mcSetDevice(0);
  EXPECT_EQ(current, 0);
  EXPECT_EQ(owner, 0);
}

TEST(CurrentDevice, ControlSelectedDeviceIsUsed) {
  MX_SPEC("model.program.current-device-default-zero");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  int current = -1;
  int owner = -1;
  std::thread other([&] {
    mcSetDevice(1);
    mcGetDevice(&current);
    int* allocation = nullptr;
    if (mcMalloc(&allocation, 16) == mcSuccess) {
      mcPointerAttributes attributes{};
      mcPointerGetAttributes(&attributes, allocation);
      owner = attributes.device;
      mcFree(allocation);
    }
  });
  other.join();
  EXPECT_EQ(current, 1);
  EXPECT_EQ(owner, 1);
}

}  // namespace
}  // namespace mxcts::conformance
