// Copyright mxcts authors.
//
// reference/runtime/ipc/memory_exports.h: the mcMalloc allocations this
// process has exported (mcIpcGetMemHandle).
//
// Exporting moves an allocation's pages onto a memory file: the file is
// created, the allocation's current contents are copied into it, and it is
// mapped shared over the allocation's own pages, so the allocation keeps
// its address and contents and another process that maps the file shares
// every byte with it. The exporter keeps the file open: the handle names
// the process and the descriptor (handle_codec.h). An allocation is
// exported once; later calls return the same handle.
//
// Each export gets a new generation, which names the file: when the
// allocation is freed (or its device reset), the file is closed and the
// arena maps fresh pages over the range, so the old handle no longer opens,
// and a later allocation at the same address exports under a new
// generation [api.ipc.get-mem-handle.reused-address-new-handle].
//
//   MemoryExports& exports = MemoryExports::Get();
//   absl::StatusOr<MemHandleFields> fields = exports.Export(p);
//   exports.IsExported(p);   // true until p's allocation is freed

#ifndef MXCTS_REFERENCE_RUNTIME_IPC_MEMORY_EXPORTS_H_
#define MXCTS_REFERENCE_RUNTIME_IPC_MEMORY_EXPORTS_H_

#include <stddef.h>
#include <stdint.h>

#include <map>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "reference/runtime/ipc/handle_codec.h"
#include "reference/runtime/memory/allocation_table.h"

namespace mxcts::runtime {

class MemoryExports {
 public:
  static MemoryExports& Get();

  // The handle fields of the live mcMalloc allocation that contains
  // `address`, exporting it first if it is not yet
  // [api.ipc.get-mem-handle.mcmalloc-memory]
  // [api.ipc.get-mem-handle.whole-allocation]. mcErrorInvalidValue for any
  // other address [api.ipc.get-mem-handle.other-memory];
  // mcErrorMemoryAllocation if the system refuses the memory file. The
  // caller holds the execution lock, so no device work touches the pages
  // while they move.
  absl::StatusOr<MemHandleFields> Export(const void* address);

  // True if the allocation starting at `base` is exported.
  bool IsExported(const void* base) const;
  // The name of the memory file of export `generation` of process `pid`.
  static std::string FileName(int pid, uint64_t generation);

 private:
  struct Exported {
    MemHandleFields fields;
    uintptr_t pages = 0;  // the first page of the allocation
  };

  MemoryExports() = default;
  // The memory manager's release observer: `allocation` is being freed.
  void Released(const Allocation& allocation);

  mutable absl::Mutex mu_;
  std::map<uintptr_t, Exported> exports_ ABSL_GUARDED_BY(mu_);  // by base
  uint64_t next_generation_ ABSL_GUARDED_BY(mu_) = 1;
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_IPC_MEMORY_EXPORTS_H_
