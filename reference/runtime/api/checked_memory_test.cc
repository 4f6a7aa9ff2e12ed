// Copyright mxcts authors.
//
// Tests of checked device memory, run with MXCTS_MEMCHECK=1 (see BUILD):
// the layout every allocation API gets (the end touching a guard page,
// guard pages before, freed memory inaccessible and never reused), what the
// fault classifier says about each kind of bad address, and, end to end on
// the engine, a kernel that writes one element past the end of an
// allocation, beside its in-bounds control.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "mc_runtime.h"
#include "reference/device/engine.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/testing/runtime_testing.h"
#include "reference/runtime/traps/fault_classifier.h"

namespace {

using mxcts::device::FaultDescription;
using mxcts::runtime::ClassifyRuntimeFault;

// Whether one byte at `address` can be read, found without touching it.
bool Readable(uintptr_t address) {
  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) return false;
  const bool readable =
      write(pipe_ends[1], reinterpret_cast<const void*>(address), 1) == 1;
  close(pipe_ends[0]);
  close(pipe_ends[1]);
  return readable;
}

// The classifier's text for `address`, or "(none)".
std::string Classify(uintptr_t address) {
  FaultDescription description;
  if (!ClassifyRuntimeFault(address, &description)) return "(none)";
  EXPECT_EQ(description.error, mcErrorIllegalAddress);
  return description.message;
}

std::string Hex(uintptr_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%llx",
                static_cast<unsigned long long>(value));
  return text;
}

class CheckedMemory : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(mcSetDevice(0), mcSuccess);
    ASSERT_TRUE(mxcts::runtime::MemoryManager::Get().checked_mode())
        << "this test runs with MXCTS_MEMCHECK=1";
  }
};

enum class Api { kMalloc, kMallocManaged, kMallocHost };

struct Case {
  Api api;
  size_t size;
  const char* kind;  // the allocation's kind, as diagnostics name it
};

void* Allocate(const Case& c) {
  void* p = nullptr;
  mcError_t error = mcSuccess;
  switch (c.api) {
    case Api::kMalloc:
      error = mcMalloc(&p, c.size);
      break;
    case Api::kMallocManaged:
      error = mcMallocManaged(&p, c.size);
      break;
    case Api::kMallocHost:
      error = mcMallocHost(&p, c.size);
      break;
  }
  EXPECT_EQ(error, mcSuccess);
  return p;
}

mcError_t Free(const Case& c, void* p) {
  return c.api == Api::kMallocHost ? mcFreeHost(p) : mcFree(p);
}

class CheckedAllocation : public CheckedMemory,
                          public testing::WithParamInterface<Case> {};

TEST_P(CheckedAllocation, EndTouchesTheGuardPage) {
  const Case& c = GetParam();
  const uintptr_t p = reinterpret_cast<uintptr_t>(Allocate(c));
  const size_t rounded = (c.size + 255) / 256 * 256;
  EXPECT_EQ(p % 256, 0u);  // [api.memory.malloc.alignment-256]
  EXPECT_TRUE(Readable(p + c.size - 1));
  EXPECT_FALSE(Readable(p + rounded));
  EXPECT_EQ(Free(c, reinterpret_cast<void*>(p)), mcSuccess);
}

TEST_P(CheckedAllocation, ClassifierExplainsTheGuardPages) {
  // [lang.ub.memory.out-of-bounds-global]
  const Case& c = GetParam();
  const uintptr_t p = reinterpret_cast<uintptr_t>(Allocate(c));
  const size_t rounded = (c.size + 255) / 256 * 256;
  const std::string allocation = " of the " + std::to_string(c.size) +
                                 "-byte allocation at " + Hex(p) + ")";
  EXPECT_EQ(Classify(p + rounded), "out-of-bounds access at " +
                                       Hex(p + rounded) + " (" +
                                       std::to_string(rounded - c.size) +
                                       " bytes past the end" + allocation);
  const uintptr_t before = p / 4096 * 4096 - 8;
  EXPECT_EQ(Classify(before), "out-of-bounds access at " + Hex(before) + " (" +
                                  std::to_string(p - before) +
                                  " bytes before the start" + allocation);
  EXPECT_EQ(Free(c, reinterpret_cast<void*>(p)), mcSuccess);
}

