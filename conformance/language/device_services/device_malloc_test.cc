// Copyright mxcts authors.
//
// Conformance: device malloc, free, new and delete, and device memcpy and
// memset (docs/spec/lang-device-services.md, "Device heap: malloc and free"
// and "memcpy and memset in device code").
//
// The tests here fit in the default heap and run in one process; those that
// set mcLimitMallocHeapSize or exhaust the heap are in
// device_heap_limit_test.cc. Each thread allocates, fills its block with a
// pattern of its own and checks another thread's block after a barrier:
// overlapping blocks would overwrite each other's pattern, and the host
// checks the addresses for overlap and alignment too. Sizes sit on both
// sides of the 16-byte alignment and of a 4096-byte page.

#include <mc_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "conformance/language/synchronization/device_indices.h"
#include "conformance/language/synchronization/launch_shapes.h"
#include "conformance/language/synchronization/managed_array.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace {

using ::mxcts::conformance::GlobalLinearThread;
using ::mxcts::conformance::LinearBlock;
using ::mxcts::conformance::LinearThread;
using ::mxcts::conformance::ManagedArray;
using ::mxcts::conformance::Shape;
using ::mxcts::conformance::ThreadsPerBlock;

// The byte thread `g` fills its block with.
constexpr __host__ __device__ unsigned char PatternByte(unsigned g) {
  return static_cast<unsigned char>(g * 37 + 11);
}

__device__ bool HoldsPattern(const unsigned char* block, size_t size,
                             unsigned g) {
  for (size_t i = 0; i < size; ++i) {
    if (block[i] != PatternByte(g)) return false;
  }
  return true;
}

// Every thread allocates `size` bytes and fills them; after a barrier it
// checks its successor's block in the block (the successor filled it after
// this thread filled its own), then frees its own.
__global__ void AllocateFillCheckFree(size_t size, std::uintptr_t* addresses,
                                      int* successor_intact) {
  __shared__ unsigned char* blocks[1024];
  const unsigned g = GlobalLinearThread();
  const unsigned t = LinearThread();
  const unsigned n = ThreadsPerBlock();
  unsigned char* mine = static_cast<unsigned char*>(malloc(size));
  addresses[g] = reinterpret_cast<std::uintptr_t>(mine);
  blocks[t] = mine;
  if (mine != nullptr) {
    for (size_t i = 0; i < size; ++i) mine[i] = PatternByte(g);
  }
  __syncthreads();
  const unsigned successor = (t + 1) % n;
  const unsigned char* theirs = blocks[successor];
  successor_intact[g] =
      theirs != nullptr && HoldsPattern(theirs, size, g - t + successor);
  __syncthreads();
  free(mine);
}

// Every thread allocates and fills a block and leaves it live in `slots`.
__global__ void AllocateAndKeep(size_t size, void** slots) {
  const unsigned g = GlobalLinearThread();
  unsigned char* mine = static_cast<unsigned char*>(malloc(size));
  slots[g] = mine;
  if (mine != nullptr) {
    for (size_t i = 0; i < size; ++i) mine[i] = PatternByte(g);
  }
}

// Thread g checks and frees the block that thread total-1-g allocated in an
// earlier kernel, after rewriting it (any thread may write it).
__global__ void CheckAndFreeMirror(size_t size, void** slots, unsigned total,
                                   int* intact) {
  const unsigned g = GlobalLinearThread();
  const unsigned owner = total - 1 - g;
  unsigned char* block = static_cast<unsigned char*>(slots[owner]);
  int ok = block != nullptr && HoldsPattern(block, size, owner);
  if (block != nullptr) {
    for (size_t i = 0; i < size; ++i) block[i] = PatternByte(g);
    ok = ok && HoldsPattern(block, size, g);
  }
  intact[g] = ok;
  free(block);
}

dim3 ToDim3(const Shape& shape) { return dim3(shape.x, shape.y, shape.z); }

