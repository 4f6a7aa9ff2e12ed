// Copyright mxcts authors.
//
// Tests of the memory entry points: validation (errors for bad calls, which
// change nothing) and execution (results of good calls).

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "mc_runtime.h"

namespace {

class Memory : public testing::Test {
 protected:
  void SetUp() override {
    mcSetDevice(0);
    mcGetLastError();
  }
  void TearDown() override {
    mcSetDevice(0);
    mcGetLastError();
  }
};

// --- mcMalloc / mcFree. ---

TEST_F(Memory, MallocNullOutputIsInvalidValue) {
  EXPECT_EQ(mcMalloc(nullptr, 16), mcErrorInvalidValue);
}

TEST_F(Memory, MallocTooMuchIsMemoryAllocationAndNotSticky) {
  // [api.memory.malloc.out-of-memory]
  // [api.memory.malloc.out-of-memory-not-sticky]
  mcDeviceProp_t prop;
  mcGetDeviceProperties(&prop, 0);
  void* p = reinterpret_cast<void*>(0x1);
  EXPECT_EQ(mcMalloc(&p, prop.totalGlobalMem + 1), mcErrorMemoryAllocation);
  EXPECT_EQ(mcMalloc(&p, SIZE_MAX), mcErrorMemoryAllocation);
  EXPECT_EQ(mcGetLastError(), mcErrorMemoryAllocation);
  EXPECT_EQ(mcMalloc(&p, 16), mcSuccess);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

TEST_F(Memory, MallocSizeZeroGivesNull) {
  void* p = reinterpret_cast<void*>(0x1);
  EXPECT_EQ(mcMalloc(&p, 0), mcSuccess);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

TEST_F(Memory, MallocIsAlignedUsableAndTyped) {
  // [api.memory.malloc.alignment-256] [api.memory.malloc.typed-overload]
  float* f = nullptr;
  ASSERT_EQ(mcMalloc(&f, 100 * sizeof(float)), mcSuccess);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(f) % 256, 0u);
  f[99] = 1.5f;
  EXPECT_EQ(mcFree(f), mcSuccess);
}

TEST_F(Memory, DevicesHaveDistinctAddressRanges) {
  // [api.memory.uva.devices-have-distinct-ranges]
  void* on0 = nullptr;
  void* on1 = nullptr;
  ASSERT_EQ(mcMalloc(&on0, 64), mcSuccess);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcMalloc(&on1, 64), mcSuccess);
  uintptr_t a = reinterpret_cast<uintptr_t>(on0);
  uintptr_t b = reinterpret_cast<uintptr_t>(on1);
  EXPECT_GT(a > b ? a - b : b - a, uintptr_t{1} << 30);
  // [api.memory.free.any-current-device]
  EXPECT_EQ(mcFree(on0), mcSuccess);
  EXPECT_EQ(mcFree(on1), mcSuccess);
}

TEST_F(Memory, FreeRejectsWhatIsNotAnAllocationStart) {
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, 64), mcSuccess);
  int on_stack = 0;
  EXPECT_EQ(mcFree(&on_stack), mcErrorInvalidValue);
  EXPECT_EQ(mcFree(static_cast<char*>(p) + 4), mcErrorInvalidValue);
  void* host = nullptr;
  ASSERT_EQ(mcMallocHost(&host, 64), mcSuccess);
  EXPECT_EQ(mcFree(host),
            mcErrorInvalidValue);   // [api.memory.free.non-device-pointer]
  EXPECT_EQ(mcFree(p), mcSuccess);  // still live after the failures
  EXPECT_EQ(mcFree(p), mcErrorInvalidValue);  // [api.memory.free.double-free]
  EXPECT_EQ(mcFreeHost(host), mcSuccess);
}

TEST_F(Memory, DriverStyleDeviceptrWorksEverywhere) {
  // [api.memory.malloc.deviceptr-form]
  mcDeviceptr_t d;
  ASSERT_EQ(mcMalloc(&d, 4 * sizeof(int)), mcSuccess);
  int in[4] = {1, 2, 3, 4}, out[4] = {};
  EXPECT_EQ(mcMemcpyHtoD(d, in, sizeof(in)), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);  // the copy may be queued
  EXPECT_EQ(reinterpret_cast<int*>(d)[2], 3);
  EXPECT_EQ(mcMemcpyDtoH(out, d, sizeof(out)), mcSuccess);
  EXPECT_EQ(out[3], 4);
  // [api.memory.memcpy-driver.invalid-device-pointer]
  EXPECT_EQ(mcMemcpyHtoD(out, in, sizeof(in)), mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpyDtoH(out, d, sizeof(in) + 1), mcErrorInvalidValue);
  EXPECT_EQ(mcFree(d), mcSuccess);
}