TEST_P(CheckedAllocation, FreedMemoryFaultsAndIsNotReused) {
  // [lang.ub.memory.use-after-free]
  const Case& c = GetParam();
  const uintptr_t p = reinterpret_cast<uintptr_t>(Allocate(c));
  ASSERT_EQ(Free(c, reinterpret_cast<void*>(p)), mcSuccess);
  EXPECT_FALSE(Readable(p));
  EXPECT_EQ(Classify(p + 1), "use of freed " + std::string(c.kind) + " at " +
                                 Hex(p + 1) + " (byte 1 of the " +
                                 std::to_string(c.size) +
                                 "-byte allocation at " + Hex(p) + ")");
  const uintptr_t again = reinterpret_cast<uintptr_t>(Allocate(c));
  EXPECT_NE(again, p);
  EXPECT_TRUE(Readable(again));
  EXPECT_EQ(Free(c, reinterpret_cast<void*>(again)), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(
    Apis, CheckedAllocation,
    testing::Values(Case{Api::kMalloc, 256, "device memory"},
                    Case{Api::kMalloc, 1000, "device memory"},
                    Case{Api::kMalloc, 65536, "device memory"},
                    Case{Api::kMallocManaged, 512, "managed memory"},
                    Case{Api::kMallocManaged, 3000, "managed memory"},
                    Case{Api::kMallocHost, 256, "page-locked host memory"},
                    Case{Api::kMallocHost, 5000, "page-locked host memory"}));

TEST_F(CheckedMemory, AddressesOutsideTheArenasAreNotExplained) {
  int local = 0;
  EXPECT_EQ(Classify(reinterpret_cast<uintptr_t>(&local)), "(none)");
  EXPECT_EQ(Classify(16), "(none)");
}

// --- End to end: a kernel on the engine. ---

// data[index] = 42, by thread 0.
void WriteAtEntry(void** args) {
  int* data = *static_cast<int**>(args[0]);
  const int index = *static_cast<int*>(args[1]);
  if (threadIdx.x == 0) data[index] = 42;
}
void write_at(int*, int) {}
const unsigned kSizes[] = {sizeof(int*), sizeof(int)};
const unsigned kAlignments[] = {alignof(int*), alignof(int)};
const __mc_internal::KernelRecord write_at_record = {
    "constexpr const char* __mc_internal::KernelKey() [with Sig = void "
    "(*)(int*, int); Sig F = write_at]",
    &WriteAtEntry,
    2,
    kSizes,
    kAlignments,
    0,
    0,
    0,
    nullptr};
const bool write_at_registered =
    (mxcts::runtime_testing::RegisterKernelRecord(
         reinterpret_cast<const void*>(&write_at), &write_at_record),
     true);

class CheckedKernel : public CheckedMemory {
 protected:
  void TearDown() override {
    mcDeviceReset();
    mcGetLastError();
  }
  // Launches write_at(data, index) and returns what synchronizing says;
  // `diagnostic` gets stderr up to the end of the synchronization (the
  // kernel may run only then).
  mcError_t WriteAt(int* data, int index, std::string* diagnostic) {
    void* args[] = {&data, &index};
    testing::internal::CaptureStderr();
    EXPECT_EQ(mcLaunchKernel(reinterpret_cast<const void*>(&write_at), dim3(1),
                             dim3(4), args),
              mcSuccess);
    const mcError_t result = mcDeviceSynchronize();
    *diagnostic = testing::internal::GetCapturedStderr();
    return result;
  }
};

TEST_F(CheckedKernel, WriteOnePastTheEndTraps) {
  // [lang.ub.memory.out-of-bounds-global] [api.trap.error.illegal-address]
  int* data = nullptr;
  ASSERT_EQ(mcMalloc(&data, 64 * sizeof(int)), mcSuccess);
  std::string diagnostic;
  EXPECT_EQ(WriteAt(data, 64, &diagnostic), mcErrorIllegalAddress);
  const uintptr_t end = reinterpret_cast<uintptr_t>(data + 64);
  EXPECT_NE(diagnostic.find("kernel 'write_at' block (0,0,0) thread (0,0,0): "
                            "out-of-bounds access at " +
                            Hex(end) +
                            " (0 bytes past the end of the 256-byte "
                            "allocation at " +
                            Hex(reinterpret_cast<uintptr_t>(data)) + ")\n"),
            std::string::npos)
      << diagnostic;
}

TEST_F(CheckedKernel, WriteToTheLastElementRuns) {
  int* data = nullptr;
  ASSERT_EQ(mcMalloc(&data, 64 * sizeof(int)), mcSuccess);
  std::string diagnostic;
  EXPECT_EQ(WriteAt(data, 63, &diagnostic), mcSuccess) << diagnostic;
  int value = 0;
  ASSERT_EQ(mcMemcpy(&value, data + 63, sizeof(int), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(value, 42);
  EXPECT_EQ(mcFree(data), mcSuccess);
}

TEST_F(CheckedKernel, WriteAfterFreeTraps) {
  // [lang.ub.memory.use-after-free]
  int* data = nullptr;
  ASSERT_EQ(mcMalloc(&data, 64 * sizeof(int)), mcSuccess);
  ASSERT_EQ(mcFree(data), mcSuccess);
  std::string diagnostic;
  EXPECT_EQ(WriteAt(data, 3, &diagnostic), mcErrorIllegalAddress);
  EXPECT_NE(diagnostic.find("use of freed device memory at " +
                            Hex(reinterpret_cast<uintptr_t>(data + 3))),
            std::string::npos)
      << diagnostic;
}

}  // namespace
