// Copyright mxcts authors.
//
// Conformance: the errors of sharing pools between processes
// (docs/spec/api-memory-pools.md, "Pools shared between processes"):
// exporting a pool that was not made exportable, importing what is no
// exported pool, exporting what is no allocation of an exportable pool.
// Each beside a control call that succeeds.

#include <fcntl.h>
#include <mc_runtime.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/api/testing/pool_testing.h"
#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

namespace mxcts::conformance {
namespace {

void* AsHandle(int fd) {
  return reinterpret_cast<void*>(static_cast<intptr_t>(fd));
}

// An exportable and a plain pool on the parameter's device.
class SharingErrors : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("memory_pools");
    MX_REQUIRE_CAPABILITY("ipc");
    mcMemPoolProps exportable =
        PoolProps(GetParam(), mcMemHandleTypePosixFileDescriptor);
    ASSERT_EQ(mcMemPoolCreate(&exportable_, &exportable), mcSuccess);
    mcMemPoolProps plain = PoolProps(GetParam(), mcMemHandleTypeNone);
    ASSERT_EQ(mcMemPoolCreate(&plain_, &plain), mcSuccess);
  }
  void TearDown() override {
    mcDeviceSynchronize();
    if (exportable_ != nullptr) mcMemPoolDestroy(exportable_);
    if (plain_ != nullptr) mcMemPoolDestroy(plain_);
  }
  // A descriptor of the exportable pool (control).
  int ExportGood() {
    int fd = -1;
    EXPECT_EQ(mcMemPoolExportToShareableHandle(
                  &fd, exportable_, mcMemHandleTypePosixFileDescriptor, 0),
              mcSuccess);
    EXPECT_GE(fd, 0);
    return fd;
  }

  mcMemPool_t exportable_ = nullptr;
  mcMemPool_t plain_ = nullptr;
};

std::string DeviceName(const testing::TestParamInfo<int>& info) {
  return "Device" + std::to_string(info.param);
}