// Fails if two of the `size`-byte blocks at addresses[first, first +
// count) overlap, or one is null or not 16-byte aligned. (Blocks of
// different thread blocks may reuse each other's memory: each thread block
// frees its blocks before it ends.)
void ExpectDistinctAlignedBlocks(const ManagedArray<std::uintptr_t>& addresses,
                                 size_t first, size_t count, size_t size) {
  std::vector<std::uintptr_t> sorted(addresses.data() + first,
                                     addresses.data() + first + count);
  for (size_t i = 0; i < sorted.size(); ++i) {
    ASSERT_NE(sorted[i], 0u) << "thread " << first + i << " got null";
    // [lang.malloc.alloc.aligned-to-16]
    ASSERT_EQ(sorted[i] % 16, 0u) << "thread " << first + i;
  }
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 1; i < sorted.size(); ++i) {
    // [lang.malloc.alloc.distinct-blocks]
    ASSERT_GE(sorted[i], sorted[i - 1] + size)
        << "blocks at " << sorted[i - 1] << " and " << sorted[i] << " overlap";
  }
}

// Parameters: the block size in bytes and the block shape; the grid has two
// blocks.
class DeviceMallocTest
    : public ::testing::TestWithParam<std::tuple<size_t, Shape>> {
 protected:
  size_t size() const { return std::get<0>(GetParam()); }
  Shape block() const { return std::get<1>(GetParam()); }
  unsigned total() const { return 2 * block().count(); }
};

TEST_P(DeviceMallocTest, BlocksAreDistinctAlignedAndUsableByOtherThreads) {
  MX_SPEC("lang.malloc.alloc.returns-heap-memory",
          "lang.malloc.alloc.aligned-to-16",
          "lang.malloc.alloc.distinct-blocks",
          "lang.malloc.lifetime.shared-between-threads",
          "lang.malloc.free.returns-memory-to-heap");
  MX_REQUIRE_CAPABILITY("device_malloc");
  ManagedArray<std::uintptr_t> addresses(total(), 0);
  ManagedArray<int> intact(total(), -1);
  ASSERT_TRUE(addresses.ok() && intact.ok());
  AllocateFillCheckFree<<<2, ToDim3(block())>>>(size(), addresses.data(),
                                                intact.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned b = 0; b < 2; ++b) {
    ExpectDistinctAlignedBlocks(addresses, b * block().count(), block().count(),
                                size());
  }
  for (unsigned g = 0; g < total(); ++g) ASSERT_EQ(intact[g], 1) << g;
}

TEST_P(DeviceMallocTest, BlocksOutliveTheKernelUntilFreedByAnyThread) {
  MX_SPEC("lang.malloc.lifetime.persists-across-launches",
          "lang.malloc.lifetime.shared-between-threads",
          "lang.malloc.free.by-any-thread",
          "lang.malloc.free.returns-memory-to-heap");
  MX_REQUIRE_CAPABILITY("device_malloc");
  ManagedArray<void*> slots(total(), nullptr);
  ManagedArray<int> intact(total(), -1);
  ASSERT_TRUE(slots.ok() && intact.ok());
  AllocateAndKeep<<<2, ToDim3(block())>>>(size(), slots.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < total(); ++g) ASSERT_NE(slots[g], nullptr) << g;
  // A later kernel of another shape: one block of all the threads when
  // that is a legal block, else the same shape.
  if (total() <= 1024) {
    CheckAndFreeMirror<<<1, total()>>>(size(), slots.data(), total(),
                                       intact.data());
  } else {
    CheckAndFreeMirror<<<2, ToDim3(block())>>>(size(), slots.data(), total(),
                                               intact.data());
  }
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < total(); ++g) ASSERT_EQ(intact[g], 1) << g;
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, DeviceMallocTest,
    ::testing::Combine(
        ::testing::Values(size_t{1}, size_t{15}, size_t{16}, size_t{17},
                          size_t{4095}, size_t{4096}, size_t{4097}),
        ::testing::Values(Shape{1}, Shape{64}, Shape{65}, Shape{8, 4, 2})),
    [](const ::testing::TestParamInfo<std::tuple<size_t, Shape>>& info) {
      return "bytes" + std::to_string(std::get<0>(info.param)) + "_" +
             std::get<1>(info.param).Name();
    });

// --- free(NULL), malloc(0). ---

// `null` is a null pointer passed in, so the call reaches the device
// runtime (a literal free(NULL) may be compiled away).
__global__ void FreeNull(void* null, int* went_on) {
  free(null);
  went_on[GlobalLinearThread()] = 1;
}

class DeviceFreeNullTest : public ::testing::TestWithParam<Shape> {};

