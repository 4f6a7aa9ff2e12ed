// Copyright mxcts authors.
//
// RunGrid is the grid level of the engine: it checks the launch, takes the
// engine lock (one grid at a time), prepares the shared arena, and runs the
// blocks in linear order (x fastest, then y, then z), each with a fresh block
// scheduler and barrier, all on the calling OS thread. A block that does not
// complete was abandoned by a trap, which has recorded its error and written
// its diagnostic; the remaining blocks never run. [api.trap.error.grid-stopped]
//
// While the blocks run, a GridFaultTraps object (fault_traps.h) turns memory
// faults, floating-point exceptions and the kernel timeout of device code
// into traps, per the trap policy and timeout settings.
//
// The image table and the settings live here too, so the engine's services
// (printf buffer, heap, stack pool, traps) are configured in one place.
//
// Tested by engine_test.cc.

#include "reference/device/engine.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/base/const_init.h"
#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "reference/device/cooperative_grid.h"
#include "reference/device/fibers/fiber.h"
#include "reference/device/fibers/stack_pool.h"
#include "reference/device/nested/block_loop.h"
#include "reference/device/nested/device_runtime_calls.h"
#include "reference/device/nested/nested_grids.h"
#include "reference/device/scheduling/fault_traps.h"
#include "reference/device/scheduling/schedule_order.h"
#include "reference/device/scheduling/thread_context.h"
#include "reference/device/scheduling/trap.h"
#include "reference/device/services/device_heap.h"
#include "reference/device/services/printf_buffer.h"
#include "reference/device/services/shared_arena.h"

