// Copyright mxcts authors.
//
// Conformance: memory pools shared between processes
// (docs/spec/api-memory-pools.md, "Pools shared between processes"). The
// exporting test exports an exportable pool as a file descriptor and an
// allocation as mcMemPoolPtrExportData, then starts a real child process:
// this test binary again (exec, never a bare fork of a process that used
// the runtime), running one of the DISABLED_ child tests below, with the
// descriptor inherited and the export data in its environment. The child's
// exit status says whether its checks held; the parent then checks what
// the child wrote. Holds in every timeline mode (the child inherits it).

#include <mc_runtime.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "conformance/testing/capabilities.h"
#include "conformance/testing/spec.h"

extern char** environ;

namespace mxcts::conformance {
namespace {

constexpr int kInts = 5000;
constexpr char kFdVariable[] = "MXCTS_TEST_POOL_FD";
constexpr char kDataVariable[] = "MXCTS_TEST_POOL_POINTER";
constexpr char kDeviceVariable[] = "MXCTS_TEST_POOL_DEVICE";

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

std::string Hex(const void* bytes, size_t size) {
  std::string text;
  char digits[3];
  for (size_t i = 0; i < size; ++i) {
    std::snprintf(digits, sizeof(digits), "%02x",
                  static_cast<const unsigned char*>(bytes)[i]);
    text += digits;
  }
  return text;
}

bool FromHex(const char* text, void* bytes, size_t size) {
  if (text == nullptr || std::strlen(text) != 2 * size) return false;
  for (size_t i = 0; i < size; ++i) {
    unsigned value = 0;
    if (std::sscanf(text + 2 * i, "%2x", &value) != 1) return false;
    static_cast<unsigned char*>(bytes)[i] = static_cast<unsigned char>(value);
  }
  return true;
}

// Runs DISABLED_ test `child` of this binary in a new process with
// `variables` added to the environment (the descriptors without
// close-on-exec stay open in it); returns its exit status, or -1.
int RunChild(const std::string& child,
             const std::vector<std::string>& variables) {
  std::vector<std::string> arguments = {"/proc/self/exe",
                                        "--gtest_filter=*" + child,
                                        "--gtest_also_run_disabled_tests"};
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  std::vector<std::string> environment;
  for (char** each = environ; *each != nullptr; ++each) {
    const std::string entry = *each;
    // The child's results are its exit status, not a second XML report.
    if (entry.rfind("GTEST_OUTPUT=", 0) == 0 ||
        entry.rfind("XML_OUTPUT_FILE=", 0) == 0) {
      continue;
    }
    environment.push_back(entry);
  }
  environment.insert(environment.end(), variables.begin(), variables.end());
  std::vector<char*> envp;
  for (std::string& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(),
                  envp.data()) != 0) {
    return -1;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int DeviceCount() {
  int count = 0;
  if (mcGetDeviceCount(&count) != mcSuccess) return 1;
  return count;
}

std::vector<int> AllDevices() {
  std::vector<int> devices;
  for (int device = 0; device < DeviceCount(); ++device) {
    devices.push_back(device);
  }
  return devices;
}

mcMemPoolProps ExportableProps(int device) {
  mcMemPoolProps props{};
  props.allocType = mcMemAllocationTypePinned;
  props.handleTypes = mcMemHandleTypePosixFileDescriptor;
  props.location.type = mcMemLocationTypeDevice;
  props.location.id = device;
  return props;
}

// The exporter: an exportable pool on the parameter's device, an
// allocation from it holding the pattern 100 + i, and its export.
class SharedPool : public testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    MX_REQUIRE_CAPABILITY("memory_pools");
    MX_REQUIRE_CAPABILITY("ipc");
    ASSERT_EQ(mcSetDevice(GetParam()), mcSuccess);
    mcMemPoolProps props = ExportableProps(GetParam());
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
  // Runs child test `child` with the exported pool and allocation.
  int Child(const std::string& child) {
    return RunChild(
        child,
        {std::string(kFdVariable) + "=" + std::to_string(fd_),
         std::string(kDataVariable) + "=" + Hex(&export_, sizeof(export_)),
         std::string(kDeviceVariable) + "=" + std::to_string(GetParam())});
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
  EXPECT_EQ(Child("PoolChild.DISABLED_ReadsThenWrites200"), 0);
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
  EXPECT_EQ(Child("PoolChild.DISABLED_HasResidentAccessOnly"), 0);
}

TEST_P(SharedPool, ImportedPoolCannotBeAllocatedFrom) {
  MX_SPEC("api.pool.ipc.no-allocation-from-imported-pool");
  EXPECT_EQ(Child("PoolChild.DISABLED_CannotAllocate"), 0);
}

TEST_P(SharedPool, ImporterFreeLeavesTheExportersAllocation) {
  MX_SPEC("api.pool.ipc.import-side-frees-first");
  EXPECT_EQ(Child("PoolChild.DISABLED_ReadsThenWrites200"), 0);
  // The child freed its view; here the allocation lives on.
  Store<<<1, 128>>>(data_, kInts, 300);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(Mismatches(data_, 300), 0);
}

TEST_P(SharedPool, CrashedImporterLeavesTheMemoryIntact) {
  MX_SPEC("api.pool.ipc.export-import-round-trip");
  const int status = Child("PoolChild.DISABLED_ImportsThenAborts");
  EXPECT_NE(status, 0);  // it did crash
  EXPECT_EQ(Mismatches(data_, 100), 0);
  Store<<<1, 128>>>(data_, kInts, 400);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  EXPECT_EQ(Mismatches(data_, 400), 0);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, SharedPool,
                         testing::ValuesIn(AllDevices()), DeviceName);

// The child side. Each test runs only in a child that RunChild started.
class PoolChild : public testing::Test {
 protected:
  void SetUp() override {
    const char* fd = std::getenv(kFdVariable);
    const char* device = std::getenv(kDeviceVariable);
    ASSERT_NE(fd, nullptr);
    ASSERT_NE(device, nullptr);
    device_ = std::atoi(device);
    ASSERT_EQ(mcSetDevice(device_), mcSuccess);
    ASSERT_TRUE(FromHex(std::getenv(kDataVariable), &export_, sizeof(export_)));
    ASSERT_EQ(mcMemPoolImportFromShareableHandle(
                  &pool_,
                  reinterpret_cast<void*>(static_cast<intptr_t>(std::atoi(fd))),
                  mcMemHandleTypePosixFileDescriptor, 0),
              mcSuccess);
  }

  int device_ = 0;
  mcMemPool_t pool_ = nullptr;
  mcMemPoolPtrExportData export_{};
};

TEST_F(PoolChild, DISABLED_ReadsThenWrites200) {
  MX_SPEC("api.pool.ipc.export-import-round-trip");
  int* data = nullptr;
  ASSERT_EQ(
      mcMemPoolImportPointer(reinterpret_cast<void**>(&data), pool_, &export_),
      mcSuccess);
  mcPointerAttribute_t attributes{};
  ASSERT_EQ(mcPointerGetAttributes(&attributes, data), mcSuccess);
  EXPECT_EQ(attributes.type, mcMemoryTypeDevice);
  EXPECT_EQ(attributes.device, device_);
  EXPECT_EQ(Mismatches(data, 100), 0);
  Store<<<1, 128>>>(data, kInts, 200);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
  ASSERT_EQ(mcFreeAsync(data, nullptr), mcSuccess);
  ASSERT_EQ(mcDeviceSynchronize(), mcSuccess);
}

TEST_F(PoolChild, DISABLED_HasResidentAccessOnly) {
  MX_SPEC("api.pool.ipc.imported-pool-resident-access-only");
  for (int device = 0; device < DeviceCount(); ++device) {
    mcMemAccessFlags flags = mcMemAccessFlagsProtRead;
    mcMemLocation location{mcMemLocationTypeDevice, device};
    ASSERT_EQ(mcMemPoolGetAccess(&flags, pool_, &location), mcSuccess);
    EXPECT_EQ(flags, device == device_ ? mcMemAccessFlagsProtReadWrite
                                       : mcMemAccessFlagsProtNone);
    if (device != device_) {
      // Control: the importer grants access itself.
      mcMemAccessDesc desc{location, mcMemAccessFlagsProtReadWrite};
      ASSERT_EQ(mcMemPoolSetAccess(pool_, &desc, 1), mcSuccess);
      ASSERT_EQ(mcMemPoolGetAccess(&flags, pool_, &location), mcSuccess);
      EXPECT_EQ(flags, mcMemAccessFlagsProtReadWrite);
    }
  }
}

TEST_F(PoolChild, DISABLED_CannotAllocate) {
  MX_SPEC("api.pool.ipc.no-allocation-from-imported-pool");
  void* p = nullptr;
  EXPECT_EQ(mcMallocFromPoolAsync(&p, 256, pool_, nullptr),
            mcErrorInvalidValue);
  EXPECT_EQ(mcDeviceSetMemPool(device_, pool_), mcErrorInvalidValue);
  mcMemPool_t current = nullptr;
  ASSERT_EQ(mcDeviceGetMemPool(&current, device_), mcSuccess);
  EXPECT_NE(current, pool_);
  // Control: importing the allocation works.
  ASSERT_EQ(mcMemPoolImportPointer(&p, pool_, &export_), mcSuccess);
  ASSERT_EQ(mcFree(p), mcSuccess);
}

TEST_F(PoolChild, DISABLED_ImportsThenAborts) {
  MX_SPEC("api.pool.ipc.export-import-round-trip");
  int* data = nullptr;
  ASSERT_EQ(
      mcMemPoolImportPointer(reinterpret_cast<void**>(&data), pool_, &export_),
      mcSuccess);
  std::abort();  // without freeing or closing anything
}

}  // namespace
}  // namespace mxcts::conformance
