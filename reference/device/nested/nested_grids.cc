// Copyright mxcts authors.
//
// Child grids run to completion, one at a time, on the OS thread of their
// launch tree; a grid's own threads never run while one of its children
// does. That makes one shared arena per depth enough (two grids of one
// depth are never alive together), keeps the parent's shared memory intact
// for the threads that resume after the child, and lets a child run from any
// context of its parent: the launching thread's fiber (a device-side
// mcDeviceSynchronize, or the launch itself in the shuffled order) or the
// host fiber of the parent's block loop once the launching block has
// exited. A child grid's blocks run in
// block_loop.h's loop, each followed by the children it launched.
//
// Each child carries the serials of its siblings that must finish before it
// starts: the earlier work of its stream and the events that stream waits
// for (device_streams.h). Launch order satisfies them all; the shuffled
// order runs a child at its launch only when they have finished, and at a
// synchronization picks each next child among those that are ready.
//
// The built-in variables are one engine-wide context rewritten on every
// switch; a child's blocks overwrite it, so RunChildGrid saves the
// launching context and restores it when the child is done (the parent's
// thread loop keeps only threadIdx.x per thread and relies on the rest).
//
// When a child traps, its Trap has printed the diagnostic (naming the child
// kernel, block and thread, then the launch chain) and switched to the
// child's host fiber; RunChildGrid copies the record into the parent, and
// the caller abandons the parent's block (on a device fiber) or returns
// false to its own block loop, so the trap climbs to the top-level grid.
// [api.devrt.launch.success-does-not-imply-child-success]
//
// Tested by nested_grids_test.cc and conformance/api/dynamic_parallelism.

#include "reference/device/nested/nested_grids.h"

#include <cstdio>
#include <cstring>
#include <iterator>

#include "absl/base/attributes.h"
#include "absl/base/const_init.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "reference/device/collectives/barrier.h"
#include "reference/device/collectives/wave_collectives.h"
#include "reference/device/fibers/fiber.h"
#include "reference/device/nested/block_loop.h"
#include "reference/device/scheduling/block_scheduler.h"
#include "reference/device/scheduling/trap.h"