TEST_P(SharingErrors, ExportOfAPoolWithoutTheHandleTypeIsInvalidValue) {
  MX_SPEC("api.pool.ipc.export-needs-handle-type");
  int fd = -7;
  EXPECT_EQ(mcMemPoolExportToShareableHandle(
                &fd, plain_, mcMemHandleTypePosixFileDescriptor, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(fd, -7);
  close(ExportGood());
}

TEST_P(SharingErrors, ExportAsAnotherHandleTypeIsInvalidValue) {
  MX_SPEC("api.pool.ipc.export-needs-handle-type");
  for (mcMemAllocationHandleType type :
       {mcMemHandleTypeNone, mcMemHandleTypeWin32, mcMemHandleTypeWin32Kmt,
        mcMemHandleTypeFabric}) {
    int fd = -7;
    EXPECT_EQ(mcMemPoolExportToShareableHandle(&fd, exportable_, type, 0),
              mcErrorInvalidValue)
        << type;
    EXPECT_EQ(fd, -7);
  }
  close(ExportGood());
}

TEST_P(SharingErrors, DefaultPoolIsNotExportable) {
  MX_SPEC("api.pool.ipc.default-pool-not-exportable");
  mcMemPool_t default_pool = nullptr;
  ASSERT_EQ(mcDeviceGetDefaultMemPool(&default_pool, GetParam()), mcSuccess);
  int fd = -7;
  EXPECT_EQ(mcMemPoolExportToShareableHandle(
                &fd, default_pool, mcMemHandleTypePosixFileDescriptor, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(fd, -7);
}

TEST_P(SharingErrors, ExportWithNullHandleOrFlagsIsInvalidValue) {
  MX_SPEC("api.pool.ipc.export-needs-handle-type");
  EXPECT_EQ(mcMemPoolExportToShareableHandle(
                nullptr, exportable_, mcMemHandleTypePosixFileDescriptor, 0),
            mcErrorInvalidValue);
  int fd = -7;
  EXPECT_EQ(mcMemPoolExportToShareableHandle(
                &fd, exportable_, mcMemHandleTypePosixFileDescriptor, 1),
            mcErrorInvalidValue);
  EXPECT_EQ(fd, -7);
}

TEST_P(SharingErrors, ImportOfWhatIsNoExportedPoolIsInvalidValue) {
  MX_SPEC("api.pool.ipc.export-import-round-trip");
  int pipe_ends[2];
  ASSERT_EQ(pipe(pipe_ends), 0);
  const int null_device = open("/dev/null", O_RDWR);
  ASSERT_GE(null_device, 0);
  char name[] = "/tmp/mxcts-pool-XXXXXX";
  const int regular = mkstemp(name);
  ASSERT_GE(regular, 0);
  unlink(name);
  ASSERT_EQ(ftruncate(regular, 1 << 16), 0);
  for (int fd : {-1, 9999, pipe_ends[0], null_device, regular}) {
    mcMemPool_t pool = nullptr;
    EXPECT_EQ(mcMemPoolImportFromShareableHandle(
                  &pool, AsHandle(fd), mcMemHandleTypePosixFileDescriptor, 0),
              mcErrorInvalidValue)
        << fd;
    EXPECT_EQ(pool, nullptr);
  }
  close(pipe_ends[0]);
  close(pipe_ends[1]);
  close(null_device);
  close(regular);
}

TEST_P(SharingErrors, ImportWithBadArgumentsIsInvalidValue) {
  MX_SPEC("api.pool.ipc.export-import-round-trip");
  const int fd = ExportGood();
  mcMemPool_t pool = nullptr;
  EXPECT_EQ(mcMemPoolImportFromShareableHandle(
                nullptr, AsHandle(fd), mcMemHandleTypePosixFileDescriptor, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolImportFromShareableHandle(&pool, AsHandle(fd),
                                               mcMemHandleTypeNone, 0),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolImportFromShareableHandle(
                &pool, AsHandle(fd), mcMemHandleTypePosixFileDescriptor, 1),
            mcErrorInvalidValue);
  EXPECT_EQ(pool, nullptr);
  close(fd);
}

TEST_P(SharingErrors, ExportPointerOfForeignMemoryIsInvalidValue) {
  MX_SPEC("api.pool.ipc.export-pointer-foreign-is-invalid-value");
  mcMemPoolPtrExportData data{};
  void* from_plain = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&from_plain, 4096, plain_, nullptr),
            mcSuccess);
  void* from_default = nullptr;
  ASSERT_EQ(mcMallocAsync(&from_default, 4096, nullptr), mcSuccess);
  void* malloced = nullptr;
  ASSERT_EQ(mcMalloc(&malloced, 4096), mcSuccess);
  char* exportable = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&exportable, 4096, exportable_, nullptr),
            mcSuccess);
  int host = 0;
  for (void* ptr :
       {from_plain, from_default, malloced, static_cast<void*>(exportable + 64),
        static_cast<void*>(&host), static_cast<void*>(nullptr)}) {
    EXPECT_EQ(mcMemPoolExportPointer(&data, ptr), mcErrorInvalidValue) << ptr;
  }
  EXPECT_EQ(mcMemPoolExportPointer(nullptr, exportable), mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolExportPointer(&data, exportable), mcSuccess);  // control
  ASSERT_EQ(mcFreeAsync(exportable, nullptr), mcSuccess);
  // A freed allocation is no longer exported.
  EXPECT_EQ(mcMemPoolExportPointer(&data, exportable), mcErrorInvalidValue);
  ASSERT_EQ(mcFreeAsync(from_plain, nullptr), mcSuccess);
  ASSERT_EQ(mcFreeAsync(from_default, nullptr), mcSuccess);
  ASSERT_EQ(mcFree(malloced), mcSuccess);
}

TEST_P(SharingErrors, ImportPointerNeedsAnImportedPoolAndItsData) {
  MX_SPEC("api.pool.ipc.export-pointer");
  void* exported = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&exported, 4096, exportable_, nullptr),
            mcSuccess);
  mcMemPoolPtrExportData data{};
  ASSERT_EQ(mcMemPoolExportPointer(&data, exported), mcSuccess);
  void* ptr = nullptr;
  // A pool of this process that was not imported.
  EXPECT_EQ(mcMemPoolImportPointer(&ptr, exportable_, &data),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolImportPointer(&ptr, plain_, &data), mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolImportPointer(&ptr, nullptr, &data), mcErrorInvalidValue);
  EXPECT_EQ(ptr, nullptr);
  // Null arguments, and data that describes nothing, with an imported pool.
  const int fd = ExportGood();
  mcMemPool_t imported = nullptr;
  ASSERT_EQ(mcMemPoolImportFromShareableHandle(
                &imported, AsHandle(fd), mcMemHandleTypePosixFileDescriptor, 0),
            mcSuccess);
  close(fd);
  EXPECT_EQ(mcMemPoolImportPointer(nullptr, imported, &data),
            mcErrorInvalidValue);
  EXPECT_EQ(mcMemPoolImportPointer(&ptr, imported, nullptr),
            mcErrorInvalidValue);
  mcMemPoolPtrExportData garbage{};
  for (unsigned char& byte : garbage.reserved) byte = 0x5a;
  EXPECT_EQ(mcMemPoolImportPointer(&ptr, imported, &garbage),
            mcErrorInvalidValue);
  mcMemPoolPtrExportData zero{};
  EXPECT_EQ(mcMemPoolImportPointer(&ptr, imported, &zero), mcErrorInvalidValue);
  EXPECT_EQ(ptr, nullptr);
  ASSERT_EQ(mcFreeAsync(exported, nullptr), mcSuccess);
}

TEST_P(SharingErrors, TrimOfAnExportablePoolKeepsLiveAllocations) {
  MX_SPEC("api.pool.ipc.trim-may-be-no-op");
  int* live = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&live, 4096, exportable_, nullptr),
            mcSuccess);
  ASSERT_EQ(mcMemset(live, 0x11, 4096), mcSuccess);
  void* freed = nullptr;
  ASSERT_EQ(mcMallocFromPoolAsync(&freed, 4096, exportable_, nullptr),
            mcSuccess);
  ASSERT_EQ(mcFreeAsync(freed, nullptr), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_EQ(mcMemPoolTrimTo(exportable_, 0), mcSuccess);
  int host[1024] = {};
  ASSERT_EQ(mcMemcpy(host, live, sizeof(host), mcMemcpyDeviceToHost),
            mcSuccess);
  EXPECT_EQ(host[0], 0x11111111);
  EXPECT_EQ(host[1023], 0x11111111);
  ASSERT_EQ(mcFreeAsync(live, nullptr), mcSuccess);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, SharingErrors,
                         testing::ValuesIn(AllDevices()), DeviceName);

}  // namespace
}  // namespace mxcts::conformance
