// Copyright mxcts authors.
//
// Conformance: mcDeviceReset and the memory of the reset device
// (docs/spec/api-device.md, mcDeviceReset).
//
//   - The reset releases the current device's allocations: device memory,
//     stream-ordered allocations and page-locked host memory allocated
//     with the device current. Afterwards mcPointerGetAttributes knows
//     none of them and mcFree of the device pointer returns
//     mcErrorInvalidValue. The same allocations on the other device are the
//     control: they are kept and can be freed.
//   - The next call that uses the device, from this thread or another,
//     makes a new context and succeeds.
//
// Each program runs in a fresh process, since the reset releases memory
// other tests of the binary could hold.

#include <mc_runtime.h>

#include <string>
#include <thread>

#include "conformance/api/testing/expect_error.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

struct Allocations {
  void* device = nullptr;
  void* host = nullptr;
  void* stream_ordered = nullptr;  // null without memory pools
};

std::string Allocate(int device, bool stream_ordered, Allocations* out) {
  std::string problems;
  problems += Expect("mcSetDevice", mcSetDevice(device), mcSuccess);
  problems += Expect("mcMalloc", mcMalloc(&out->device, 256), mcSuccess);
  problems +=
      Expect("mcMallocHost", mcMallocHost(&out->host, 256, 0), mcSuccess);
  if (stream_ordered) {
    problems +=
        Expect("mcMallocAsync",
               mcMallocAsync(&out->stream_ordered, 256, nullptr), mcSuccess);
    problems +=
        Expect("mcStreamSynchronize", mcStreamSynchronize(nullptr), mcSuccess);
  }
  return problems;
}

// "" if `p` is known as `type`, else a sentence naming `what`.
std::string ExpectType(const char* what, void* p, mcMemoryType type) {
  mcPointerAttributes a{};
  const mcError_t result = mcPointerGetAttributes(&a, p);
  if (result != mcSuccess) {
    return std::string("mcPointerGetAttributes of ") + what + " returned " +
           mcGetErrorName(result) + "; ";
  }
  if (a.type != type) {
    return std::string(what) + " has type " + std::to_string(a.type) +
           ", expected " + std::to_string(type) + "; ";
  }
  return "";
}

std::string ResetReleasesTheDevicesMemory(int reset, bool stream_ordered) {
  std::string problems;
  Allocations on[2];
  problems += Allocate(1 - reset, stream_ordered, &on[1 - reset]);
  problems += Allocate(reset, stream_ordered, &on[reset]);
  problems += Expect("mcDeviceReset", mcDeviceReset(), mcSuccess);
  const Allocations& gone = on[reset];
  const Allocations& kept = on[1 - reset];
  problems += ExpectType("the reset device's mcMalloc memory", gone.device,
                         mcMemoryTypeUnregistered);
  problems += ExpectType("the reset device's mcMallocHost memory", gone.host,
                         mcMemoryTypeUnregistered);
  if (stream_ordered) {
    problems += ExpectType("the reset device's mcMallocAsync memory",
                           gone.stream_ordered, mcMemoryTypeUnregistered);
  }
  // [api.device.reset.freed-pointer-is-invalid-value]
  problems += Expect("mcFree of the reset device's memory", mcFree(gone.device),
                     mcErrorInvalidValue);
  mcGetLastError();
  // Control: the other device's allocations are kept.
  problems += ExpectType("the other device's mcMalloc memory", kept.device,
                         mcMemoryTypeDevice);
  problems += ExpectType("the other device's mcMallocHost memory", kept.host,
                         mcMemoryTypeHost);
  if (stream_ordered) {
    problems += ExpectType("the other device's mcMallocAsync memory",
                           kept.stream_ordered, mcMemoryTypeDevice);
    problems += Expect("mcFree of the other device's mcMallocAsync memory",
                       mcFree(kept.stream_ordered), mcSuccess);
  }
  problems += Expect("mcFree of the other device's memory", mcFree(kept.device),
                     mcSuccess);
  problems += Expect("mcFreeHost of the other device's host memory",
                     mcFreeHost(kept.host), mcSuccess);
  return problems;
}

using ResetCase = std::tuple<int, bool>;

class ResetMemory : public testing::TestWithParam<ResetCase> {};

TEST_P(ResetMemory, ReleasesTheCurrentDevicesAllocations) {
  MX_SPEC("api.device.reset.destroys-allocations",
          "api.device.reset.freed-pointer-is-invalid-value");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  const bool stream_ordered = std::get<1>(GetParam());
  if (stream_ordered) MX_REQUIRE_CAPABILITY("memory_pools");
  MX_EXPECT_IN_FRESH_PROCESS(
      ResetReleasesTheDevicesMemory(std::get<0>(GetParam()), stream_ordered));
}

INSTANTIATE_TEST_SUITE_P(
    Devices, ResetMemory,
    testing::Combine(testing::Values(0, 1), testing::Bool()),
    [](const testing::TestParamInfo<ResetCase>& info) {
      return "ResetDevice" + std::to_string(std::get<0>(info.param)) +
             (std::get<1>(info.param) ? "_WithStreamOrdered" : "");
    });

__global__ void Store(int* out, int value) { *out = value; }

// After the reset, `from_other_thread` decides which thread makes the first
// call; it must succeed, and the device must work.
std::string NextCallMakesANewContext(bool from_other_thread) {
  std::string problems;
  int* before = nullptr;
  problems += Expect("mcMalloc", mcMalloc(&before, sizeof(int)), mcSuccess);
  problems += Expect("mcDeviceReset", mcDeviceReset(), mcSuccess);
  int value = 0;
  auto use = [&problems, &value] {
    int* after = nullptr;
    problems += Expect("mcMalloc after the reset",
                       mcMalloc(&after, sizeof(int)), mcSuccess);
    Store<<<1, 1>>>(after, 42);
    problems +=
        Expect("the launch after the reset", mcGetLastError(), mcSuccess);
    problems += Expect(
        "mcMemcpy after the reset",
        mcMemcpy(&value, after, sizeof(int), mcMemcpyDeviceToHost), mcSuccess);
    problems += Expect("mcFree after the reset", mcFree(after), mcSuccess);
  };
  if (from_other_thread) {
    std::thread(use).join();
  } else {
    use();
  }
  if (value != 42) problems += "the kernel after the reset did not run; ";
  return problems;
}

class ResetThenUse : public testing::TestWithParam<bool> {};

TEST_P(ResetThenUse, NextCallCreatesANewContext) {
  MX_SPEC("api.device.reset.next-call-creates-new-context");
  MX_EXPECT_IN_FRESH_PROCESS(NextCallMakesANewContext(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Threads, ResetThenUse, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "OtherThread" : "SameThread";
                         });

}  // namespace
}  // namespace mxcts::conformance
