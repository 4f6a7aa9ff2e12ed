// Copyright mxcts authors.
//
// Conformance: the memory spaces a program names and their scope and
// lifetime (docs/spec/model.md, "Memory model"): global memory shared by
// every grid, constant memory read-only in device code, shared memory per
// block, private memory per thread, managed memory at one address, and
// device variables of which each device has its own instance.
//
// Each rule has a control beside it: a variant that breaks what the check
// looks for (a block that stores a wrong value, a space shared where the
// rule wants it private), which the same check must reject.

#include <mc_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/managed_buffer.h"
#include "conformance/testing/spec.h"
#include "conformance/testing/trap_expectation.h"

namespace mxcts::conformance {
namespace {

// --- Global memory: every thread of every grid, kept between launches. ---

__device__ unsigned g_words[256];

// Thread i of the grid stores a word derived from `seed` in both spaces.
__global__ void StoreWords(unsigned* allocation, unsigned seed) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  allocation[i] = seed * 31 + i;
  g_words[i] = seed * 17 + i;
}

// Every thread of the grid checks every word and counts what is wrong.
__global__ void CheckWords(const unsigned* allocation, unsigned seed,
                           unsigned* wrong) {
  for (unsigned i = 0; i < 256; ++i) {
    if (allocation[i] != seed * 31 + i || g_words[i] != seed * 17 + i) {
      atomicAdd(wrong, 1u);
    }
  }
}

// Stores with one grid, then checks for the words of `checked_seed` with
// two later grids, one on another stream; returns the number of wrong
// reads.
unsigned StoreThenRead(unsigned stored_seed, unsigned checked_seed) {
  unsigned* allocation = nullptr;
  EXPECT_EQ(mcMalloc(&allocation, 256 * sizeof(unsigned)), mcSuccess);
  ManagedBuffer<unsigned> wrong(1, 0);
  mcStream_t other = nullptr;
  EXPECT_EQ(mcStreamCreate(&other), mcSuccess);
  StoreWords<<<4, 64>>>(allocation, stored_seed);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  CheckWords<<<3, 32, 0, other>>>(allocation, checked_seed, wrong.get());
  CheckWords<<<2, 64>>>(allocation, checked_seed, wrong.get());
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  mcStreamDestroy(other);
  mcFree(allocation);
  return wrong[0];
}

TEST(GlobalMemory, EveryGridSeesWhatAnEarlierGridStored) {
  MX_SPEC("model.memory.global-visible-to-all-grids");
  EXPECT_EQ(StoreThenRead(5, 5), 0u);
}

TEST(GlobalMemory, ControlOtherValuesAreCaught) {
  MX_SPEC("model.memory.global-visible-to-all-grids");
  EXPECT_EQ(StoreThenRead(5, 6), (3u * 32 + 2 * 64) * 256);
}

// --- Constant memory: read by every thread, set from the host. ---

__constant__ int c_table[64] = {1, 2, 3, 4, 5, 6, 7, 8};

__global__ void SumTable(int* sums) {
  int sum = 0;
  for (int i = 0; i < 64; ++i) sum += c_table[i] * (i + 1);
  sums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Every thread's weighted sum of c_table, as the host computes it.
int WeightedSum(const std::vector<int>& table) {
  int sum = 0;
  for (int i = 0; i < 64; ++i) sum += table[i] * (i + 1);
  return sum;
}

TEST(ConstantMemory, EveryThreadReadsTheInitializerThenHostWrites) {
  MX_SPEC("model.memory.constant-read-only-in-device-code");
  std::vector<int> table(64, 0);
  for (int i = 0; i < 8; ++i) table[i] = i + 1;
  ManagedBuffer<int> sums(2 * 96, 0xff);
  SumTable<<<2, 96>>>(sums.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < 2 * 96; ++i) ASSERT_EQ(sums[i], WeightedSum(table));
  for (int i = 0; i < 64; ++i) table[i] = 3 * i - 50;
  ASSERT_EQ(mcMemcpyToSymbol(c_table, table.data(), 64 * sizeof(int)),
            mcSuccess);
  SumTable<<<2, 96>>>(sums.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < 2 * 96; ++i) EXPECT_EQ(sums[i], WeightedSum(table));
}

__global__ void WriteTable(int value) {
  *const_cast<volatile int*>(
      reinterpret_cast<const volatile int*>(&c_table[3])) = value;
}

mcError_t WriteConstant() {
  WriteTable<<<1, 1>>>(9);
  return mcDeviceSynchronize();
}

// The reference traps on a device-side write to constant memory
// (lang.ub.memory.constant-write); reading it (above) runs.
TEST(ConstantMemory, DeviceWriteTrapsOnTheReference) {
  MX_SPEC("model.memory.constant-read-only-in-device-code",
          "lang.ub.memory.constant-write");
  MX_EXPECT_TRAP(WriteConstant(), mcErrorIllegalAddress, "c_table");
}

// --- Shared memory: one per block, seen by all of its threads. ---

// Thread 0 of each block stores the block's id (plus `skew` in block 1,
// the control) in the block's shared variable; after a barrier every thread
// reports what it sees.
__global__ void SeeSharedId(unsigned* seen, unsigned skew) {
  __shared__ unsigned id;
  if (threadIdx.x == 0) id = blockIdx.x + (blockIdx.x == 1 ? skew : 0);
  __syncthreads();
  seen[blockIdx.x * blockDim.x + threadIdx.x] = id;
}

// The number of threads that saw something other than their block's id.
unsigned SharedMismatches(unsigned skew) {
  const unsigned blocks = 9;
  const unsigned threads = 80;
  ManagedBuffer<unsigned> seen(blocks * threads, 0xff);
  SeeSharedId<<<blocks, threads>>>(seen.get(), skew);
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  unsigned wrong = 0;
  for (unsigned i = 0; i < blocks * threads; ++i) {
    if (seen[i] != i / threads) ++wrong;
  }
  return wrong;
}

TEST(SharedMemory, EachBlockSeesOnlyItsOwnStore) {
  MX_SPEC("model.memory.shared-per-block");
  EXPECT_EQ(SharedMismatches(0), 0u);
}

TEST(SharedMemory, ControlWrongStoreInOneBlockIsCaught) {
  MX_SPEC("model.memory.shared-per-block");
  EXPECT_EQ(SharedMismatches(7), 80u);
}

// --- Private memory: one per thread. ---

// Each thread adds its id to a counter, private or (the control) shared
// by the block, meets the others at a barrier, and reports the counter.
// The shared counter takes the additions atomically; the private one by a
// plain addition, since an atomic on an automatic variable is undefined
// [lang.atomic.address.local-memory-undefined].
__global__ void Accumulate(bool shared_counter, unsigned* seen) {
  __shared__ unsigned block_counter;
  unsigned private_counter = 0;
  if (threadIdx.x == 0) block_counter = 0;
  __syncthreads();
  unsigned* counter = shared_counter ? &block_counter : &private_counter;
  if (shared_counter) {
    atomicAdd(&block_counter, threadIdx.x + 1);
  } else {
    private_counter += threadIdx.x + 1;
  }
  __syncthreads();
  seen[blockIdx.x * blockDim.x + threadIdx.x] = *counter;
}

// The number of threads whose counter held something else than their own
// contribution.
unsigned PrivateMismatches(bool shared_counter) {
  const unsigned blocks = 3;
  const unsigned threads = 100;
  ManagedBuffer<unsigned> seen(blocks * threads, 0xff);
  Accumulate<<<blocks, threads>>>(shared_counter, seen.get());
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  unsigned wrong = 0;
  for (unsigned i = 0; i < blocks * threads; ++i) {
    if (seen[i] != i % threads + 1) ++wrong;
  }
  return wrong;
}

TEST(PrivateMemory, EachThreadSeesOnlyItsOwnVariable) {
  MX_SPEC("model.memory.private-per-thread");
  EXPECT_EQ(PrivateMismatches(false), 0u);
}

TEST(PrivateMemory, ControlSharedCounterMixesThreads) {
  MX_SPEC("model.memory.private-per-thread");
  EXPECT_EQ(PrivateMismatches(true), 3u * 100);
}

// --- Managed memory: one address for host and device. ---

__global__ void Negate(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = -data[i];
}

__managed__ int m_value = 11;

__global__ void TouchManaged(int* allocation, std::uintptr_t* addresses) {
  addresses[0] = reinterpret_cast<std::uintptr_t>(allocation);
  *allocation = *allocation * 2 + 1;
  m_value = m_value * 3;
}

TEST(ManagedMemory, HostAndDeviceUseTheSameObject) {
  MX_SPEC("model.memory.managed-single-address");
  MX_REQUIRE_CAPABILITY("managed_memory");
  ManagedBuffer<int> allocation(1, 0);
  ManagedBuffer<std::uintptr_t> addresses(2, 0);
  allocation[0] = 20;
  m_value = 7;
  TouchManaged<<<1, 1>>>(allocation.get(), addresses.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(addresses[0], reinterpret_cast<std::uintptr_t>(allocation.get()));
  EXPECT_EQ(allocation[0], 41);
  EXPECT_EQ(m_value, 21);
  // The host's address of the variable works in device code too.
  Negate<<<1, 1>>>(&m_value, 1);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(m_value, -21);
}

// The address device code takes of a __managed__ variable is the host's,
// and one grid that writes through one and reads through the other sees
// its own write.
__global__ void ManagedVariableAddress(int* host_address,
                                       std::uintptr_t* address, int* seen) {
  *address = reinterpret_cast<std::uintptr_t>(&m_value);
  *host_address = 5;
  *seen = *static_cast<volatile int*>(&m_value);
}

TEST(ManagedMemory, ManagedVariableHasOneAddress) {
  MX_SPEC("model.memory.managed-single-address");
  MX_REQUIRE_CAPABILITY("managed_memory");
  ManagedBuffer<std::uintptr_t> address(1, 0);
  ManagedBuffer<int> seen(1, 0xff);
  m_value = 1;
  ManagedVariableAddress<<<1, 1>>>(&m_value, address.get(), seen.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(address[0], reinterpret_cast<std::uintptr_t>(&m_value));
  EXPECT_EQ(seen[0], 5);
  EXPECT_EQ(m_value, 5);
}

TEST(ManagedMemory, ControlDeviceMemoryIsNotChangedThroughAHostCopy) {
  MX_SPEC("model.memory.managed-single-address");
  // The same kernel on device memory that the host changed only in its
  // own copy: the device works on what was copied, not on the host copy.
  int* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, sizeof(int)), mcSuccess);
  ManagedBuffer<std::uintptr_t> addresses(2, 0);
  int host = 20;
  ASSERT_EQ(mcMemcpy(device, &host, sizeof(int), mcMemcpyHostToDevice),
            mcSuccess);
  host = 5;
  TouchManaged<<<1, 1>>>(device, addresses.get());
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_NE(addresses[0], reinterpret_cast<std::uintptr_t>(&host));
  EXPECT_EQ(host, 5);
  ASSERT_EQ(mcMemcpy(&host, device, sizeof(int), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(host, 41);
  mcFree(device);
}

// --- Host and device memory. ---

TEST(AddressSpaces, DeviceAllocationIsDeviceMemoryReachedByCopies) {
  MX_SPEC("model.memory.host-and-device-address-spaces");
  const int n = 1000;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = i * 7 - 300;
  int* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, n * sizeof(int)), mcSuccess);
  mcPointerAttributes attributes{};
  ASSERT_EQ(mcPointerGetAttributes(&attributes, device), mcSuccess);
  EXPECT_EQ(attributes.type, mcMemoryTypeDevice);
  ASSERT_EQ(
      mcMemcpy(device, host.data(), n * sizeof(int), mcMemcpyHostToDevice),
      mcSuccess);
  Negate<<<(n + 127) / 128, 128>>>(device, n);
  std::vector<int> back(n, 0);
  ASSERT_EQ(
      mcMemcpy(back.data(), device, n * sizeof(int), mcMemcpyDeviceToHost),
      mcSuccess);
  for (int i = 0; i < n; ++i) ASSERT_EQ(back[i], -host[i]) << i;
  mcFree(device);
}

TEST(AddressSpaces, ControlHostMemoryIsNotDeviceMemory) {
  MX_SPEC("model.memory.host-and-device-address-spaces");
  std::vector<int> host(4, 0);
  mcPointerAttributes attributes{};
  ASSERT_EQ(mcPointerGetAttributes(&attributes, host.data()), mcSuccess);
  EXPECT_NE(attributes.type, mcMemoryTypeDevice);
}

// Whether host code may dereference a device allocation is
// implementation-defined; an implementation that reports a host pointer
// for device memory (the reference reports the allocation itself) must
// make the device's data readable and writable through it once the
// writing work is synchronized.
TEST(AddressSpaces, HostPointerOfDeviceMemoryReachesTheData) {
  MX_SPEC("model.memory.host-and-device-address-spaces");
  const int n = 256;
  int* device = nullptr;
  ASSERT_EQ(mcMalloc(&device, n * sizeof(int)), mcSuccess);
  mcPointerAttributes attributes{};
  ASSERT_EQ(mcPointerGetAttributes(&attributes, device), mcSuccess);
  int* host = static_cast<int*>(attributes.hostPointer);
  if (host == nullptr) {
    mcFree(device);
    GTEST_SKIP() << "unsupported: host code does not reach device memory "
                    "on this implementation";
  }
  ASSERT_EQ(mcMemset(device, 0, n * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) host[i] = i + 1;
  Negate<<<(n + 127) / 128, 128>>>(device, n);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  for (int i = 0; i < n; ++i) ASSERT_EQ(host[i], -(i + 1)) << i;
  mcFree(device);
}

// --- Device variables: one instance per device. ---

__device__ int d_per_device = 7;
__constant__ int c_per_device = 8;

__global__ void ReadPerDevice(int* out) {
  out[0] = d_per_device;
  out[1] = c_per_device;
}

// What a kernel on `device` reads from the two variables.
std::vector<int> ReadOn(int device) {
  EXPECT_EQ(mcSetDevice(device), mcSuccess);
  ManagedBuffer<int> out(2, 0xff);
  ReadPerDevice<<<1, 1>>>(out.get());
  EXPECT_EQ(mcDeviceSynchronize(), mcSuccess);
  return {out[0], out[1]};
}

void WriteOn(int device, int device_value, int constant_value) {
  EXPECT_EQ(mcSetDevice(device), mcSuccess);
  EXPECT_EQ(mcMemcpyToSymbol(d_per_device, &device_value, sizeof(int)),
            mcSuccess);
  EXPECT_EQ(mcMemcpyToSymbol(c_per_device, &constant_value, sizeof(int)),
            mcSuccess);
}

TEST(PerDeviceVariables, WritingOneDeviceLeavesTheOtherAlone) {
  MX_SPEC("model.memory.distinct-object-per-device");
  MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
  const std::vector<int> initial_1 = ReadOn(1);
  WriteOn(0, 100, 200);
  EXPECT_EQ(ReadOn(1), initial_1);
  WriteOn(1, 300, 400);
  EXPECT_EQ(ReadOn(0), (std::vector<int>{100, 200}));
  EXPECT_EQ(ReadOn(1), (std::vector<int>{300, 400}));
  mcSetDevice(0);
}

TEST(PerDeviceVariables, ControlWritingTheSameDeviceIsSeen) {
  MX_SPEC("model.memory.distinct-object-per-device");
  WriteOn(0, 500, 600);
  EXPECT_EQ(ReadOn(0), (std::vector<int>{500, 600}));
}

}  // namespace
}  // namespace mxcts::conformance
