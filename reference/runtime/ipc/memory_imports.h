// Copyright mxcts authors.
//
// reference/runtime/ipc/memory_imports.h: the other processes' allocations
// this process has mapped (mcIpcOpenMemHandle).
//
// Opening a handle opens the exporter's memory file (remote_file.h), takes
// a range of whole pages of the allocation's device's address range in
// this process (so that the address is device memory of that device, like
// any of its allocations), maps the file there shared, and registers the
// allocation at its offset in the range: kind device memory, origin
// kIpcMapping, owner the mapping's id. Its address differs from the
// exporter's [api.ipc.open-mem-handle.address-may-differ]; byte k of it is
// byte k of the exported allocation
// [api.ipc.open-mem-handle.offsets-correspond].
//
// A handle this process has open already is not mapped again: Open returns
// the same address and counts the open, and the last Close unmaps
// [api.ipc.open-mem-handle.open-twice]. Closing maps fresh inaccessible
// pages over the range and returns it to the arena; the exporter's file
// and contents are untouched [api.ipc.close-mem-handle.unmaps], and so
// they are when this process exits without closing
// [api.ipc.lifetime.importer-exit].
//
//   MemoryImports& imports = MemoryImports::Get();
//   absl::StatusOr<void*> q = imports.Open(fields, /*current_device=*/0,
//                                          mcIpcMemLazyEnablePeerAccess);
//   imports.Close(*q);

#ifndef MXCTS_REFERENCE_RUNTIME_IPC_MEMORY_IMPORTS_H_
#define MXCTS_REFERENCE_RUNTIME_IPC_MEMORY_IMPORTS_H_

#include <stddef.h>
#include <stdint.h>

#include <map>
#include <tuple>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "reference/runtime/ipc/handle_codec.h"

namespace mxcts::runtime {

class MemoryImports {
 public:
  static MemoryImports& Get();

  // Maps the allocation `fields` names (another process's; the caller has
  // checked that) and returns this process's address of its first byte.
  // With mcIpcMemLazyEnablePeerAccess in `flags`, enables peer access from
  // `current_device` to the allocation's device when they differ
  // [api.ipc.open-mem-handle.lazy-enable-peer-access]. Errors:
  // mcErrorInvalidValue if the allocation is no longer exported (freed, or
  // its process gone); mcErrorInvalidDevice if its device is not visible
  // here; mcErrorMemoryAllocation if the device's address range is full; a
  // peer access error (mcErrorTooManyPeers). A failing call maps nothing.
  // The caller holds the execution lock.
  absl::StatusOr<void*> Open(const MemHandleFields& fields, int current_device,
                             unsigned flags);
  // True if `address` is an address Open returned and not yet closed.
  bool IsOpen(const void* address) const;
  // Closes one open of the mapping at `address`; the last unmaps it.
  // mcErrorInvalidValue if `address` is not open
  // [api.ipc.close-mem-handle.not-opened]. The caller holds the execution
  // lock and has waited for the device work that may use the mapping.
  absl::Status Close(const void* address);
  // Unmaps every mapping of memory of `device`, however often opened
  // (mcDeviceReset). The caller holds the execution lock.
  void ReleaseDevice(int device);
  // The number of mappings (distinct handles) open.
  size_t size() const;

 private:
  // The exported allocation: the exporter and its generation.
  using Key = std::tuple<int, uint64_t, uint64_t>;
  struct Mapping {
    Key key;
    int device = 0;  // this process's ordinal
    uintptr_t range = 0;
    size_t range_size = 0;
    int opens = 0;
  };

  MemoryImports() = default;
  void Unmap(const Mapping& mapping) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  std::map<uintptr_t, Mapping> by_address_ ABSL_GUARDED_BY(mu_);
  std::map<Key, uintptr_t> by_key_ ABSL_GUARDED_BY(mu_);
  uint64_t next_id_ ABSL_GUARDED_BY(mu_) = 1;
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_IPC_MEMORY_IMPORTS_H_
