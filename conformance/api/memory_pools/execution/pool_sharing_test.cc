// Copyright mxcts authors.
//
// Conformance: memory pools shared between processes
// (docs/spec/api-memory-pools.md, "Pools shared between processes"). The
// exporting test exports an exportable pool as a file descriptor and an
// allocation as mcMemPoolPtrExportData, then starts a real child process
// (child_process.h: this test binary again, never a bare fork of a process
// that used the runtime) in one of the roles below, which inherits the
// descriptor and receives the export data over a pipe. The child's exit
// status says whether its checks held; the parent then checks what the
// child wrote. Holds in every timeline mode (the child inherits it).

#include <mc_runtime.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "conformance/api/testing/child_process.h"
#include "conformance/api/testing/pool_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

constexpr int kInts = 5000;

__global__ void Store(int* p, int n, int value) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) p[i] = value + i;
}

__global__ void CountMismatches(const int* p, int n, int value, int* count) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    if (p[i] != value + i) atomicAdd(count, 1);
  }
}

// Mismatches of p[i] == value + i over kInts, counted on the current
// device; -1 if a call fails.
int Mismatches(const int* p, int value) {
  int* count = nullptr;
  if (mcMallocManaged(&count, sizeof(int)) != mcSuccess) return -1;
  *count = 0;
  CountMismatches<<<1, 128>>>(p, kInts, value, count);
  int result = mcDeviceSynchronize() == mcSuccess ? *count : -1;
  mcFree(count);
  return result;
}

// The exporter: an exportable pool on the parameter's device, an
// allocation from it holding the pattern 100 + i, and its export.
class SharedPool : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("memory_pools");
    MX_REQUIRE_CAPABILITY("ipc");
    ASSERT_EQ(mcSetDevice(GetParam()), mcSuccess);
    mcMemPoolProps props =
        PoolProps(GetParam(), mcMemHandleTypePosixFileDescriptor);
    ASSERT_EQ(mcMemPoolCreate(&pool_, &props), mcSuccess);
    ASSERT_EQ(
        mcMallocFromPoolAsync(&data_, kInts * sizeof(int), pool_, nullptr),
        mcSuccess);
    Store<<<1, 128>>>(data_, kInts, 100);
    ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
    ASSERT_EQ(mcMemPoolExportToShareableHandle(
                  &fd_, pool_, mcMemHandleTypePosixFileDescriptor, 0),
              mcSuccess);
    ASSERT_GE(fd_, 0);
    ASSERT_EQ(mcMemPoolExportPointer(&export_, data_), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (fd_ >= 0) close(fd_);
    if (data_ != nullptr) mcFreeAsync(data_, nullptr);
    mcDeviceSynchronize();
    if (pool_ != nullptr) mcMemPoolDestroy(pool_);
    mcSetDevice(0);
  }
  // Runs child role `role` with the exported pool and allocation; its
  // exit status.
  int Child(const std::string& role) {
    ChildProcess child(role, "fd=" + std::to_string(fd_) +
                                 ";device=" + std::to_string(GetParam()));
    if (!child.started()) return -1;
    child.Send(ToHex(export_));
    return child.Wait();
  }

  mcMemPool_t pool_ = nullptr;
  int* data_ = nullptr;
  int fd_ = -1;
  mcMemPoolPtrExportData export_{};
};

std::string DeviceName(const testing::TestParamInfo<int>& info) {
  return "Device" + std::to_string(info.param);
}

TEST_P(SharedPool, ChildReadsAndWritesTheSameMemory) {
  MX_SPEC("api.pool.ipc.export-import-round-trip",
          "api.pool.ipc.export-pointer");
  EXPECT_EQ(Child("PoolReadsThenWrites200"), 0);
  EXPECT_EQ(Mismatches(data_, 200), 0);
  // Control: the pattern before the child is gone, so the check can fail.
  EXPECT_EQ(Mismatches(data_, 100), kInts);
}

TEST_P(SharedPool, ImportedPoolIsAccessibleFromItsDeviceOnly) {
  MX_SPEC("api.pool.ipc.imported-pool-resident-access-only");
  if (DeviceCount() > 1) {
    // Access given here is not inherited by the importer.
    mcMemAccessDesc desc{
        {mcMemLocationTypeDevice, (GetParam() + 1) % DeviceCount()},
        mcMemAccessFlagsProtReadWrite};
    ASSERT_EQ(mcMemPoolSetAccess(pool_, &desc, 1), mcSuccess);
  }
  EXPECT_EQ(Child("PoolHasResidentAccessOnly"), 0);
}

TEST_P(SharedPool, ImportedPoolCannotBeAllocatedFrom) {
  MX_SPEC("api.pool.ipc.no-allocation-from-imported-pool");
  EXPECT_EQ(Child("PoolCannotAllocate"), 0);
}

TEST_P(SharedPool, ImporterFreeLeavesTheExportersAllocation) {
  MX_SPEC("api.pool.ipc.import-side-frees-first");
  EXPECT_EQ(Child("PoolReadsThenWrites200"), 0);
  // The child freed its view; here the allocation lives on.
  Store<<<1, 128>>>(data_, kInts, 300);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(Mismatches(data_, 300), 0);
}