namespace mxcts::device {
namespace {

using device_internal::ActiveGrid;
using device_internal::DevicePrintfBuffer;
using device_internal::Fiber;
using device_internal::ScheduleOrder;
using device_internal::SharedArena;
using device_internal::StackPool;
using device_internal::TheDeviceHeap;

// Held while a grid runs; guards the engine's grid-running state.
ABSL_CONST_INIT absl::Mutex engine_mutex(absl::kConstInit);
// Guards the settings that are not kept by their own service.
ABSL_CONST_INIT absl::Mutex settings_mutex(absl::kConstInit);

size_t fiber_stack_bytes ABSL_GUARDED_BY(settings_mutex) =
    kDefaultFiberStackBytes;
// The engine's setting passes to the pool unchanged, "from the system"
// included.
static_assert(kGuardedStacksFromSystem == StackPool::kBudgetFromSystem);
size_t guarded_stack_budget ABSL_GUARDED_BY(settings_mutex) =
    kGuardedStacksFromSystem;
// Counts SetGuardedStackBudget calls: each one gives the next grid a new
// stack pool, whose stacks follow the budget from the first.
uint64_t guarded_stack_budget_sets ABSL_GUARDED_BY(settings_mutex) = 0;
// Empty until set or first read from MXCTS_ENGINE_ORDER.
// Parsed once: when set, or from MXCTS_ENGINE_ORDER on first use.
std::optional<ScheduleOrder> schedule_order ABSL_GUARDED_BY(settings_mutex);
TrapPolicy trap_policy ABSL_GUARDED_BY(settings_mutex) = TrapPolicy::kFatal;
unsigned kernel_timeout_milliseconds ABSL_GUARDED_BY(settings_mutex) = 0;
unsigned hang_timeout_seconds ABSL_GUARDED_BY(settings_mutex) = 0;

// Whether the calling OS thread is inside RunGrid: a grid's child grids run
// through the launch tree (nested/nested_grids.h), never through RunGrid.
thread_local bool running_grid = false;

// SetSharedMemoryChecked's setting.
std::atomic<bool> shared_memory_checked{false};

struct EngineState {
  std::unique_ptr<StackPool> stacks;
  size_t stacks_requested_bytes = 0;
  uint64_t stacks_budget_sets = 0;
  std::unique_ptr<SharedArena> arena;
};

EngineState& State() ABSL_EXCLUSIVE_LOCKS_REQUIRED(engine_mutex) {
  static EngineState* const state = new EngineState();
  return *state;
}

[[noreturn]] void DeviceAssertFail(const char* expression, const char* file,
                                   unsigned line, const char* function) {
  // [lang.assert.failure.stops-kernel] [lang.assert.failure.message-contents]
  // [api.trap.error.assert] [api.trap.policy.zero-disables-reporting]
  if (!device_internal::ContinuableTrapsReported()) {
    device_internal::IgnoreContinuableTrap();
  }
  device_internal::Trap(
      mcErrorAssert,
      absl::StrFormat("%s:%u: %s: Assertion '%s' failed.",
                      file != nullptr ? file : "<unknown>", line,
                      function != nullptr ? function : "<unknown>",
                      expression != nullptr ? expression : "<unknown>"));
}

[[noreturn]] void DeviceTrap(const char* message) {
  // [api.trap.error.other-causes-launch-failure]
  // [api.trap.policy.zero-disables-reporting]
  if (!device_internal::ContinuableTrapsReported()) {
    device_internal::IgnoreContinuableTrap();
  }
  device_internal::Trap(mcErrorLaunchFailure,
                        message != nullptr ? message : "trap");
}

// The runtime validates launches; these checks keep
// the engine safe from a launch that slipped through.
bool LaunchIsRunnable(const GridLaunch& launch) {
  const dim3 grid = launch.grid;
  const dim3 block = launch.block;
  if (launch.entry == nullptr) return false;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0) return false;
  if (block.x == 0 || block.y == 0 || block.z == 0) return false;
  const unsigned long long threads =
      static_cast<unsigned long long>(block.x) * block.y * block.z;
  return threads <= kMaxThreadsPerBlock &&
         launch.dynamic_shared_bytes <= kSharedBytesPerBlock;
}

// The order setting, read from MXCTS_ENGINE_ORDER the first time if it was
// never set (an invalid value is reported once and the linear order used).
ScheduleOrder CurrentScheduleOrder() {
  absl::MutexLock lock(&settings_mutex);
  if (!schedule_order.has_value()) {
    schedule_order = ScheduleOrder::Linear();
    const char* env = std::getenv("MXCTS_ENGINE_ORDER");
    if (env != nullptr && *env != '\0') {
      absl::StatusOr<ScheduleOrder> parsed =
          device_internal::ParseScheduleOrder(env, 0);
      if (parsed.ok()) {
        schedule_order = *parsed;
      } else {
        std::fprintf(stderr, "mxmaca: %s; using the linear order\n",
                     std::string(parsed.status().message()).c_str());
      }
    }
  }
  return *schedule_order;
}

// The order of the next grid: the setting, with the grid's sequence number.
ScheduleOrder NextGridOrder() {
  static uint64_t grid_sequence = 0;  // guarded by engine_mutex
  const uint64_t sequence = grid_sequence++;
  const ScheduleOrder setting = CurrentScheduleOrder();
  return setting.shuffled() ? ScheduleOrder::Shuffle(setting.seed(), sequence)
                            : ScheduleOrder::Linear();
}

// Runs the blocks of `launch` in the schedule order until one traps.
mcError_t RunBlocks(const GridLaunch& launch, EngineState& state)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(engine_mutex) {
  ActiveGrid grid;
  grid.kernel_name = launch.kernel_name;
  grid.arena = state.arena.get();
  grid.describe_shared_fault = [](const SharedArena* arena, uintptr_t address,
                                  std::string* description) {
    return arena->DescribeFault(address, description);
  };
  ScheduleOrder order = NextGridOrder();
  grid.order = &order;
  device_internal::SetCurrentGrid(&grid);
  // Dynamic parallelism: the grid's launch tree (nested/nested_grids.h).
  device_internal::NestedGridScope nested(&grid, state.stacks.get(),
                                          state.arena->checked(), order);
  bool completed;
  if (launch.cooperative) {
    // Every block alive at once: cooperative_grid.h.
    const dim3 shape = launch.grid;
    const std::vector<unsigned> permutation = device_internal::BlockOrder(
        order, static_cast<unsigned long long>(shape.x) * shape.y * shape.z);
    Fiber host;
    completed = device_internal::RunCooperativeBlocks(
        launch, permutation, state.stacks.get(), state.arena.get(), &order,
        &grid, &host);
    // Children nobody synchronized with run before the grid completes.
    if (completed) completed = nested.RunChildrenAtBlockEnd();
  } else {
    completed = device_internal::RunBlocksOneAtATime(
        launch, grid, state.stacks.get(), &order,
        [&nested] { return nested.RunChildrenAtBlockEnd(); });
  }
  device_internal::SetCurrentGrid(nullptr);
  device_internal::SetCurrentThreadContext(nullptr);
  return completed ? mcSuccess : grid.trap.error;
}

}  // namespace

