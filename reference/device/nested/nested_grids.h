// Copyright mxcts authors.
//
// reference/device/nested/nested_grids.h: child grids (dynamic parallelism)
// in the sequential engine.
//
// A top-level grid and every grid launched from it, recursively, form a
// launch tree (LaunchTree): the limits it started with, the count of child
// grids launched and not complete, the launch configurations pushed by
// device threads and not yet consumed, one shared arena per nesting depth
// and the decisions of the shuffled order. Each grid of the tree has a
// NestedGrid: its depth, its parent, the children launched by its threads
// and not yet run, and its threads' last errors.
//
// A child runs on the OS thread of the tree, from whichever context decides
// to run it (the launching thread's fiber at a device-side
// mcDeviceSynchronize or at the launch itself, the host fiber of its parent
// at the end of the launching block), with its own ActiveGrid, blocks and
// fibers from the same stack pool, and the shared arena of its depth, so
// the parent's shared memory stays intact. A trap in a child is recorded
// in every ancestor and stops the whole tree.
//
//   NestedGridScope nested(&grid, stacks, arena_checked, &order);  // RunBlocks
//   ... completed = block.Run(&host);
//   if (completed) completed = nested.RunChildrenAtBlockEnd();

#ifndef REFERENCE_DEVICE_NESTED_NESTED_GRIDS_H_
#define REFERENCE_DEVICE_NESTED_NESTED_GRIDS_H_

#include <stdint.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reference/device/device_runtime.h"
#include "reference/device/engine.h"
#include "reference/device/fibers/stack_pool.h"
#include "reference/device/nested/device_streams.h"
#include "reference/device/scheduling/schedule_order.h"
#include "reference/device/scheduling/thread_context.h"
#include "reference/device/services/shared_arena.h"

namespace mxcts::device_internal {

class LaunchTree;

// A child grid launched and not yet run.
struct PendingChild {
  device::PreparedChildGrid prepared;
  device::GridLaunch launch;  // its kernel_name views prepared.kernel_name
  std::string launched_by;    // "kernel 'p' block (0,0,0) thread (1,0,0)"
  ChildSerial serial = 0;     // among the parent grid's children
  // Children of the same parent that must finish first (the stream's
  // earlier work, the events it waits for): device_streams.h.
  std::vector<ChildSerial> after;
};

// One grid's place in its launch tree.
class NestedGrid {
 public:
  NestedGrid(LaunchTree* tree, ActiveGrid* grid, ActiveGrid* parent,
             unsigned depth)
      : tree_(tree), grid_(grid), parent_(parent), depth_(depth) {}

  LaunchTree& tree() const { return *tree_; }
  ActiveGrid* grid() const { return grid_; }
  ActiveGrid* parent() const { return parent_; }
  unsigned depth() const { return depth_; }

  std::vector<std::unique_ptr<PendingChild>>& pending() { return pending_; }
  // Launch slots of children that completed but that the grid has not
  // synchronized with yet (they ran at their launch): a slot is free again
  // when the launching grid synchronizes or its block ends.
  size_t held_slots = 0;

  // The calling thread's last error (device-side mcGetLastError).
  mcError_t LastError(bool reset);
  void RecordError(mcError_t error);

  // (linear block id, linear thread id) of the running thread.
  std::pair<uint64_t, unsigned> CallingThread() const;

  // The serial of the next child, the children launched and not yet
  // finished, and the grid's device-side NULL stream.
  ChildSerial next_serial = 0;
  std::set<ChildSerial> unfinished;
  StreamOrder null_stream{false};
  // Whether every child in `serials` has finished.
  bool Finished(const std::vector<ChildSerial>& serials) const;

 private:
  LaunchTree* tree_;
  ActiveGrid* grid_;
  ActiveGrid* parent_;
  unsigned depth_;
  std::vector<std::unique_ptr<PendingChild>> pending_;
  std::map<std::pair<uint64_t, unsigned>, mcError_t> last_errors_;
};

// A launch configuration pushed by a device thread and not yet consumed.
struct PushedConfiguration {
  ActiveGrid* grid;
  const void* block;  // the BlockScheduler of the pushing thread
  unsigned thread;    // its linear id
  dim3 grid_dim;
  dim3 block_dim;
  size_t shared_bytes;
  mcStream_t stream;
};

// A parameter buffer handed out by mcGetParameterBuffer(V2).
struct ParameterBuffer {
  std::unique_ptr<unsigned char[]> storage;
  const void* kernel = nullptr;  // V2: the kernel and configuration
  dim3 grid_dim;
  dim3 block_dim;
  unsigned shared_bytes = 0;
};

class LaunchTree {
 public:
  LaunchTree(const device::DeviceRuntimeLimits& limits, StackPool* stacks,
             bool checked_shared, const ScheduleOrder& top_order);
  ~LaunchTree();

