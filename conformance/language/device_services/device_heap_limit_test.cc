// Copyright mxcts authors.
//
// Conformance: the size of the device heap, mcLimitMallocHeapSize, and what
// device malloc does when the heap is exhausted
// (docs/spec/lang-device-services.md "Device heap: malloc and free",
// docs/spec/api-device.md "Limits").
//
// The limit can be set only before the first kernel that uses the heap, so
// every check runs in a fresh process (MX_EXPECT_IN_FRESH_PROCESS). A
// kernel allocates blocks of one size until malloc returns null; the live
// blocks never total more than the heap, the null does not stop the kernel
// or fail any call, and freeing the blocks makes the memory available
// again. Heaps of 4096 and 65536 bytes, and block sizes at the heap's size,
// one below and one above it, bound the arithmetic.

#include <mc_runtime.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <tuple>

#include "conformance/language/device_services/limit_resize_check.h"
#include "conformance/language/synchronization/device_indices.h"
#include "conformance/language/synchronization/managed_array.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/fresh_process.h"
#include "conformance/testing/spec.h"

namespace {

using ::mxcts::conformance::GlobalLinearThread;
using ::mxcts::conformance::ManagedArray;

constexpr size_t kReferenceDefaultHeapBytes = 8388608;
constexpr unsigned kMaxBlocks = 8192;

// What one exhausting run saw.
struct Exhaustion {
  unsigned blocks;  // non-null results before the first null
  int went_on;      // 1 once the thread ran past the null
};

// One thread allocates `size`-byte blocks until malloc returns null (or
// kMaxBlocks), keeping them in `kept`; frees them if `free_after`.
__global__ void AllocateUntilNull(size_t size, void** kept, bool free_after,
                                  Exhaustion* result) {
  unsigned blocks = 0;
  while (blocks < kMaxBlocks) {
    void* block = malloc(size);
    if (block == nullptr) break;
    kept[blocks++] = block;
  }
  result->blocks = blocks;
  if (free_after) {
    for (unsigned i = 0; i < blocks; ++i) free(kept[i]);
  }
  result->went_on = 1;
}

__global__ void Quiet(int* word) { *word = 1; }

// Frees `pointer`, a null pointer the compiler cannot see (a literal
// free(NULL) may be compiled away).
__global__ void FreeArgument(void* pointer) { free(pointer); }

__global__ void FreeAll(void** kept, unsigned count) {
  for (unsigned i = 0; i < count; ++i) free(kept[i]);
}

std::string ErrorName(mcError_t error) { return mcGetErrorName(error); }

// Sets the heap to `bytes` and reads back the size; "" or a problem.
std::string SetHeap(size_t bytes, size_t* actual) {
  const mcError_t set = mcDeviceSetLimit(mcLimitMallocHeapSize, bytes);
  if (set != mcSuccess) return "mcDeviceSetLimit returned " + ErrorName(set);
  const mcError_t got = mcDeviceGetLimit(actual, mcLimitMallocHeapSize);
  if (got != mcSuccess) return "mcDeviceGetLimit returned " + ErrorName(got);
  if (*actual < bytes) {
    return "asked for " + std::to_string(bytes) + " bytes, got " +
           std::to_string(*actual);
  }
  return "";
}

// Runs AllocateUntilNull; returns the count, or a problem in `problems`.
Exhaustion Exhaust(size_t size, ManagedArray<void*>* kept, bool free_after,
                   std::ostringstream* problems) {
  ManagedArray<Exhaustion> result(1, Exhaustion{kMaxBlocks + 1, 0});
  if (!result.ok()) {
    *problems << "mcMallocManaged failed; ";
    return Exhaustion{0, 0};
  }
  AllocateUntilNull<<<1, 1>>>(size, kept->data(), free_after, result.data());
  const mcError_t synchronized = mcDeviceSynchronize();
  // [lang.malloc.alloc.null-when-exhausted] No trap, no error.
  if (synchronized != mcSuccess) {
    *problems << "the exhausting kernel gave " << ErrorName(synchronized)
              << "; ";
  }
  if (result[0].went_on != 1) *problems << "the kernel stopped at the null; ";
  return result[0];
}

// --- Default and set-then-get. ---

std::string DefaultHeapIsReported() {
  size_t bytes = 0;
  const mcError_t got = mcDeviceGetLimit(&bytes, mcLimitMallocHeapSize);
  if (got != mcSuccess) return "mcDeviceGetLimit returned " + ErrorName(got);
  if (bytes == 0) return "the default heap size is 0";
  if (bytes != kReferenceDefaultHeapBytes) {
    return "the default heap is " + std::to_string(bytes) +
           " bytes, the reference documents 8388608";
  }
  return "";
}

TEST(DeviceHeapLimit, DefaultSizeIsReported) {
  MX_SPEC("lang.malloc.heap.default-size",
          "api.device.limit.get-returns-current-value");
  MX_EXPECT_IN_FRESH_PROCESS(DefaultHeapIsReported());
}

// --- Exhaustion. ---

std::string ExhaustThenRefill(size_t heap, size_t size) {
  size_t capacity = 0;
  std::string problem = SetHeap(heap, &capacity);
  if (!problem.empty()) return problem;
  ManagedArray<void*> kept(kMaxBlocks, nullptr);
  if (!kept.ok()) return "mcMallocManaged failed";
  std::ostringstream problems;
  const Exhaustion first =
      Exhaust(size, &kept, /*free_after=*/false, &problems);
  // [lang.malloc.heap.sized-by-limit] The live blocks fit in the heap.
  const size_t rounded = (size + 15) / 16 * 16;
  if (static_cast<size_t>(first.blocks) * size > capacity) {
    problems << first.blocks << " blocks of " << size << " bytes exceed the "
             << capacity << "-byte heap; ";
  }
  // The reference spends no heap on bookkeeping
  // [lang.malloc.heap.device-runtime-overhead]: it fits every whole
  // 16-byte-rounded block.
  const unsigned expected =
      size > capacity ? 0 : static_cast<unsigned>(capacity / rounded);
  if (first.blocks != expected) {
    problems << "the reference fits " << expected << " blocks of " << size
             << " bytes in " << capacity << ", got " << first.blocks << "; ";
  }
  // The device is still usable after a null.
  ManagedArray<int> word(1, 0);
  Quiet<<<1, 1>>>(word.data());
  if (mcDeviceSynchronize() != mcSuccess || word[0] != 1) {
    problems << "a kernel after the exhaustion failed; ";
  }
  // [lang.malloc.free.returns-memory-to-heap] Freed blocks are found again.
  FreeAll<<<1, 1>>>(kept.data(), first.blocks);
  if (mcDeviceSynchronize() != mcSuccess) problems << "FreeAll failed; ";
  const Exhaustion second =
      Exhaust(size, &kept, /*free_after=*/true, &problems);
  if (second.blocks != first.blocks) {
    problems << "after freeing, " << second.blocks << " blocks fit, before "
             << first.blocks << "; ";
  }
  return problems.str();
}

// Parameters: the heap size and the block size.
class DeviceHeapExhaustionTest
    : public ::testing::TestWithParam<std::tuple<size_t, size_t>> {};

TEST_P(DeviceHeapExhaustionTest, NullWhenFullAndFreedMemoryReturns) {
  MX_SPEC("lang.malloc.alloc.null-when-exhausted",
          "lang.malloc.heap.sized-by-limit",
          "lang.malloc.heap.device-runtime-overhead",
          "lang.malloc.free.returns-memory-to-heap",
          "api.device.limit.malloc-heap-size", "api.device.limit.set-then-get");
  MX_REQUIRE_CAPABILITY("device_malloc");
  MX_EXPECT_IN_FRESH_PROCESS(
      ExhaustThenRefill(std::get<0>(GetParam()), std::get<1>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, DeviceHeapExhaustionTest,
    ::testing::Values(std::make_tuple(size_t{4096}, size_t{16}),
                      std::make_tuple(size_t{4096}, size_t{17}),
                      std::make_tuple(size_t{4096}, size_t{100}),
                      std::make_tuple(size_t{4096}, size_t{2048}),
                      std::make_tuple(size_t{4096}, size_t{4080}),
                      std::make_tuple(size_t{4096}, size_t{4095}),
                      std::make_tuple(size_t{4096}, size_t{4096}),
                      std::make_tuple(size_t{4096}, size_t{4097}),
                      std::make_tuple(size_t{65536}, size_t{1000}),
                      std::make_tuple(size_t{65536}, size_t{32768}),
                      std::make_tuple(size_t{65536}, size_t{65536}),
                      std::make_tuple(size_t{65536}, size_t{65537})),
    [](const ::testing::TestParamInfo<std::tuple<size_t, size_t>>& info) {
      return "heap" + std::to_string(std::get<0>(info.param)) + "_block" +
             std::to_string(std::get<1>(info.param));
    });

// Many threads at once: those that get a block get distinct ones within
// the heap, the others get null.
__global__ void EachThreadAllocatesOnce(size_t size,
                                        std::uintptr_t* addresses) {
  void* block = malloc(size);
  addresses[GlobalLinearThread()] = reinterpret_cast<std::uintptr_t>(block);
  __syncthreads();
  free(block);
}

std::string ManyThreadsOverflowTheHeap(unsigned threads, size_t size) {
  size_t capacity = 0;
  std::string problem = SetHeap(4096, &capacity);
  if (!problem.empty()) return problem;
  ManagedArray<std::uintptr_t> addresses(threads, 1);
  if (!addresses.ok()) return "mcMallocManaged failed";
  EachThreadAllocatesOnce<<<1, threads>>>(size, addresses.data());
  const mcError_t synchronized = mcDeviceSynchronize();
  std::ostringstream problems;
  if (synchronized != mcSuccess) {
    problems << "the kernel gave " << ErrorName(synchronized) << "; ";
  }
  unsigned granted = 0;
  for (unsigned t = 0; t < threads; ++t) {
    if (addresses[t] == 1) problems << "thread " << t << " never wrote; ";
    if (addresses[t] != 0 && addresses[t] != 1) ++granted;
  }
  if (granted * size > capacity) {
    problems << granted << " blocks of " << size << " bytes exceed " << capacity
             << "; ";
  }
  if (granted == 0) problems << "no thread got a block; ";
  if (granted == threads) problems << "every thread got a block; ";
  return problems.str();
}

class DeviceHeapContentionTest
    : public ::testing::TestWithParam<std::tuple<unsigned, size_t>> {};

TEST_P(DeviceHeapContentionTest, SomeThreadsGetNullNoneTraps) {
  MX_SPEC("lang.malloc.alloc.null-when-exhausted",
          "lang.malloc.heap.sized-by-limit");
  MX_REQUIRE_CAPABILITY("device_malloc");
  MX_EXPECT_IN_FRESH_PROCESS(ManyThreadsOverflowTheHeap(
      std::get<0>(GetParam()), std::get<1>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(
    Threads, DeviceHeapContentionTest,
    ::testing::Values(std::make_tuple(64u, size_t{128}),
                      std::make_tuple(65u, size_t{64}),
                      std::make_tuple(1024u, size_t{16})),
    [](const ::testing::TestParamInfo<std::tuple<unsigned, size_t>>& info) {
      return "threads" + std::to_string(std::get<0>(info.param)) + "_block" +
             std::to_string(std::get<1>(info.param));
    });

// --- Changing the size after use, and reset. ---

enum PriorUse {
  kNothing,
  kQuietKernel,
  kMallocKernel,
  kFreeNullKernel,
  kMallocThenReset,
};

const char* PriorUseName(int use) {
  switch (use) {
    case kNothing:
      return "Nothing";
    case kQuietKernel:
      return "QuietKernel";
    case kMallocKernel:
      return "MallocKernel";
    case kFreeNullKernel:
      return "FreeNullKernel";
    default:
      return "MallocThenReset";
  }
}

std::string ResizeAfter(int use) {
  ManagedArray<void*> kept(kMaxBlocks, nullptr);
  ManagedArray<int> word(1, 0);
  if (!kept.ok() || !word.ok()) return "mcMallocManaged failed";
  if (use == kQuietKernel) {
    Quiet<<<1, 1>>>(word.data());
    if (mcDeviceSynchronize() != mcSuccess) return "the quiet kernel failed";
  }
  if (use == kMallocKernel || use == kMallocThenReset) {
    ManagedArray<Exhaustion> result(1, Exhaustion{0, 0});
    AllocateUntilNull<<<1, 1>>>(1 << 20, kept.data(), true, result.data());
    if (mcDeviceSynchronize() != mcSuccess) return "the malloc kernel failed";
  }
  if (use == kFreeNullKernel) {
    FreeArgument<<<1, 1>>>(nullptr);
    if (mcDeviceSynchronize() != mcSuccess) return "the free kernel failed";
  }
  if (use == kMallocThenReset && mcDeviceReset() != mcSuccess) {
    return "mcDeviceReset failed";
  }
  // [lang.malloc.heap.resize-after-use-is-invalid-value] A call of free
  // is a use of the heap, even free(NULL).
  return ::mxcts::conformance::CheckResizeAfterPriorUse(
      mcLimitMallocHeapSize, "heap size",
      use == kMallocKernel || use == kFreeNullKernel, PriorUseName(use),
      [](size_t) { return size_t{65536}; });
}

class DeviceHeapResizeTest : public ::testing::TestWithParam<int> {};

TEST_P(DeviceHeapResizeTest, RefusedOnlyAfterAKernelUsedTheHeap) {
  MX_SPEC("lang.malloc.heap.resize-after-use-is-invalid-value",
          "lang.malloc.heap.resize-after-reset",
          "api.device.limit.resize-after-use-is-invalid-value");
  MX_REQUIRE_CAPABILITY("device_malloc");
  MX_EXPECT_IN_FRESH_PROCESS(ResizeAfter(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(PriorUses, DeviceHeapResizeTest,
                         ::testing::Values(kNothing, kQuietKernel,
                                           kMallocKernel, kFreeNullKernel,
                                           kMallocThenReset),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(PriorUseName(info.param));
                         });

// mcDeviceReset releases live blocks: a full heap is empty again after it.
std::string ResetReleasesTheHeap() {
  size_t capacity = 0;
  std::string problem = SetHeap(4096, &capacity);
  if (!problem.empty()) return problem;
  std::ostringstream problems;
  unsigned first_blocks = 0;
  {
    ManagedArray<void*> kept(kMaxBlocks, nullptr);
    if (!kept.ok()) return "mcMallocManaged failed";
    first_blocks = Exhaust(256, &kept, /*free_after=*/false, &problems).blocks;
  }
  if (first_blocks == 0) problems << "no block fit at all; ";
  // [lang.malloc.lifetime.released-by-device-reset]
  if (mcDeviceReset() != mcSuccess) return "mcDeviceReset failed";
  size_t after_reset = 0;
  if (mcDeviceGetLimit(&after_reset, mcLimitMallocHeapSize) != mcSuccess) {
    return "mcDeviceGetLimit failed";
  }
  ManagedArray<void*> kept(kMaxBlocks, nullptr);
  if (!kept.ok()) return "mcMallocManaged after the reset failed";
  const Exhaustion second = Exhaust(256, &kept, /*free_after=*/true, &problems);
  // Whether the reset kept the limit or restored the default, the blocks
  // of before the reset no longer take space.
  if (second.blocks < first_blocks) {
    problems << "after the reset only " << second.blocks << " blocks fit, "
             << first_blocks << " before; ";
  }
  return problems.str();
}

TEST(DeviceHeapLimit, DeviceResetReleasesLiveBlocks) {
  MX_SPEC("lang.malloc.lifetime.released-by-device-reset");
  MX_REQUIRE_CAPABILITY("device_malloc");
  MX_EXPECT_IN_FRESH_PROCESS(ResetReleasesTheHeap());
}

}  // namespace