mcError_t RunGrid(const GridLaunch& launch) {
  if (running_grid) return mcErrorNotSupported;
  if (!LaunchIsRunnable(launch)) return mcErrorInvalidConfiguration;
  const size_t stack_bytes = FiberStackBytes();
  size_t guarded_budget;
  uint64_t budget_sets;
  {
    absl::MutexLock lock(&settings_mutex);
    guarded_budget = guarded_stack_budget;
    budget_sets = guarded_stack_budget_sets;
  }
  absl::MutexLock lock(&engine_mutex);
  EngineState& state = State();
  if (state.stacks == nullptr || state.stacks_requested_bytes != stack_bytes ||
      state.stacks_budget_sets != budget_sets) {
    state.stacks = std::make_unique<StackPool>(stack_bytes, guarded_budget);
    state.stacks_requested_bytes = stack_bytes;
    state.stacks_budget_sets = budget_sets;
  }
  // [lang.ub.memory.out-of-bounds-shared] The layout follows the setting
  // of the grid's time; a change makes a new arena.
  const bool checked = shared_memory_checked.load();
  if (state.arena == nullptr || state.arena->checked() != checked) {
    state.arena = std::make_unique<SharedArena>(checked);
  }
  if (!state.arena->BeginGrid(launch.dynamic_shared_bytes).ok()) {
    return mcErrorInvalidConfiguration;
  }
  running_grid = true;
  mcError_t result;
  {
    device_internal::GridTrapSettings traps;
    traps.policy = GetTrapPolicy();
    traps.timeout_milliseconds = KernelTimeoutMilliseconds();
    traps.hang_timeout_seconds = HangTimeoutSeconds();
    traps.stacks = state.stacks.get();
    device_internal::GridFaultTraps armed(traps);
    result = RunBlocks(launch, state);
  }
  running_grid = false;
  return result;
}

const __mc_image_runtime* ImageRuntimeTable() {
  // Built on first use, so that an image bound during static initialization
  // (a managed variable's registration loads its image) sees it complete.
  static const __mc_image_runtime table = {
      MC_IMAGE_ABI_VERSION,
      device_internal::RunningBuiltins(),
      &__mc_dev_syncthreads,
      &__mc_dev_shared_variable,
      &__mc_dev_dynamic_shared,
      &device_internal::DeviceVprintf,
      &device_internal::DeviceMalloc,
      &device_internal::DeviceFree,
      &DeviceAssertFail,
      &DeviceTrap,
      &__mc_dev_syncthreads_predicate,
      &__mc_dev_wave_collective,
      &__mc_dev_trap,
      &__mc_dev_clock64,
      &__mc_dev_nanosleep,
      // Version 5: the grid barrier of cooperative launches.
      &__mc_dev_grid_sync,
      &__mc_dev_grid_is_cooperative,
      // Version 5: dynamic parallelism and the device runtime API.
      &device_internal::PushDeviceLaunchConfiguration,
      &device_internal::LaunchFromKernel,
      &device_internal::LaunchDevice,
      &device_internal::GetParameterBuffer,
      &device_internal::GetParameterBufferV2,
      &device_internal::LaunchDeviceV2,
      &device_internal::DeviceSynchronize,
      &device_internal::DeviceLastError,
      &device_internal::RecordDeviceError,
      &device_internal::DeviceGetLimit,
      &device_internal::DeviceGetDevice,
      &device_internal::DeviceGetAttribute,
      &device_internal::DeviceErrorText,
      &device_internal::IsGlobalPointer,
      // Version 6: streams and events in device code.
      &device_internal::DeviceStreamCreate,
      &device_internal::DeviceStreamDestroy,
      &device_internal::DeviceEventCreate,
      &device_internal::DeviceEventRecord,
      &device_internal::DeviceStreamWaitEvent,
      &device_internal::DeviceEventDestroy,
      &device_internal::DeviceStreamOrderWork,
  };
  return &table;
}

