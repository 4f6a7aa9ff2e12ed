// Copyright mxcts authors.
//
// Runtime initialization and the device-level operations that span several
// runtime objects. The Runtime object is created on first use and never
// destroyed, so calls made while the process exits (from other static
// destructors) still find it; pending device printf output is written by an
// exit handler registered at initialization.
//
// Tested by the api/*_test.cc files.

#include "reference/runtime/process/runtime.h"

#include "absl/synchronization/mutex.h"
#include "reference/device/engine.h"
#include "reference/logging/log.h"
#include "reference/runtime/binary_cache/process_binary_cache.h"
#include "reference/runtime/environment/environment_settings.h"
#include "reference/runtime/host_thread/thread_state.h"
#include "reference/runtime/images/image_registry.h"
#include "reference/runtime/ipc/memory_imports.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/modules/loading_mode.h"
#include "reference/runtime/modules/module_table.h"
#include "reference/runtime/peer/peer_access.h"
#include "reference/runtime/pools/pool_table.h"
#include "reference/runtime/process/mps_mode.h"
#include "reference/runtime/timeline/event.h"
#include "reference/runtime/timeline/stream.h"
#include "reference/runtime/timeline/timeline.h"
#include "reference/runtime/traps/trap_environment.h"

namespace mxcts::runtime {

namespace {
// Settles the process-wide modes before the device table is made: the
// trap variables are in force before any allocation, whichever layer makes
// the table first, and MACA_MPS_MODE is read with them.
// [api.env.general.read-at-initialization]
void InitializeProcess() {
#ifdef NDEBUG
  // The system's absl is built with its deadlock detection on, which
  // quadruples the cost of every lock an entry point takes. Optimized
  // builds of the runtime turn it off; test builds (no NDEBUG) keep it, so
  // the tests still catch lock-order inversions.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
#endif
  // Every variable of table 4.1 at once: the log's level, then the
  // settings, whose warnings and debug lines come first in the log.
  // [api.env.general.read-at-initialization]
  // [api.log.level.read-at-initialization]
  logging::CurrentLogLevel();
  ProcessEnvironment();
  ApplyTrapEnvironment(ReadTrapEnvironment());
  // [api.mps.mode.values]
  ProcessMpsMode();
  // [api.cache.disable.read-at-initialization]: the cache variables are
  // read now, whatever compiles first.
  __mc_internal::ProcessBinaryCache();
  // MACA_MODULE_LOADING too, whatever loads first, so that its warning and
  // its setting come with the others.
  ModuleLoadingMode();
}

// Registered while the runtime is loaded, before any entry point runs.
[[maybe_unused]] const bool process_initializer_registered = [] {
  DeviceTable::SetProcessInitializer(&InitializeProcess);
  return true;
}();
}  // namespace

Runtime& Runtime::Get() {
  static Runtime* runtime = new Runtime;
  return *runtime;
}

Runtime::Runtime() : devices_(DeviceTable::Get()) {}

void Runtime::ResetDevice(Device& device) {
  // [api.device.reset.waits-for-pending-work] (work of a faulted device is
  // skipped, not run).
  Timeline& timeline = Timeline::Get();
  timeline.RunDevice(device.ordinal());
  SynchronizationPoint();
  timeline.TakePendingError(device.ordinal());
  // [api.event.destroy.device-reset-destroys]
  EventTable::Get().DestroyAll(device.ordinal());
  // [api.peer.enable.persists-until-disabled]: access from and to the
  // device ends.
  ResetPeerAccess(device.ordinal());
  // [api.pool.destroy.deferred-release]: a reset ends every stream-ordered
  // allocation of the device, and its explicit pools.
  PoolTable::Get().ResetDevice(device.ordinal());
  // Mappings of other processes' memory of the device go; its exported
  // allocations go with its allocations, which closes their files.
  MemoryImports::Get().ReleaseDevice(device.ordinal());
  MemoryManager::Get().ReleaseDevice(device.ordinal());
  StreamTable::Get().DestroyAll(device.ordinal());
  // [api.module.context.loaded-per-device] Its modules are unloaded.
  ModuleTable::Get().UnloadDevice(device.ordinal());
  ImageRegistry::Get().ResetDevice(device.ordinal());
  // [lang.malloc.lifetime.released-by-device-reset] The engine's heap and
  // printf buffer are shared by the simulated devices, so resetting any
  // device releases the heap of all (printf output was flushed before).
  mxcts::device::ResetDeviceState();
  device.ClearFault();
}

}  // namespace mxcts::runtime