TEST_P(DeviceFreeNullTest, FreeOfNullDoesNothing) {
  MX_SPEC("lang.malloc.free.null-is-no-op");
  MX_REQUIRE_CAPABILITY("device_malloc");
  const unsigned n = GetParam().count();
  ManagedArray<int> went_on(n, 0);
  ASSERT_TRUE(went_on.ok());
  FreeNull<<<1, ToDim3(GetParam())>>>(nullptr, went_on.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned t = 0; t < n; ++t) ASSERT_EQ(went_on[t], 1) << t;
}

INSTANTIATE_TEST_SUITE_P(Shapes, DeviceFreeNullTest,
                         ::testing::Values(Shape{1}, Shape{64}, Shape{65},
                                           Shape{1024}),
                         ::mxcts::conformance::ShapeParamName);

__global__ void MallocZero(std::uintptr_t* addresses) {
  const unsigned g = GlobalLinearThread();
  void* first = malloc(0);
  void* second = malloc(0);
  addresses[2 * g] = reinterpret_cast<std::uintptr_t>(first);
  addresses[2 * g + 1] = reinterpret_cast<std::uintptr_t>(second);
  __syncthreads();
  free(first);
  free(second);
}

TEST(DeviceMalloc, ZeroBytesGivesNullOrAUniqueFreeablePointer) {
  MX_SPEC("lang.malloc.alloc.zero-size");
  MX_REQUIRE_CAPABILITY("device_malloc");
  const unsigned threads = 65;
  ManagedArray<std::uintptr_t> addresses(2 * threads, 1);
  ASSERT_TRUE(addresses.ok());
  MallocZero<<<1, threads>>>(addresses.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  std::vector<std::uintptr_t> live;
  for (unsigned i = 0; i < 2 * threads; ++i) {
    ASSERT_NE(addresses[i], 1u) << "slot " << i << " never written";
    if (addresses[i] != 0) live.push_back(addresses[i]);
  }
  std::sort(live.begin(), live.end());
  EXPECT_TRUE(std::adjacent_find(live.begin(), live.end()) == live.end())
      << "two live zero-byte blocks share an address";
}

// --- new and delete. ---

struct Tracked {
  int value;
  int* destroyed = nullptr;
  __device__ Tracked() : value(42) {}
  __device__ explicit Tracked(int v) : value(v) {}
  __device__ ~Tracked() {
    if (destroyed != nullptr) ++*destroyed;
  }
};

// Thread g makes one object with `new` and an array of `count` with
// `new[]`, and records what the constructors stored.
__global__ void NewObjects(unsigned count, Tracked** singles, Tracked** arrays,
                           int* constructed, int* destroyed) {
  const unsigned g = GlobalLinearThread();
  Tracked* single = new Tracked(static_cast<int>(g));
  Tracked* array = new Tracked[count];
  singles[g] = single;
  arrays[g] = array;
  int ok = single != nullptr && array != nullptr;
  if (ok) {
    ok = single->value == static_cast<int>(g);
    single->destroyed = &destroyed[2 * g];
    for (unsigned i = 0; i < count; ++i) {
      ok = ok && array[i].value == 42;
      array[i].destroyed = &destroyed[2 * g + 1];
    }
  }
  constructed[g] = ok;
}

// Thread g deletes the objects thread total-1-g made in the earlier kernel.
__global__ void DeleteMirrorObjects(unsigned total, Tracked** singles,
                                    Tracked** arrays) {
  const unsigned owner = total - 1 - GlobalLinearThread();
  delete singles[owner];
  delete[] arrays[owner];
}

class DeviceNewDeleteTest
    : public ::testing::TestWithParam<std::tuple<unsigned, unsigned>> {};

TEST_P(DeviceNewDeleteTest, ConstructInOneKernelDestroyInTheNext) {
  MX_SPEC("lang.malloc.new-delete.uses-device-heap",
          "lang.malloc.lifetime.persists-across-launches",
          "lang.malloc.free.by-any-thread");
  MX_REQUIRE_CAPABILITY("device_malloc");
  const unsigned count = std::get<0>(GetParam());
  const unsigned threads = std::get<1>(GetParam());
  ManagedArray<Tracked*> singles(threads, nullptr);
  ManagedArray<Tracked*> arrays(threads, nullptr);
  ManagedArray<int> constructed(threads, -1);
  ManagedArray<int> destroyed(2 * threads, 0);
  ASSERT_TRUE(singles.ok() && arrays.ok() && constructed.ok() &&
              destroyed.ok());
  NewObjects<<<1, threads>>>(count, singles.data(), arrays.data(),
                             constructed.data(), destroyed.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < threads; ++g) {
    ASSERT_EQ(constructed[g], 1) << g;
    // Control: nothing is destroyed before delete.
    ASSERT_EQ(destroyed[2 * g], 0) << g;
    ASSERT_EQ(destroyed[2 * g + 1], 0) << g;
  }
  DeleteMirrorObjects<<<1, threads>>>(threads, singles.data(), arrays.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (unsigned g = 0; g < threads; ++g) {
    EXPECT_EQ(destroyed[2 * g], 1) << g;
    EXPECT_EQ(destroyed[2 * g + 1], static_cast<int>(count)) << g;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Counts, DeviceNewDeleteTest,
    ::testing::Combine(::testing::Values(1u, 2u, 17u, 64u),
                       ::testing::Values(1u, 65u)),
    [](const ::testing::TestParamInfo<std::tuple<unsigned, unsigned>>& info) {
      return "array" + std::to_string(std::get<0>(info.param)) + "_threads" +
             std::to_string(std::get<1>(info.param));
    });

// --- new[] with a count known at run time. ---

// Thread g allocates `count` ints with new[] (the compiler checks a signed
// run-time count before it allocates), fills and sums them, and records the
// sum, or -1 when new[] gave null.
__global__ void NewRuntimeCountArray(int count, long long* sums) {
  const unsigned g = GlobalLinearThread();
  int* values = new int[count];
  if (values == nullptr) {
    sums[g] = -1;
    return;
  }
  long long sum = 0;
  for (int i = 0; i < count; ++i) values[i] = i + static_cast<int>(g);
  for (int i = 0; i < count; ++i) sum += values[i];
  sums[g] = sum;
  delete[] values;
}

TEST(DeviceNewArray, RuntimeCountAllocatesFromTheHeap) {
  MX_SPEC("lang.malloc.new-delete.runtime-array-count",
          "lang.malloc.new-delete.bad-array-length-undefined");
  MX_REQUIRE_CAPABILITY("device_malloc");
  const unsigned threads = 3;
  for (int count : {0, 1, 5, 1000}) {
    ManagedArray<long long> sums(threads, -2);
    ASSERT_TRUE(sums.ok());
    NewRuntimeCountArray<<<1, threads>>>(count, sums.data());
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess) << count;
    for (unsigned g = 0; g < threads; ++g) {
      const long long expected =
          static_cast<long long>(count) * (count - 1) / 2 +
          static_cast<long long>(count) * g;
      EXPECT_EQ(sums[g], expected) << "count " << count << " thread " << g;
    }
  }
}

TEST(DeviceNewArray, RuntimeCountLargerThanTheHeapGivesNull) {
  MX_SPEC("lang.malloc.new-delete.runtime-array-count",
          "lang.malloc.new-delete.uses-device-heap");
  MX_REQUIRE_CAPABILITY("device_malloc");
  size_t heap = 0;
  ASSERT_EQ(mcDeviceGetLimit(&heap, mcLimitMallocHeapSize), mcSuccess);
  // Two billion ints need 8 GB, more than the heap holds.
  ASSERT_LT(heap, size_t{2000000000} * sizeof(int));
  ManagedArray<long long> sums(1, -2);
  ASSERT_TRUE(sums.ok());
  NewRuntimeCountArray<<<1, 1>>>(2000000000, sums.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(sums[0], -1);
}

mcError_t NewNegativeCountArray() {
  ManagedArray<long long> sums(1, -2);
  if (!sums.ok()) return mcErrorMemoryAllocation;
  NewRuntimeCountArray<<<1, 1>>>(-1, sums.data());
  return mcDeviceSynchronize();
}

TEST(DeviceNewArray, NegativeCountTrapsInTheReference) {
  MX_SPEC("lang.malloc.new-delete.bad-array-length-undefined");
  MX_REQUIRE_CAPABILITY("device_malloc");
  // The behaviour is undefined; the trap and its diagnostic are the
  // reference's choice.
  MX_REQUIRE_CAPABILITY("reference_choices");
  // The control is RuntimeCountAllocatesFromTheHeap: counts 0 to 1000 run.
  MX_EXPECT_TRAP(NewNegativeCountArray(), mcErrorLaunchFailure,
                 "kernel '.*NewRuntimeCountArray.*: new\\[\\] with a "
                 "negative or too large element count");
}

// --- The host may not free device-heap memory. ---

__global__ void AllocateOne(size_t size, void** slot) { *slot = malloc(size); }

__global__ void UseAndFree(void** slot, size_t size, int* intact) {
  unsigned char* block = static_cast<unsigned char*>(*slot);
  for (size_t i = 0; i < size; ++i) block[i] = PatternByte(5);
  *intact = HoldsPattern(block, size, 5);
  free(block);
}

TEST(DeviceMalloc, HostMcFreeOfAHeapBlockIsInvalidValueAndKeepsIt) {
  MX_SPEC("lang.malloc.host.mcfree-of-heap-pointer-is-error");
  MX_REQUIRE_CAPABILITY("device_malloc");
  const size_t size = 256;
  ManagedArray<void*> slot(1, nullptr);
  ManagedArray<int> intact(1, -1);
  ASSERT_TRUE(slot.ok() && intact.ok());
  AllocateOne<<<1, 1>>>(size, slot.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_NE(slot[0], nullptr);
  EXPECT_EQ(mcFree(slot[0]), mcErrorInvalidValue);
  EXPECT_EQ(mcGetLastError(), mcErrorInvalidValue);
  // Not sticky, and the block was not released: device code still uses and
  // frees it.
  EXPECT_EQ(mcGetLastError(), mcSuccess);
  UseAndFree<<<1, 1>>>(slot.data(), size, intact.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(intact[0], 1);
  // Control: mcFree of an mcMalloc block succeeds.
  void* ordinary = nullptr;
  ASSERT_EQ(mcMalloc(&ordinary, size), mcSuccess);
  EXPECT_EQ(mcFree(ordinary), mcSuccess);
}

// --- memcpy and memset in device code. ---

// memset and memcpy on global memory and through shared memory; each
// records whether the call returned its destination.
__global__ void CopyAndSet(size_t size, const unsigned char* source,
                           unsigned char* set_out, unsigned char* copy_out,
                           unsigned char* shared_out, int* returned_dst) {
  __shared__ unsigned char staged[4096];
  returned_dst[0] = memset(set_out, 0xa5, size) == set_out;
  returned_dst[1] = memcpy(copy_out, source, size) == copy_out;
  returned_dst[2] = memcpy(staged, source, size) == staged;
  returned_dst[3] = memcpy(shared_out, staged, size) == shared_out;
}

class DeviceMemcpyMemsetTest : public ::testing::TestWithParam<size_t> {};

TEST_P(DeviceMemcpyMemsetTest, CopiesAndFillsExactlyTheBytes) {
  MX_SPEC("lang.malloc.memcpy.copies-bytes", "lang.malloc.memset.fills-bytes");
  const size_t size = GetParam();
  // One guard byte after each destination must stay untouched.
  ManagedArray<unsigned char> source(size + 1, 0);
  ManagedArray<unsigned char> set_out(size + 1, 0x11);
  ManagedArray<unsigned char> copy_out(size + 1, 0x22);
  ManagedArray<unsigned char> shared_out(size + 1, 0x33);
  ManagedArray<int> returned_dst(4, -1);
  ASSERT_TRUE(source.ok() && set_out.ok() && copy_out.ok() && shared_out.ok() &&
              returned_dst.ok());
  for (size_t i = 0; i < size; ++i) {
    source[i] = static_cast<unsigned char>(i * 7 + 1);
  }
  CopyAndSet<<<1, 1>>>(size, source.data(), set_out.data(), copy_out.data(),
                       shared_out.data(), returned_dst.data());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(returned_dst[i], 1) << "call " << i;
  for (size_t i = 0; i < size; ++i) {
    ASSERT_EQ(set_out[i], 0xa5) << i;
    ASSERT_EQ(copy_out[i], source[i]) << i;
    ASSERT_EQ(shared_out[i], source[i]) << i;
  }
  EXPECT_EQ(set_out[size], 0x11);
  EXPECT_EQ(copy_out[size], 0x22);
  EXPECT_EQ(shared_out[size], 0x33);
}

INSTANTIATE_TEST_SUITE_P(Sizes, DeviceMemcpyMemsetTest,
                         ::testing::Values(size_t{0}, size_t{1}, size_t{15},
                                           size_t{16}, size_t{17}, size_t{255},
                                           size_t{4095}, size_t{4096}),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           return "bytes" + std::to_string(info.param);
                         });

}  // namespace