void FlushDevicePrintf() {
  size_t dropped = 0;
  const std::string text = DevicePrintfBuffer().Take(&dropped);
  // [lang.printf.call.output-on-host-stdout]. Every synchronizing call
  // comes here, most with nothing to write: stdout is flushed only for
  // output.
  if (!text.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
  if (dropped > 0) {
    std::fprintf(stderr,
                 "mxmaca: %zu device printf records were lost: the printf "
                 "buffer (mcLimitPrintfFifoSize) holds %zu bytes\n",
                 dropped, DevicePrintfBuffer().capacity());
  }
}

std::string TakeDevicePrintfOutput() { return DevicePrintfBuffer().Take(); }

size_t DroppedDevicePrintfRecords() { return DevicePrintfBuffer().dropped(); }

bool DevicePrintfWasUsed() { return DevicePrintfBuffer().used(); }

bool DeviceHeapWasUsed() { return TheDeviceHeap().used(); }

bool IsDeviceHeapAddress(const void* pointer) {
  return TheDeviceHeap().Contains(pointer);
}

void ResetDeviceState() {
  DevicePrintfBuffer().Take();
  DevicePrintfBuffer().ResetUse();
  TheDeviceHeap().Clear();
  TheDeviceHeap().ResetUse();
}

TrapPolicy GetTrapPolicy() {
  absl::MutexLock lock(&settings_mutex);
  return trap_policy;
}

void SetTrapPolicy(TrapPolicy policy) {
  absl::MutexLock lock(&settings_mutex);
  trap_policy = policy;
}

unsigned KernelTimeoutMilliseconds() {
  absl::MutexLock lock(&settings_mutex);
  return kernel_timeout_milliseconds;
}

bool SetKernelTimeoutMilliseconds(unsigned milliseconds) {
  // [api.env.kernel-timeout.values]
  if (milliseconds > kMaxKernelTimeoutMilliseconds) return false;
  absl::MutexLock lock(&settings_mutex);
  kernel_timeout_milliseconds = milliseconds;
  return true;
}

unsigned HangTimeoutSeconds() {
  absl::MutexLock lock(&settings_mutex);
  return hang_timeout_seconds;
}

bool SetHangTimeoutSeconds(unsigned seconds) {
  // [api.env.monitor-hang-timeout.values]
  if (seconds > kMaxHangTimeoutSeconds) return false;
  absl::MutexLock lock(&settings_mutex);
  hang_timeout_seconds = seconds;
  return true;
}

size_t FiberStackBytes() {
  absl::MutexLock lock(&settings_mutex);
  return fiber_stack_bytes;
}

bool SetFiberStackBytes(size_t bytes) {
  if (bytes < kMinFiberStackBytes || bytes > kMaxFiberStackBytes) return false;
  absl::MutexLock lock(&settings_mutex);
  fiber_stack_bytes = bytes;
  return true;
}

void SetGuardedStackBudget(size_t budget) {
  absl::MutexLock lock(&settings_mutex);
  guarded_stack_budget = budget;
  ++guarded_stack_budget_sets;
}

std::string ScheduleOrderSetting() { return CurrentScheduleOrder().Describe(); }

bool SetScheduleOrder(const std::string& setting) {
  absl::StatusOr<ScheduleOrder> parsed =
      device_internal::ParseScheduleOrder(setting, 0);
  if (!parsed.ok()) return false;
  absl::MutexLock lock(&settings_mutex);
  schedule_order = *parsed;
  return true;
}

size_t PrintfBufferBytes() { return DevicePrintfBuffer().capacity(); }

bool SetPrintfBufferBytes(size_t bytes) {
  if (bytes < kMinPrintfBufferBytes || bytes > kMaxPrintfBufferBytes) {
    return false;
  }
  // [lang.printf.fifo.sized-by-limit]
  return DevicePrintfBuffer().SetCapacity(bytes);
}

size_t DeviceHeapBytes() { return TheDeviceHeap().capacity(); }

bool SetDeviceHeapBytes(size_t bytes) {
  static_assert(kMinDeviceHeapBytes == 0, "only the maximum is checked");
  if (bytes > kMaxDeviceHeapBytes) return false;
  // [lang.malloc.heap.sized-by-limit]
  return TheDeviceHeap().SetCapacity(bytes);
}

void SetSharedMemoryChecked(bool checked) {
  shared_memory_checked.store(checked);
}

}  // namespace mxcts::device