// --- Managed and host memory. ---

TEST_F(Memory, ManagedValidation) {
  int* p = nullptr;
  EXPECT_EQ(mcMallocManaged(&p, 0), mcErrorInvalidValue);
  EXPECT_EQ(mcMallocManaged(&p, 16, 0), mcErrorInvalidValue);
  EXPECT_EQ(mcMallocManaged(&p, 16, mcMemAttachGlobal | mcMemAttachHost),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMallocManaged(static_cast<void**>(nullptr), 16),
            mcErrorInvalidValue);
  EXPECT_EQ(p, nullptr);
}

TEST_F(Memory, ManagedIsUsableEverywhereAndFreedWithMcFree) {
  int* p = nullptr;
  ASSERT_EQ(mcMallocManaged(&p, 64 * sizeof(int)), mcSuccess);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 256, 0u);
  p[0] = 5;  // host access
  int out = 0;
  EXPECT_EQ(mcMemcpy(&out, p, sizeof(int), mcMemcpyDeviceToHost), mcSuccess);
  EXPECT_EQ(out, 5);
  EXPECT_EQ(mcMemset(p, 0, sizeof(int)), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);  // the set may be queued
  EXPECT_EQ(p[0], 0);
  // [api.memory.managed.released-by-mcfree]
  EXPECT_EQ(mcFreeHost(p), mcErrorInvalidValue);
  EXPECT_EQ(mcFree(p), mcSuccess);
  int* attached_to_host = nullptr;
  EXPECT_EQ(mcMallocManaged(&attached_to_host, 8, mcMemAttachHost), mcSuccess);
  EXPECT_EQ(mcFree(attached_to_host), mcSuccess);
}

TEST_F(Memory, MallocHostValidation) {
  void* p = nullptr;
  EXPECT_EQ(mcMallocHost(static_cast<void**>(nullptr), 16),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMallocHost(&p, 16, 0x8), mcErrorInvalidValue);
  EXPECT_EQ(p, nullptr);
  int on_stack = 0;
  EXPECT_EQ(mcFreeHost(&on_stack), mcErrorInvalidValue);
  EXPECT_EQ(mcFreeHost(nullptr), mcSuccess);
}

TEST_F(Memory, MallocHostAcceptsEveryFlagCombination) {
  // [api.memory.malloc-host.flags-combinable]
  // [api.memory.malloc-host.typed-overload]
  for (unsigned flags = 0; flags < 8; ++flags) {
    double* p = nullptr;
    ASSERT_EQ(mcMallocHost(&p, 4 * sizeof(double), flags), mcSuccess) << flags;
    p[3] = 1.0;
    EXPECT_EQ(mcFreeHost(p), mcSuccess);
  }
  char* two_argument = nullptr;
  ASSERT_EQ(mcMallocHost(&two_argument, 1), mcSuccess);
  EXPECT_EQ(mcFreeHost(two_argument), mcSuccess);
  void* empty = reinterpret_cast<void*>(0x1);
  EXPECT_EQ(mcMallocHost(&empty, 0), mcSuccess);  // documented: NULL
  EXPECT_EQ(empty, nullptr);
}

// --- Copies and sets. ---

