// Copyright mxcts authors.
//
// Pools shared between processes over memory files; see pool_sharing.h.
// The descriptor of an exported pool may travel by any means (a Unix
// socket, inheritance across exec, /proc/<pid>/fd/<fd>): whatever the
// route, it names the same file, which the header page identifies.
//
// Tested by pool_sharing_test.cc and the conformance tests of
// docs/spec/api-memory-pools.md, "Pools shared between processes".

#include "reference/runtime/pools/pool_sharing.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "absl/strings/str_format.h"
#include "reference/runtime/devices/device_table.h"
#include "reference/runtime/errors/error_mapping.h"
#include "reference/runtime/errors/status_macros.h"
#include "reference/runtime/memory/address_arena.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/pools/pool_table.h"

namespace mxcts::runtime {
namespace {

constexpr char kFileMagic[16] = "mxcts-pool-v1";
constexpr char kPointerMagic[8] = "mxptr1";

// The first page of a pool's memory file.
struct PoolFileHeader {
  char magic[16];
  uint64_t exporter_pid;
  uint64_t pool_id;
  int32_t device;
};

// What mcMemPoolPtrExportData holds.
struct ExportedAllocation {
  char magic[8];
  uint64_t exporter_pid;
  uint64_t pool_id;
  uint64_t file_offset;
  uint64_t block_size;
  uint64_t size;
};
static_assert(sizeof(ExportedAllocation) <= sizeof(mcMemPoolPtrExportData));

absl::Status NotAPoolFile(int fd, const char* why) {
  return McStatus(mcErrorInvalidValue,
                  absl::StrFormat("mcMemPoolImportFromShareableHandle: "
                                  "descriptor %d is not an exported memory "
                                  "pool (%s)",
                                  fd, why));
}

// Creates the memory file of `pool` with its header page.
absl::Status CreatePoolFile(MemoryPool& pool) {
  const int fd = memfd_create("mxcts-pool", MFD_CLOEXEC);
  if (fd < 0) {
    return McStatus(
        mcErrorMemoryAllocation,
        absl::StrFormat("memory pool: memfd_create: %s", std::strerror(errno)));
  }
  const size_t page = AddressArena::PageSize();
  PoolFileHeader header{};
  std::memcpy(header.magic, kFileMagic, sizeof(kFileMagic));
  header.exporter_pid = static_cast<uint64_t>(getpid());
  header.pool_id = pool.id;
  header.device = pool.device;
  if (ftruncate(fd, page) != 0 || pwrite(fd, &header, sizeof(header), 0) !=
                                      static_cast<ssize_t>(sizeof(header))) {
    close(fd);
    return McStatus(mcErrorMemoryAllocation,
                    "memory pool: cannot write the pool's memory file");
  }
  pool.shared_fd = fd;
  pool.shared_size = page;
  pool.exporter_pid = header.exporter_pid;
  pool.exporter_pool_id = pool.id;
  return absl::OkStatus();
}

// Maps [offset, offset + size) of `fd` at `base` (a block's pages).
absl::Status MapFileRange(int fd, uintptr_t base, size_t size,
                          uint64_t offset) {
  void* mapped =
      mmap(reinterpret_cast<void*>(base), size, PROT_READ | PROT_WRITE,
           MAP_SHARED | MAP_FIXED, fd, static_cast<off_t>(offset));
  if (mapped == MAP_FAILED) {
    return McStatus(mcErrorMemoryAllocation,
                    absl::StrFormat("memory pool: cannot map %u bytes of the "
                                    "pool's memory file: %s",
                                    size, std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace

bool IsExportablePool(const MemoryPool& pool) {
  return !pool.imported &&
         (pool.props.handleTypes & mcMemHandleTypePosixFileDescriptor) != 0;
}

absl::Status BackBlockWithFile(MemoryPool& pool, uintptr_t base, size_t size) {
  if (pool.shared_fd < 0) MX_RETURN_IF_ERROR(CreatePoolFile(pool));
  const uint64_t offset = pool.shared_size;
  if (ftruncate(pool.shared_fd, static_cast<off_t>(offset + size)) != 0) {
    return McStatus(mcErrorMemoryAllocation,
                    "memory pool: cannot grow the pool's memory file");
  }
  MX_RETURN_IF_ERROR(MapFileRange(pool.shared_fd, base, size, offset));
  pool.shared_size = offset + size;
  MemoryPool::Block& block = pool.blocks[base];
  block.file_backed = true;
  block.file_offset = offset;
  return absl::OkStatus();
}

absl::StatusOr<int> ExportPoolFile(MemoryPool& pool) {
  if (pool.shared_fd < 0) MX_RETURN_IF_ERROR(CreatePoolFile(pool));
  // Inheritable, as a descriptor the program passes on may need to be.
  const int fd = fcntl(pool.shared_fd, F_DUPFD, 0);
  if (fd < 0) {
    return McStatus(mcErrorMemoryAllocation,
                    absl::StrFormat("mcMemPoolExportToShareableHandle: %s",
                                    std::strerror(errno)));
  }
  return fd;
}

absl::StatusOr<MemoryPool*> ImportPoolFile(int fd) {
  struct stat status {};
  if (fd < 0 || fstat(fd, &status) != 0) return NotAPoolFile(fd, "not open");
  PoolFileHeader header{};
  if (!S_ISREG(status.st_mode) ||
      static_cast<size_t>(status.st_size) < AddressArena::PageSize() ||
      pread(fd, &header, sizeof(header), 0) !=
          static_cast<ssize_t>(sizeof(header)) ||
      std::memcmp(header.magic, kFileMagic, sizeof(kFileMagic)) != 0) {
    return NotAPoolFile(fd, "no pool header");
  }
  absl::StatusOr<Device*> device = DeviceTable::Get().DeviceAt(header.device);
  if (!device.ok()) return NotAPoolFile(fd, "its device does not exist here");
  const int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (own < 0) return NotAPoolFile(fd, std::strerror(errno));
  mcMemPoolProps props{};
  props.allocType = mcMemAllocationTypePinned;
  props.handleTypes = mcMemHandleTypePosixFileDescriptor;
  props.location.type = mcMemLocationTypeDevice;
  props.location.id = header.device;
  MemoryPool* pool = PoolTable::Get().Create(props);
  pool->imported = true;
  pool->shared_fd = own;
  pool->shared_size = static_cast<uint64_t>(status.st_size);
  pool->exporter_pid = header.exporter_pid;
  pool->exporter_pool_id = header.pool_id;
  return pool;
}

absl::Status ExportAllocation(const void* ptr, mcMemPoolPtrExportData* data) {
  std::optional<Allocation> found = MemoryManager::Get().Find(ptr);
  MemoryPool* pool = found.has_value() &&
                             found->base == reinterpret_cast<uintptr_t>(ptr) &&
                             found->origin == DeviceOrigin::kStreamOrdered
                         ? PoolTable::Get().FindById(found->owner)
                         : nullptr;
  if (pool == nullptr || !IsExportablePool(*pool)) {
    // [api.pool.ipc.export-pointer-foreign-is-invalid-value]
    return McStatus(mcErrorInvalidValue,
                    absl::StrFormat("mcMemPoolExportPointer: %p is not the "
                                    "start of a live allocation from an "
                                    "exportable pool",
                                    ptr));
  }
  const MemoryPool::Block& block = pool->blocks[found->base];
  ExportedAllocation exported{};
  std::memcpy(exported.magic, kPointerMagic, sizeof(kPointerMagic));
  exported.exporter_pid = pool->exporter_pid;
  exported.pool_id = pool->exporter_pool_id;
  exported.file_offset = block.file_offset;
  exported.block_size = block.size;
  exported.size = found->size;
  std::memset(data, 0, sizeof(*data));
  std::memcpy(data->reserved, &exported, sizeof(exported));
  return absl::OkStatus();
}

absl::StatusOr<void*> ImportAllocation(MemoryPool& pool,
                                       const mcMemPoolPtrExportData& data) {
  ExportedAllocation exported{};
  std::memcpy(&exported, data.reserved, sizeof(exported));
  struct stat status {};
  const bool described =
      std::memcmp(exported.magic, kPointerMagic, sizeof(kPointerMagic)) == 0 &&
      exported.exporter_pid == pool.exporter_pid &&
      exported.pool_id == pool.exporter_pool_id && exported.size > 0 &&
      exported.size <= exported.block_size &&
      exported.block_size % AddressArena::PageSize() == 0 &&
      exported.file_offset >= AddressArena::PageSize() &&
      fstat(pool.shared_fd, &status) == 0 &&
      exported.file_offset + exported.block_size <=
          static_cast<uint64_t>(status.st_size);
  if (!described) {
    return McStatus(mcErrorInvalidValue,
                    "mcMemPoolImportPointer: the export data describes no "
                    "allocation of this pool");
  }
  MemoryManager& memory = MemoryManager::Get();
  // The memory is the exporter's: no capacity of this process limits it.
  MX_ASSIGN_OR_RETURN(
      void* base, memory.ReserveMappingRange(pool.device, exported.block_size));
  const uintptr_t address = reinterpret_cast<uintptr_t>(base);
  absl::Status mapped = MapFileRange(pool.shared_fd, address,
                                     exported.block_size, exported.file_offset);
  if (!mapped.ok()) {
    memory.ReleaseMappingRange(pool.device, base, exported.block_size);
    return mapped;
  }
  MemoryPool::Block& block = pool.blocks[address];
  block.size = exported.block_size;
  block.requested = exported.size;
  block.in_use = true;
  block.file_backed = true;
  block.file_offset = exported.file_offset;
  pool.reserved_bytes += block.size;
  pool.used_bytes += block.size;
  Allocation allocation;
  allocation.base = address;
  allocation.size = exported.size;
  allocation.kind = MemoryKind::kDevice;
  allocation.device = pool.device;
  allocation.origin = DeviceOrigin::kStreamOrdered;
  allocation.pool_access = ReadWriteAccessMask(pool);
  allocation.pool_read_access = ReadAccessMask(pool);
  allocation.owner = pool.id;
  absl::Status registered = memory.RegisterAllocation(allocation);
  if (!registered.ok()) {
    pool.blocks.erase(address);
    memory.ReleaseMappingRange(pool.device, base, exported.block_size);
    return registered;
  }
  return base;
}

}  // namespace mxcts::runtime
