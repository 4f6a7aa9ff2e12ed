// Copyright mxcts authors.
//
// reference/runtime/graphs/graph_memory.h: the memory of graphs' memory
// allocation nodes.
//
// A memory allocation node gets its memory when it is added: whole pages
// of its device's memory, at an address that stays the node's for its life
// [api.graph.mem-alloc-node.allocates]. What launches change is whether
// the allocation is outstanding: a launch of a graph that allocates without
// freeing leaves it outstanding until a free node of another graph,
// mcFree or mcFreeAsync ends it, and a second launch before that fails
// [api.graph.mem-alloc-node.unfreed-memory-persists]. The memory goes back
// to the device when no node, executable graph or outstanding allocation
// holds it.
//
// The registry is guarded by its own lock; GraphAllocation objects are
// shared by the nodes and executable graphs that hold them.
//
//   absl::StatusOr<std::shared_ptr<GraphAllocation>> a =
//       GraphAllocation::Create(/*device=*/0, 4096);
//   GraphMemory::Get().SetOutstanding(*a, true);     // a launch allocated
//   GraphMemory::Get().Free((*a)->address(), "mcFree");  // the program freed

#ifndef MXCTS_REFERENCE_RUNTIME_GRAPHS_GRAPH_MEMORY_H_
#define MXCTS_REFERENCE_RUNTIME_GRAPHS_GRAPH_MEMORY_H_

#include <cstddef>
#include <map>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace mxcts::runtime {

class GraphAllocation {
 public:
  // `size` (> 0) bytes of `device`'s memory, registered as a graph
  // allocation. mcErrorMemoryAllocation if the device has no room.
  static absl::StatusOr<std::shared_ptr<GraphAllocation>> Create(int device,
                                                                 size_t size);
  ~GraphAllocation();
  GraphAllocation(const GraphAllocation&) = delete;
  GraphAllocation& operator=(const GraphAllocation&) = delete;

  void* address() const { return address_; }
  size_t size() const { return size_; }
  int device() const { return device_; }

 private:
  GraphAllocation() = default;
  void* address_ = nullptr;
  size_t size_ = 0;      // bytes asked for
  size_t reserved_ = 0;  // whole pages
  int device_ = 0;
};

class GraphMemory {
 public:
  static GraphMemory& Get();

  // True if `address` starts a graph allocation that is outstanding.
  bool Outstanding(const void* address) const;
  // Makes `allocation` outstanding (the registry holds it) or not.
  void SetOutstanding(const std::shared_ptr<GraphAllocation>& allocation,
                      bool outstanding);
  // The graph allocation that starts at `address`, if one lives.
  std::shared_ptr<GraphAllocation> Find(const void* address) const;
  // mcFree or mcFreeAsync of `address`, a graph allocation: ends its
  // outstanding state. mcErrorInvalidValue (naming `api`) if it is not
  // outstanding.
  absl::Status Free(const void* address, const char* api);

  // Called by GraphAllocation.
  void Add(const std::shared_ptr<GraphAllocation>& allocation);
  void Remove(GraphAllocation* allocation);

 private:
  GraphMemory() = default;
  mutable absl::Mutex mu_;
  std::map<const void*, std::weak_ptr<GraphAllocation>> live_
      ABSL_GUARDED_BY(mu_);
  std::map<const void*, std::shared_ptr<GraphAllocation>> outstanding_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_GRAPHS_GRAPH_MEMORY_H_
