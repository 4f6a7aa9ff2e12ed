// Copyright mxcts authors.
//
// Tests of exporting: the pages move onto a memory file without changing
// address or contents, one handle per allocation, the file goes with the
// allocation, and only mcMalloc memory exports.

#include "reference/runtime/ipc/memory_exports.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <limits.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "mc_runtime_api.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/memory/memory_manager.h"

namespace mxcts::runtime {
namespace {

std::string LinkOf(int fd) {
  char target[PATH_MAX];
  ssize_t n = readlink(absl::StrCat("/proc/self/fd/", fd).c_str(), target,
                       sizeof target - 1);
  return n < 0 ? "" : std::string(target, static_cast<size_t>(n));
}

// The path column of the line of /proc/self/maps whose range holds
// `address` ("" for anonymous memory).
std::string MappingOf(const void* address) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  const uintptr_t a = reinterpret_cast<uintptr_t>(address);
  while (std::getline(maps, line)) {
    uintptr_t begin = 0, end = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &begin, &end) != 2) continue;
    if (a < begin || a >= end) continue;
    size_t slash = line.find('/');
    return slash == std::string::npos ? "" : line.substr(slash);
  }
  return "";
}

TEST(Export, KeepsAddressAndContentsAndSharesTheFile) {
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, 10000), mcSuccess);
  std::memset(p, 0x3c, 10000);
  absl::StatusOr<MemHandleFields> fields = MemoryExports::Get().Export(p);
  ASSERT_TRUE(fields.ok()) << fields.status();
  EXPECT_TRUE(MemoryExports::Get().IsExported(p));
  EXPECT_EQ(static_cast<unsigned char*>(p)[9999], 0x3c);
  EXPECT_EQ(fields->size, 10000u);
  EXPECT_EQ(fields->file_size % 4096, 0u);
  EXPECT_EQ(fields->pid, getpid());
  EXPECT_EQ(LinkOf(fields->fd),
            absl::StrCat("/memfd:",
                         MemoryExports::FileName(getpid(), fields->generation),
                         " (deleted)"));
  // A write through the allocation is in the file, and the reverse.
  static_cast<unsigned char*>(p)[0] = 0x11;
  unsigned char byte = 0;
  ASSERT_EQ(pread(fields->fd, &byte, 1, fields->offset), 1);
  EXPECT_EQ(byte, 0x11);
  byte = 0x22;
  ASSERT_EQ(pwrite(fields->fd, &byte, 1, fields->offset + 1), 1);
  EXPECT_EQ(static_cast<unsigned char*>(p)[1], 0x22);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

TEST(Export, OneHandlePerAllocationFromAnyInteriorAddress) {
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, 3000), mcSuccess);
  absl::StatusOr<MemHandleFields> first = MemoryExports::Get().Export(p);
  absl::StatusOr<MemHandleFields> inside =
      MemoryExports::Get().Export(static_cast<char*>(p) + 2999);
  ASSERT_TRUE(first.ok() && inside.ok());
  EXPECT_TRUE(*first == *inside);
  EXPECT_EQ(mcFree(p), mcSuccess);
}

TEST(Export, FreeClosesTheFileAndTheNextExportIsNew) {
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, 4096), mcSuccess);
  absl::StatusOr<MemHandleFields> old_fields = MemoryExports::Get().Export(p);
  ASSERT_TRUE(old_fields.ok());
  ASSERT_EQ(mcFree(p), mcSuccess);
  EXPECT_FALSE(MemoryExports::Get().IsExported(p));
  EXPECT_NE(LinkOf(old_fields->fd).rfind("/memfd:mxcts-ipc-mem-", 0), 0u);
  void* again = nullptr;
  ASSERT_EQ(mcMalloc(&again, 4096), mcSuccess);
  absl::StatusOr<MemHandleFields> new_fields =
      MemoryExports::Get().Export(again);
  ASSERT_TRUE(new_fields.ok());
  EXPECT_NE(new_fields->generation, old_fields->generation);
  EXPECT_EQ(mcFree(again), mcSuccess);
}

TEST(Export, ReleasedPagesAreNoLongerTheFile) {
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, 4096), mcSuccess);
  ASSERT_TRUE(MemoryExports::Get().Export(p).ok());
  EXPECT_NE(MappingOf(p).find("/memfd:mxcts-ipc-mem-"), std::string::npos);
  ASSERT_EQ(mcFree(p), mcSuccess);
  // The arena's own anonymous pages again.
  EXPECT_EQ(MappingOf(p).find("memfd"), std::string::npos) << MappingOf(p);
}

TEST(Export, DeviceResetEndsTheExport) {
  ASSERT_EQ(mcSetDevice(1), mcSuccess);
  void* p = nullptr;
  ASSERT_EQ(mcMalloc(&p, 4096), mcSuccess);
  absl::StatusOr<MemHandleFields> fields = MemoryExports::Get().Export(p);
  ASSERT_TRUE(fields.ok());
  ASSERT_EQ(mcDeviceReset(), mcSuccess);
  EXPECT_FALSE(MemoryExports::Get().IsExported(p));
  EXPECT_EQ(LinkOf(fields->fd).find("mxcts-ipc-mem-"), std::string::npos);
  ASSERT_EQ(mcSetDevice(0), mcSuccess);
}

TEST(Export, OnlyMcMallocMemory) {
  void* host = nullptr;
  ASSERT_EQ(mcMallocHost(&host, 4096), mcSuccess);
  EXPECT_EQ(ToMcError(MemoryExports::Get().Export(host).status()),
            mcErrorInvalidValue);
  void* managed = nullptr;
  ASSERT_EQ(mcMallocManaged(&managed, 4096), mcSuccess);
  EXPECT_EQ(ToMcError(MemoryExports::Get().Export(managed).status()),
            mcErrorInvalidValue);
  int stack = 0;
  EXPECT_EQ(ToMcError(MemoryExports::Get().Export(&stack).status()),
            mcErrorInvalidValue);
  EXPECT_EQ(mcFreeHost(host), mcSuccess);
  EXPECT_EQ(mcFree(managed), mcSuccess);
}

}  // namespace
}  // namespace mxcts::runtime