namespace mxcts::device_internal {
namespace {

ABSL_CONST_INIT absl::Mutex settings_mutex(absl::kConstInit);
device::DeviceRuntimeLimits current_limits ABSL_GUARDED_BY(settings_mutex);
const device::DeviceRuntimeServices* current_services
    ABSL_GUARDED_BY(settings_mutex) = nullptr;

// Sequence numbers of shuffled decisions, per process (grids run one at a
// time, so the engine lock guards them): the same program with the same
// seed makes the same decisions.
uint64_t tree_sequence = 0;
uint64_t child_sequence = 0;
constexpr uint64_t kTreeSequenceBit = uint64_t{1} << 63;
constexpr uint64_t kChildSequenceBit = uint64_t{1} << 62;

uint64_t LinearBlock(const ActiveGrid& grid, uint3 block, dim3 shape) {
  (void)grid;
  return block.x + uint64_t{shape.x} * (block.y + uint64_t{shape.y} * block.z);
}

bool RunChildGrid(PendingChild& child, ActiveGrid& parent) {
  NestedGrid& parent_node = *parent.nested;
  LaunchTree& tree = parent_node.tree();
  const unsigned depth = parent_node.depth() + 1;
  const __mc_thread_context saved = *RunningBuiltins();
  ActiveGrid grid;
  grid.kernel_name = child.launch.kernel_name;
  grid.arena = tree.ArenaAt(depth);
  grid.describe_shared_fault = parent.describe_shared_fault;
  ScheduleOrder order = tree.NextChildOrder();
  grid.order = &order;
  NestedGrid node(&tree, &grid, &parent, depth);
  grid.nested = &node;
  grid.launch_chain = absl::StrCat("; in a child grid launched by ",
                                   child.launched_by, parent.launch_chain);
  // The runtime checked the dynamic shared memory against the block's.
  bool completed =
      grid.arena->BeginGrid(child.launch.dynamic_shared_bytes).ok();
  if (!completed) {
    grid.trap.error = mcErrorInvalidConfiguration;
    grid.trap.diagnostic = "mxmaca: a child grid's shared memory\n";
  }
  SetCurrentGrid(&grid);
  // [api.devrt.launch.chevron-syntax-in-device-code]
  // [api.devrt.launch.configuration-inherited-from-parent] The same stack
  // pool, heap, printf buffer and trap settings as the top-level grid.
  if (completed)
    completed = RunBlocksOneAtATime(
        child.launch, grid, tree.stacks(), &order,
        // [api.devrt.completion.implicit-sync-when-parent-threads-exit]
        [&grid] { return RunChildrenAtBlockExit(grid); });
  SetCurrentGrid(&parent);
  SetCurrentThreadContext(&saved);
  // The slot is free when the parent synchronizes (RunPendingChildren).
  ++parent_node.held_slots;
  parent_node.unfinished.erase(child.serial);
  if (!completed) parent.trap = grid.trap;
  return completed;
}

}  // namespace

mcError_t NestedGrid::LastError(bool reset) {
  auto it = last_errors_.find(CallingThread());
  if (it == last_errors_.end()) return mcSuccess;
  const mcError_t error = it->second;
  if (reset) last_errors_.erase(it);
  return error;
}

bool NestedGrid::Finished(const std::vector<ChildSerial>& serials) const {
  for (ChildSerial serial : serials) {
    if (unfinished.count(serial) != 0) return false;
  }
  return true;
}

void NestedGrid::RecordError(mcError_t error) {
  if (error == mcSuccess) return;
  last_errors_[CallingThread()] = error;
}

std::pair<uint64_t, unsigned> NestedGrid::CallingThread() const {
  const BlockScheduler* block = grid_->block;
  if (block == nullptr) return {~uint64_t{0}, 0};
  return {LinearBlock(*grid_, block->block_index(), RunningBuiltins()->gridDim),
          block->current_thread()};
}

LaunchTree::LaunchTree(const device::DeviceRuntimeLimits& limits,
                       StackPool* stacks, bool checked_shared,
                       const ScheduleOrder& top_order)
    : limits_(limits),
      stacks_(stacks),
      checked_shared_(checked_shared),
      decisions_(top_order.shuffled()
                     ? ScheduleOrder::Shuffle(
                           top_order.seed(), kTreeSequenceBit | tree_sequence++)
                     : ScheduleOrder::Linear()) {}

namespace {

// Arenas of earlier trees: mapping one costs system calls, and a program
// that launches children usually does so from every grid. Used under the
// engine lock only.
std::vector<std::unique_ptr<SharedArena>>& KeptArenas() {
  static std::vector<std::unique_ptr<SharedArena>>* const kept =
      new std::vector<std::unique_ptr<SharedArena>>();
  return *kept;
}

}  // namespace

LaunchTree::~LaunchTree() {
  for (std::unique_ptr<SharedArena>& arena : arenas_) {
    KeptArenas().push_back(std::move(arena));
  }
}

SharedArena* LaunchTree::ArenaAt(unsigned depth) {
  std::vector<std::unique_ptr<SharedArena>>* const kept = &KeptArenas();
  while (arenas_.size() < depth) {
    std::unique_ptr<SharedArena> arena;
    for (auto it = kept->begin(); it != kept->end(); ++it) {
      if ((*it)->checked() == checked_shared_) {
        arena = std::move(*it);
        kept->erase(it);
        break;
      }
    }
    if (arena == nullptr)
      arena = std::make_unique<SharedArena>(checked_shared_);
    arenas_.push_back(std::move(arena));
  }
  SharedArena* arena = arenas_[depth - 1].get();
  return arena;
}

ScheduleOrder LaunchTree::NextChildOrder() {
  if (!decisions_.shuffled()) return ScheduleOrder::Linear();
  return ScheduleOrder::Shuffle(decisions_.seed(),
                                kChildSequenceBit | child_sequence++);
}

bool LaunchTree::RunAtLaunch() {
  // A fair coin from the seeded generator.
  return decisions_.Permutation(2)[0] == 1;
}

std::vector<unsigned> LaunchTree::SiblingOrder(unsigned count) {
  return decisions_.Permutation(count);
}

NestedGridScope::NestedGridScope(ActiveGrid* grid, StackPool* stacks,
                                 bool checked_shared,
                                 const ScheduleOrder& order)
    : tree_(CurrentDeviceRuntimeLimits(), stacks, checked_shared, order),
      node_(&tree_, grid, nullptr, 0) {
  grid->nested = &node_;
}

NestedGridScope::~NestedGridScope() { node_.grid()->nested = nullptr; }

bool NestedGridScope::RunChildrenAtBlockEnd() {
  return RunChildrenAtBlockExit(*node_.grid());
}

device::DeviceRuntimeLimits CurrentDeviceRuntimeLimits() {
  absl::MutexLock lock(&settings_mutex);
  return current_limits;
}

const device::DeviceRuntimeServices* CurrentDeviceRuntimeServices() {
  absl::MutexLock lock(&settings_mutex);
  return current_services;
}

bool RunPendingChildrenThrough(ActiveGrid& grid, ChildSerial last) {
  NestedGrid* node = grid.nested;
  if (node == nullptr) return true;
  LaunchTree& tree = node->tree();
  std::vector<std::unique_ptr<PendingChild>>& pending = node->pending();
  // Most blocks launch nothing: neither order below runs or draws anything
  // then.
  if (pending.empty()) return true;
  // (Children never add to their parent's list, so it only shrinks here.)
  if (!tree.shuffled()) {
    // Launch order satisfies every stream and event: a child waits only
    // for children launched before it.
    size_t count = 0;
    while (count < pending.size() && pending[count]->serial <= last) ++count;
    std::vector<std::unique_ptr<PendingChild>> batch(
        std::make_move_iterator(pending.begin()),
        std::make_move_iterator(pending.begin() + count));
    pending.erase(pending.begin(), pending.begin() + count);
    for (std::unique_ptr<PendingChild>& child : batch) {
      if (!RunChildGrid(*child, grid)) return false;
    }
    return true;
  }
  // [api.devrt.sync.device-synchronize-orders-sibling-children]
  // [api.devrt.stream.streams-unordered] The shuffled order picks each next
  // child among those whose streams and events let it start.
  std::vector<size_t> ready;
  for (;;) {
    ready.clear();
    for (size_t i = 0; i < pending.size() && pending[i]->serial <= last; ++i) {
      if (node->Finished(pending[i]->after)) ready.push_back(i);
    }
    if (ready.empty()) return true;
    const size_t pick =
        ready[tree.SiblingOrder(static_cast<unsigned>(ready.size()))[0]];
    std::unique_ptr<PendingChild> child = std::move(pending[pick]);
    pending.erase(pending.begin() + pick);
    if (!RunChildGrid(*child, grid)) return false;
  }
}

bool RunPendingChildren(ActiveGrid& grid) {
  NestedGrid* node = grid.nested;
  if (node == nullptr) return true;
  if (!RunPendingChildrenThrough(grid, ~ChildSerial{0})) return false;
  // [api.devrt.limit.pending-launch-count-default] The grid has
  // synchronized with every child it launched: their slots are free.
  LaunchTree& tree = node->tree();
  tree.pending_count -= node->held_slots;
  node->held_slots = 0;
  return true;
}

bool RunChildrenAtBlockExit(ActiveGrid& grid) {
  // Most blocks launch nothing and create no stream or event; then there
  // is nothing to run, free or close.
  NestedGrid* node = grid.nested;
  if (node == nullptr || (node->pending().empty() && node->held_slots == 0 &&
                          node->tree().handles.empty())) {
    return true;
  }
  if (!RunPendingChildren(grid)) return false;
  // [api.devrt.stream.handles-private-to-block]
  if (grid.nested != nullptr) grid.nested->tree().handles.BlocksExited(&grid);
  return true;
}

StreamOrder* CallerStream(NestedGrid& node, mcStream_t stream,
                          std::string* problem) {
  if (stream == nullptr) return &node.null_stream;
  DeviceHandle* handle =
      node.tree().handles.Find(stream, DeviceHandle::Kind::kStream, node.grid(),
                               node.CallingThread().first, problem);
  return handle != nullptr ? &handle->stream : nullptr;
}

std::string CallingBlockName(const ActiveGrid& grid) {
  return absl::StrFormat("kernel '%s' block %s", grid.kernel_name,
                         FormatIndex(grid.block->block_index()));
}

namespace {

// [api.devrt.memory.shared-pointer-to-child-undefined]
// [api.devrt.memory.local-pointer-to-child-undefined]
// [api.devrt.memory.compiler-may-warn-on-private-argument] The reference
// cannot prove what an argument points at when the program is compiled,
// but at the launch it can: every pointer-sized word of the arguments that
// points into shared memory or a device thread's stack is reported once,
// as a warning (passing such a pointer is allowed; dereferencing it in the
// child is what is undefined).
void WarnAboutPrivateArguments(const ActiveGrid& grid,
                               const PendingChild& child,
                               const __mc_internal::KernelRecord* record) {
  if (record == nullptr) return;
  for (unsigned i = 0; i < record->param_count; ++i) {
    const auto* bytes =
        static_cast<const unsigned char*>(child.prepared.args[i]);
    for (size_t offset = 0; offset + sizeof(void*) <= record->param_sizes[i];
         offset += sizeof(void*)) {
      const void* word;
      std::memcpy(&word, bytes + offset, sizeof(word));
      if (word == nullptr || !IsSharedOrPrivate(word)) continue;
      std::fprintf(
          stderr,
          "mxmaca warning: kernel '%s' block %s thread %s: argument "
          "%u of the launch of '%s' points to %s memory (%p), which "
          "the child grid cannot use "
          "[api.devrt.memory.shared-pointer-to-child-undefined]\n",
          std::string(grid.kernel_name).c_str(),
          FormatIndex(grid.block->block_index()).c_str(),
          FormatIndex(grid.block->ThreadIndex(grid.block->current_thread()))
              .c_str(),
          i, child.prepared.kernel_name.c_str(),
          [&] {
            for (const ActiveGrid* g = &grid; g != nullptr;
                 g = g->nested != nullptr ? g->nested->parent() : nullptr) {
              if (g->arena != nullptr && g->arena->Contains(word)) {
                return "shared";
              }
            }
            return "private (a device thread's stack)";
          }(),
          word);
      std::fflush(stderr);
      return;
    }
  }
}

}  // namespace

mcError_t LaunchChild(const void* kernel, dim3 grid_dim, dim3 block_dim,
                      size_t shared_bytes, mcStream_t stream, void** args) {
  ActiveGrid* grid = CurrentGrid();
  if (grid == nullptr || grid->block == nullptr || grid->nested == nullptr) {
    DieOutsideGrid("a device-side kernel launch", nullptr, 0);
  }
  NestedGrid& node = *grid->nested;
  LaunchTree& tree = node.tree();
  const device::DeviceRuntimeServices* services =
      CurrentDeviceRuntimeServices();
  if (services == nullptr) {
    node.RecordError(mcErrorNotSupported);
    return mcErrorNotSupported;
  }
  // [api.devrt.stream.host-stream-not-usable-in-device-code]
  // [api.devrt.stream.handles-private-to-block] A handle that is not the
  // NULL stream or a live stream of the calling block is undefined there.
  std::string problem;
  StreamOrder* const order = CallerStream(node, stream, &problem);
  if (order == nullptr) {
    Trap(mcErrorLaunchFailure,
         absl::StrFormat("a device-side launch names stream %p, which %s "
                         "[api.devrt.stream.handles-private-to-block]",
                         static_cast<const void*>(stream), problem));
  }
  // [api.devrt.limit.max-nesting-depth]
  if (node.depth() + 1 > device::kMaxGridNestingDepth) {
    node.RecordError(mcErrorLaunchMaxDepthExceeded);
    return mcErrorLaunchMaxDepthExceeded;
  }
  auto child = std::make_unique<PendingChild>();
  // [api.devrt.launch.invalid-configuration-fails-launch] The host launch's
  // checks, against the device the tree runs on.
  // [api.devrt.api.current-device-only]
  const mcError_t error =
      services->prepare_child(tree.limits().device, kernel, grid_dim, block_dim,
                              shared_bytes, args, &child->prepared);
  if (error != mcSuccess) {
    node.RecordError(error);
    return error;
  }
  // [api.devrt.limit.pending-launch-count-exceeded]
  if (tree.pending_count >= tree.limits().pending_launch_count) {
    const std::string name = child->prepared.kernel_name;
    child.reset();
    Trap(mcErrorLaunchPendingCountExceeded,
         absl::StrFormat("the launch of '%s' exceeds "
                         "mcLimitDevRuntimePendingLaunchCount: %u child grids "
                         "are launched and not complete",
                         name, tree.limits().pending_launch_count));
  }
  WarnAboutPrivateArguments(*grid, *child, services->find_kernel(kernel));
  child->launch = device::GridLaunch{child->prepared.kernel_name,
                                     child->prepared.entry,
                                     child->prepared.args,
                                     grid_dim,
                                     block_dim,
                                     shared_bytes,
                                     child->prepared.run_threads};
  const BlockScheduler& block = *grid->block;
  child->launched_by =
      absl::StrFormat("kernel '%s' block %s thread %s", grid->kernel_name,
                      FormatIndex(block.block_index()),
                      FormatIndex(block.ThreadIndex(block.current_thread())));
  ++tree.pending_count;
  child->serial = node.next_serial++;
  child->after = order->BeforeNextLaunch();
  node.unfinished.insert(child->serial);
  order->Launched(child->serial, node.unfinished);
  // [api.devrt.launch.asynchronous-to-launching-thread] The child runs
  // later; the shuffled order sometimes runs it at once, which the spec
  // also permits [api.devrt.launch.child-start-not-guaranteed-before-sync],
  // but only when its stream and events let it start: never before an
  // earlier launch into its stream has finished
  // [api.devrt.stream.named-stream-runs-launches-in-order].
  if (tree.shuffled() && node.Finished(child->after) && tree.RunAtLaunch()) {
    if (!RunChildGrid(*child, *grid)) grid->block->AbandonToHost();
    return mcSuccess;
  }
  node.pending().push_back(std::move(child));
  return mcSuccess;
}

bool IsSharedOrPrivate(const void* pointer) {
  const ActiveGrid* grid = CurrentGrid();
  if (grid == nullptr) return false;
  for (const ActiveGrid* g = grid; g != nullptr;
       g = g->nested != nullptr ? g->nested->parent() : nullptr) {
    if (g->arena != nullptr && g->arena->Contains(pointer)) return true;
  }
  if (grid->nested != nullptr) {
    StackPool* stacks = grid->nested->tree().stacks();
    // Covers counts a stack's top, one past its last byte, in: the next
    // byte tells a pointer to the stack from one to memory mapped above it.
    const uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
    if (stacks != nullptr && stacks->Covers(address, 0) &&
        stacks->Covers(address + 1, 0)) {
      return true;
    }
  }
  return false;
}

}  // namespace mxcts::device_internal

namespace mxcts::device {

void SetDeviceRuntimeServices(const DeviceRuntimeServices* services) {
  absl::MutexLock lock(&device_internal::settings_mutex);
  device_internal::current_services = services;
}

void SetDeviceRuntimeLimits(const DeviceRuntimeLimits& limits) {
  absl::MutexLock lock(&device_internal::settings_mutex);
  device_internal::current_limits = limits;
}

}  // namespace mxcts::device