TEST_P(SharedPool, CrashedImporterLeavesTheMemoryIntact) {
  MX_SPEC("api.pool.ipc.export-import-round-trip");
  const int status = Child("PoolImportsThenAborts");
  EXPECT_NE(status, 0);  // it did crash
  EXPECT_EQ(Mismatches(data_, 100), 0);
  Store<<<1, 128>>>(data_, kInts, 400);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(Mismatches(data_, 400), 0);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, SharedPool,
                         testing::ValuesIn(AllDevices()), DeviceName);

// The child side: each role imports the pool whose descriptor it
// inherited ("fd=N;device=D") and the allocation whose export data the
// parent sends, and returns "" if its checks held.

// Imports the pool; "" or the problem.
std::string ImportPool(const std::string& argument, mcMemPool_t* pool,
                       int* device) {
  *device = static_cast<int>(ChildArgument(argument, "device", -1));
  const long fd = ChildArgument(argument, "fd", -1);
  if (mcSetDevice(*device) != mcSuccess) return "mcSetDevice failed";
  if (mcMemPoolImportFromShareableHandle(
          pool, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
          mcMemHandleTypePosixFileDescriptor, 0) != mcSuccess) {
    return "mcMemPoolImportFromShareableHandle failed";
  }
  return "";
}

// Imports the pool and the allocation the parent sends.
std::string ImportAllocation(LineChannel& parent, const std::string& argument,
                             mcMemPool_t* pool, int* device, int** data) {
  std::string problem = ImportPool(argument, pool, device);
  if (!problem.empty()) return problem;
  mcMemPoolPtrExportData exported{};
  if (!FromHex(parent.Receive(), &exported)) return "no export data";
  if (mcMemPoolImportPointer(reinterpret_cast<void**>(data), *pool,
                             &exported) != mcSuccess) {
    return "mcMemPoolImportPointer failed";
  }
  return "";
}

MX_CHILD_ROLE(PoolReadsThenWrites200) {
  mcMemPool_t pool = nullptr;
  int device = -1;
  int* data = nullptr;
  std::string problem =
      ImportAllocation(parent, argument, &pool, &device, &data);
  if (!problem.empty()) return problem;
  mcPointerAttribute_t attributes{};
  if (mcPointerGetAttributes(&attributes, data) != mcSuccess ||
      attributes.type != mcMemoryTypeDevice || attributes.device != device) {
    return "the imported allocation is not device memory of its device";
  }
  if (Mismatches(data, 100) != 0) return "the exporter's data is not there";
  Store<<<1, 128>>>(data, kInts, 200);
  if (mcDeviceSynchronize() != mcSuccess) return "the store failed";
  if (mcFreeAsync(data, nullptr) != mcSuccess) return "mcFreeAsync failed";
  if (mcDeviceSynchronize() != mcSuccess) return "the free failed";
  return "";
}

MX_CHILD_ROLE(PoolHasResidentAccessOnly) {
  mcMemPool_t pool = nullptr;
  int device = -1;
  std::string problem = ImportPool(argument, &pool, &device);
  if (!problem.empty()) return problem;
  for (int other = 0; other < DeviceCount(); ++other) {
    mcMemAccessFlags flags = mcMemAccessFlagsProtRead;
    mcMemLocation location{mcMemLocationTypeDevice, other};
    if (mcMemPoolGetAccess(&flags, pool, &location) != mcSuccess) {
      return "mcMemPoolGetAccess failed";
    }
    const mcMemAccessFlags expected = other == device
                                          ? mcMemAccessFlagsProtReadWrite
                                          : mcMemAccessFlagsProtNone;
    if (flags != expected) {
      return "device " + std::to_string(other) + " has access " +
             std::to_string(flags);
    }
    if (other != device) {
      // Control: the importer grants access itself.
      mcMemAccessDesc desc{location, mcMemAccessFlagsProtReadWrite};
      if (mcMemPoolSetAccess(pool, &desc, 1) != mcSuccess ||
          mcMemPoolGetAccess(&flags, pool, &location) != mcSuccess ||
          flags != mcMemAccessFlagsProtReadWrite) {
        return "the importer cannot grant access";
      }
    }
  }
  return "";
}

MX_CHILD_ROLE(PoolCannotAllocate) {
  mcMemPool_t pool = nullptr;
  int device = -1;
  int* data = nullptr;
  std::string problem =
      ImportAllocation(parent, argument, &pool, &device, &data);
  if (!problem.empty()) return problem;
  void* p = nullptr;
  if (mcMallocFromPoolAsync(&p, 256, pool, nullptr) != mcErrorInvalidValue) {
    return "mcMallocFromPoolAsync from the imported pool did not fail";
  }
  if (mcDeviceSetMemPool(device, pool) != mcErrorInvalidValue) {
    return "mcDeviceSetMemPool with the imported pool did not fail";
  }
  mcMemPool_t current = nullptr;
  if (mcDeviceGetMemPool(&current, device) != mcSuccess || current == pool) {
    return "the imported pool became current";
  }
  // Control: the imported allocation itself is usable and freed.
  if (Mismatches(data, 100) != 0) return "the exporter's data is not there";
  if (mcFree(data) != mcSuccess) return "mcFree of the import failed";
  return "";
}

MX_CHILD_ROLE(PoolImportsThenAborts) {
  mcMemPool_t pool = nullptr;
  int device = -1;
  int* data = nullptr;
  std::string problem =
      ImportAllocation(parent, argument, &pool, &device, &data);
  if (!problem.empty()) return problem;
  std::abort();  // without freeing or closing anything
}

}  // namespace
}  // namespace mxcts::conformance
