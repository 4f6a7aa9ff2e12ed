// Copyright mxcts authors.
//
// Conformance: mcMalloc and mcFree called in device code
// (docs/spec/lang-device-services.md,
// lang.malloc.host.device-mcmalloc-uses-heap): they allocate from the device
// heap, so what one kernel can hold at once is bounded by
// mcLimitMallocHeapSize, not by the device's free memory, and memory mcFree
// returns can be allocated again. The heap's size can be set only before the
// first kernel that uses it, so each check runs in a fresh process; the control
// sets a larger heap and sees more blocks.

#include <mc_runtime.h>

#include <string>

#include "conformance/language/synchronization/managed_array.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::ManagedArray;

constexpr size_t kBlockBytes = 4096;
constexpr int kMaxBlocks = 1024;  // 4 MiB: far more than the small heaps

// Allocates kBlockBytes blocks with mcMalloc until it fails (or
// kMaxBlocks), writes each, frees them all with mcFree, then allocates
// again as many as it first got. out: [first count, failing error, blocks
// re-allocated, free errors].
__global__ void FillHeapWithMcMalloc(void** kept, int* out) {
  int count = 0;
  mcError_t failed = mcSuccess;
  while (count < kMaxBlocks) {
    void* block = nullptr;
    failed = mcMalloc(&block, kBlockBytes);
    if (failed != mcSuccess) break;
    static_cast<char*>(block)[kBlockBytes - 1] = 1;
    kept[count++] = block;
  }
  int free_errors = 0;
  for (int i = 0; i < count; ++i) free_errors += mcFree(kept[i]) != mcSuccess;
  int again = 0;
  for (; again < count; ++again) {
    if (mcMalloc(&kept[again], kBlockBytes) != mcSuccess) break;
  }
  for (int i = 0; i < again; ++i) free_errors += mcFree(kept[i]) != mcSuccess;
  out[0] = count;
  out[1] = failed;
  out[2] = again;
  out[3] = free_errors;
}

// Sets the heap to `heap_bytes`, runs the kernel and checks its counts.
std::string CheckHeapBound(size_t heap_bytes) {
  if (mcDeviceSetLimit(mcLimitMallocHeapSize, heap_bytes) != mcSuccess) {
    return "mcDeviceSetLimit failed";
  }
  size_t heap = 0;
  if (mcDeviceGetLimit(&heap, mcLimitMallocHeapSize) != mcSuccess) {
    return "mcDeviceGetLimit failed";
  }
  ManagedArray<void*> kept(kMaxBlocks, nullptr);
  ManagedArray<int> out(4, -1);
  FillHeapWithMcMalloc<<<1, 1>>>(kept.data(), out.data());
  if (mcDeviceSynchronize() != mcSuccess) return "the kernel failed";
  const size_t held = static_cast<size_t>(out[0]) * kBlockBytes;
  std::string problems;
  if (out[0] <= 0) problems += "no block was allocated; ";
  if (held > heap) {
    problems += std::to_string(out[0]) + " blocks exceed the heap of " +
                std::to_string(heap) + " bytes; ";
  }
  if (heap >= size_t{kMaxBlocks} * kBlockBytes * 2 && out[0] < kMaxBlocks) {
    problems += "a heap of " + std::to_string(heap) + " bytes held only " +
                std::to_string(out[0]) + " blocks; ";
  }
  if (out[0] < kMaxBlocks && out[1] != mcErrorMemoryAllocation) {
    problems += "the failing mcMalloc returned " +
                std::string(mcGetErrorName(static_cast<mcError_t>(out[1]))) +
                "; ";
  }
  if (out[2] != out[0]) problems += "freed memory was not reusable; ";
  if (out[3] != 0) problems += "mcFree failed; ";
  return problems;
}

TEST(DeviceMcMalloc, BoundedByTheHeapLimit) {
  MX_SPEC("lang.malloc.host.device-mcmalloc-uses-heap");
  MX_REQUIRE_CAPABILITY("device_malloc");
  MX_EXPECT_IN_FRESH_PROCESS(CheckHeapBound(size_t{64} << 10));
}

TEST(DeviceMcMallocControl, ALargerHeapHoldsMore) {
  MX_SPEC("lang.malloc.host.device-mcmalloc-uses-heap");
  MX_REQUIRE_CAPABILITY("device_malloc");
  MX_EXPECT_IN_FRESH_PROCESS(CheckHeapBound(size_t{16} << 20));
}

}  // namespace