  const device::DeviceRuntimeLimits& limits() const { return limits_; }
  StackPool* stacks() const { return stacks_; }
  // The shared arena of grids at `depth` (1 and deeper): grids of one
  // depth never run at the same time.
  SharedArena* ArenaAt(unsigned depth);
  // The order of the next child grid: linear, or a shuffle of the tree's
  // seed with a sequence number of its own.
  ScheduleOrder NextChildOrder();
  bool shuffled() const { return decisions_.shuffled(); }
  // Shuffled order only: whether to run a child right at its launch.
  bool RunAtLaunch();
  // Shuffled order only: the order in which to run `count` siblings.
  std::vector<unsigned> SiblingOrder(unsigned count);

  // Launch slots in use: children launched and not yet synchronized with.
  size_t pending_count = 0;
  std::vector<PushedConfiguration> pushed;
  std::map<const void*, ParameterBuffer> parameter_buffers;
  // Streams and events created by device code.
  DeviceHandles handles;

 private:
  device::DeviceRuntimeLimits limits_;
  StackPool* stacks_;
  bool checked_shared_;
  ScheduleOrder decisions_;
  std::vector<std::unique_ptr<SharedArena>> arenas_;  // index: depth - 1
};

// The launch tree of a top-level grid, for the time RunBlocks runs it: sets
// `grid->nested`, and runs the children of each block at its end.
class NestedGridScope {
 public:
  NestedGridScope(ActiveGrid* grid, StackPool* stacks, bool checked_shared,
                  const ScheduleOrder& order);
  ~NestedGridScope();
  NestedGridScope(const NestedGridScope&) = delete;
  NestedGridScope& operator=(const NestedGridScope&) = delete;

  // Host side, after a block completed: runs the children its threads
  // launched and did not synchronize with
  // [api.devrt.completion.implicit-sync-when-parent-threads-exit]. Returns
  // false when one trapped (the trap is then the grid's).
  bool RunChildrenAtBlockEnd();

 private:
  LaunchTree tree_;
  NestedGrid node_;
};

// The current limits and services (device_runtime.h).
device::DeviceRuntimeLimits CurrentDeviceRuntimeLimits();
const device::DeviceRuntimeServices* CurrentDeviceRuntimeServices();

// Runs the pending children of `grid` (all of them: the launches happened
// before the call), in launch order, or in the shuffled order any order
// their streams and events permit. Returns false when one trapped: its trap
// is then recorded in `grid`.
bool RunPendingChildren(ActiveGrid& grid);

// Runs the pending children of `grid` up to serial `last` (and none later),
// as RunPendingChildren does; their launch slots stay held until the grid
// synchronizes.
bool RunPendingChildrenThrough(ActiveGrid& grid, ChildSerial last);

// After a block of `grid` exited: runs the children nobody synchronized
// with, then retires the streams and events of the grid's exited blocks.
bool RunChildrenAtBlockExit(ActiveGrid& grid);

// Launches a child of the calling device thread's grid with `args`
// pointing at the arguments; returns the launch's error. May trap (the
// pending-launch pool is full, a stream handle).
mcError_t LaunchChild(const void* kernel, dim3 grid_dim, dim3 block_dim,
                      size_t shared_bytes, mcStream_t stream, void** args);

// The stream the calling thread of `node` names: the grid's NULL stream for
// null, else a live stream its block created; null otherwise, with
// `*problem` saying why (device_streams.h).
StreamOrder* CallerStream(NestedGrid& node, mcStream_t stream,
                          std::string* problem);

// "kernel 'p' block (1,0,0)": the calling thread's block, for diagnostics.
std::string CallingBlockName(const ActiveGrid& grid);

// Whether `pointer` lies in a shared arena of the running tree or on a
// device thread's stack.
bool IsSharedOrPrivate(const void* pointer);

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_NESTED_NESTED_GRIDS_H_