TEST_F(Memory, CopyRoundTripInEveryKind) {
  int* d = nullptr;
  int* h = nullptr;
  ASSERT_EQ(mcMalloc(&d, 16 * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcMallocHost(&h, 16 * sizeof(int)), mcSuccess);
  std::vector<int> in(16), out(16);
  for (int i = 0; i < 16; ++i) in[i] = i * i;
  EXPECT_EQ(mcMemcpy(h, in.data(), 64, mcMemcpyHostToHost), mcSuccess);
  EXPECT_EQ(mcMemcpy(d, h, 64, mcMemcpyHostToDevice), mcSuccess);
  EXPECT_EQ(mcMemcpy(d + 8, d, 32, mcMemcpyDeviceToDevice), mcSuccess);
  EXPECT_EQ(mcMemcpy(out.data(), d, 64, mcMemcpyDefault), mcSuccess);
  EXPECT_EQ(out[15], 49);
  EXPECT_EQ(out[3], 9);
  mcFree(d);
  mcFreeHost(h);
}

TEST_F(Memory, CopyValidation) {
  int* d = nullptr;
  ASSERT_EQ(mcMalloc(&d, 16), mcSuccess);
  char host[32] = {};
  EXPECT_EQ(mcMemcpy(d, host, 16, static_cast<mcMemcpyKind>(7)),
            mcErrorInvalidMemcpyDirection);
  EXPECT_EQ(mcMemcpy(nullptr, host, 16, mcMemcpyHostToDevice),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpy(host, host + 16, 16, mcMemcpyHostToDevice),
            mcErrorInvalidValue);  // pageable device side
  EXPECT_EQ(mcMemcpy(d, host, 17, mcMemcpyHostToDevice), mcErrorInvalidValue);
  EXPECT_EQ(mcMemcpy(nullptr, nullptr, 0, mcMemcpyHostToDevice), mcSuccess);
  EXPECT_EQ(mcMemcpy(d, host, 16, mcMemcpyHostToDevice), mcSuccess);
  mcFree(d);
  // [api.memory.lifetime.freed-pointer-in-api]
  EXPECT_EQ(mcMemcpy(host, d, 16, mcMemcpyDeviceToHost), mcErrorInvalidValue);
}

TEST_F(Memory, AsyncCopyAndSetCheckTheStream) {
  int* d = nullptr;
  ASSERT_EQ(mcMalloc(&d, 16), mcSuccess);
  int host[4] = {1, 2, 3, 4};
  EXPECT_EQ(mcMemcpyAsync(d, host, 16, mcMemcpyHostToDevice), mcSuccess);
  mcStream_t stream = nullptr;
  ASSERT_EQ(mcStreamCreate(&stream), mcSuccess);
  EXPECT_EQ(mcMemsetAsync(d, 0, 4, stream), mcSuccess);
  EXPECT_EQ(mcStreamSynchronize(stream), mcSuccess);
  EXPECT_EQ(d[0], 0);
  EXPECT_EQ(d[1], 2);
  ASSERT_EQ(mcStreamDestroy(stream), mcSuccess);
  // [api.memory.memcpy-async.invalid-stream]
  // [api.memory.memset-async.invalid-stream]
  EXPECT_EQ(mcMemcpyAsync(d, host, 16, mcMemcpyHostToDevice, stream),
            mcErrorInvalidResourceHandle);
  EXPECT_EQ(mcMemsetAsync(d, 0, 16, stream), mcErrorInvalidResourceHandle);
  EXPECT_EQ(d[1], 2);  // nothing ran
  // [api.memory.memcpy-async.any-device-stream]
  mcSetDevice(1);
  mcStream_t on1 = nullptr;
  ASSERT_EQ(mcStreamCreate(&on1), mcSuccess);
  mcSetDevice(0);
  EXPECT_EQ(mcMemcpyAsync(d, host, 16, mcMemcpyHostToDevice, on1), mcSuccess);
  mcStreamDestroy(on1);
  mcFree(d);
}

TEST_F(Memory, SetValidation) {
  unsigned char* d = nullptr;
  ASSERT_EQ(mcMalloc(&d, 8), mcSuccess);
  EXPECT_EQ(mcMemset(d, 0x1ab, 8), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(d[7], 0xab);
  char host[8];
  EXPECT_EQ(mcMemset(host, 0, 8), mcErrorInvalidValue);
  EXPECT_EQ(mcMemset(d, 0, 9), mcErrorInvalidValue);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(d[0], 0xab);
  EXPECT_EQ(mcMemset(nullptr, 0, 0), mcSuccess);
  mcFree(d);
}

// --- The reference's implementation-defined answers. ---

TEST_F(Memory, PitchIsWidthRoundedUpTo256) {
  // [api.memory.malloc-pitch.row-alignment]
  // [api.memory.malloc-pitch.zero-extent]
  void* p = nullptr;
  size_t pitch = 0;
  ASSERT_EQ(mcMallocPitch(&p, &pitch, 1, 3), mcSuccess);
  EXPECT_EQ(pitch, 256u);
  EXPECT_EQ(mcFree(p), mcSuccess);
  ASSERT_EQ(mcMallocPitch(&p, &pitch, 257, 2), mcSuccess);
  EXPECT_EQ(pitch, 512u);
  EXPECT_EQ(mcFree(p), mcSuccess);
  p = reinterpret_cast<void*>(0x1);
  ASSERT_EQ(mcMallocPitch(&p, &pitch, 300, 0), mcSuccess);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(pitch, 512u);
  ASSERT_EQ(mcMallocPitch(&p, &pitch, 0, 5), mcSuccess);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(pitch, 0u);
  EXPECT_EQ(mcMallocPitch(&p, &pitch, SIZE_MAX - 10, 1),
            mcErrorMemoryAllocation);
  mcPitchedPtr pp = make_mcPitchedPtr(reinterpret_cast<void*>(0x1), 0, 0, 0);
  ASSERT_EQ(mcMalloc3D(&pp, make_mcExtent(10, 2, 0)), mcSuccess);
  EXPECT_EQ(pp.ptr, nullptr);
  EXPECT_EQ(pp.pitch, 256u);
  EXPECT_EQ(pp.xsize, 10u);
  EXPECT_EQ(pp.ysize, 2u);
}

TEST_F(Memory, PointerAttributesOfEveryKind) {
  // [api.memory.pointer-attributes.device-memory-host-pointer]: the pointer
  // [api.memory.pointer-attributes.unregistered]: device -2, host pointer
  char* d = nullptr;
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcMalloc(&d, 64), mcSuccess);
  mcPointerAttribute_t a;
  ASSERT_EQ(mcPointerGetAttributes(&a, d + 5), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeDevice);
  EXPECT_EQ(a.memoryType, mcMemoryTypeDevice);
  EXPECT_EQ(a.device, 1);
  EXPECT_EQ(a.devicePointer, d + 5);
  EXPECT_EQ(a.hostPointer, d + 5);
  EXPECT_EQ(a.isManaged, 0);
  int on_stack = 0;
  ASSERT_EQ(mcPointerGetAttributes(&a, &on_stack), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeUnregistered);
  EXPECT_EQ(a.device, mcInvalidDeviceId);
  EXPECT_EQ(a.devicePointer, nullptr);
  EXPECT_EQ(a.hostPointer, &on_stack);
  ASSERT_EQ(mcFree(d), mcSuccess);
  ASSERT_EQ(mcPointerGetAttributes(&a, d), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeUnregistered);
  EXPECT_EQ(mcPointerGetAttributes(nullptr, &on_stack), mcErrorInvalidValue);
}

TEST_F(Memory, RegistrationRejectsRuntimeMemoryLiveOrReleased) {
  // [api.memory.host-register.device-memory]
  // [api.memory.host-register.already-registered]
  char* d = nullptr;
  ASSERT_EQ(mcMalloc(&d, 64), mcSuccess);
  EXPECT_EQ(mcHostRegister(d, 64, 0), mcErrorInvalidValue);
  ASSERT_EQ(mcFree(d), mcSuccess);
  EXPECT_EQ(mcHostRegister(d, 64, 0), mcErrorInvalidValue);
  char* h = nullptr;
  ASSERT_EQ(mcMallocHost(&h, 64), mcSuccess);
  EXPECT_EQ(mcHostRegister(h + 8, 8, 0), mcErrorHostMemoryAlreadyRegistered);
  EXPECT_EQ(mcFreeHost(h), mcSuccess);
  std::vector<char> mine(128);
  ASSERT_EQ(mcHostRegister(mine.data(), 64, mcHostRegisterMapped), mcSuccess);
  EXPECT_EQ(mcHostRegister(mine.data() + 63, 2, 0),
            mcErrorHostMemoryAlreadyRegistered);
  EXPECT_EQ(mcHostRegister(mine.data() + 64, 64, 0), mcSuccess);  // adjacent
  EXPECT_EQ(mcHostRegister(mine.data(), 8, mcHostRegisterIoMemory),
            mcErrorNotSupported);
  EXPECT_EQ(mcHostUnregister(mine.data() + 64), mcSuccess);
  EXPECT_EQ(mcHostUnregister(mine.data()), mcSuccess);
  EXPECT_EQ(mcHostUnregister(mine.data()), mcErrorHostMemoryNotRegistered);
}

TEST_F(Memory, DeviceResetEndsRegistrationsAndAllocations) {
  // [api.memory.lifetime.released-by-device-reset]
  std::vector<char> mine(64);
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  ASSERT_EQ(mcHostRegister(mine.data(), mine.size(), 0), mcSuccess);
  void* d = nullptr;
  ASSERT_EQ(mcMalloc(&d, 64), mcSuccess);
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  mcPointerAttribute_t a;
  ASSERT_EQ(mcPointerGetAttributes(&a, mine.data()), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeUnregistered);
  ASSERT_EQ(mcPointerGetAttributes(&a, d), mcSuccess);
  EXPECT_EQ(a.type, mcMemoryTypeUnregistered);
}

TEST_F(Memory, MemGetInfoCountsDeviceAllocationsExactly) {
  // [api.memory.get-info.allocation-reduces-free]
  size_t free_before = 0, total = 0, free_after = 0;
  ASSERT_EQ(mcMemGetInfo(&free_before, &total), mcSuccess);
  void* d = nullptr;
  ASSERT_EQ(mcMalloc(&d, 1000), mcSuccess);
  ASSERT_EQ(mcMemGetInfo(&free_after, &total), mcSuccess);
  EXPECT_EQ(free_before - free_after, 1000u);
  ASSERT_EQ(mcFree(d), mcSuccess);
  ASSERT_EQ(mcMemGetInfo(&free_after, &total), mcSuccess);
  EXPECT_EQ(free_after, free_before);
}

}  // namespace
