// Copyright mxcts authors.
//
// reference/device/scheduling/thread_context.h: what the device-side entry
// points know about the device thread that calls them.
//
// Device code reads its built-in variables (mcr/detail/device_abi.h) from one
// engine-owned __mc_thread_context, RunningBuiltins(): the block scheduler
// copies the running device thread's context there on every switch between
// device threads, so `threadIdx.x` costs two loads and no call.
//
// The entry points that device code calls (__syncthreads, shared variables,
// printf, traps) find the grid, block, barrier and shared arena of the
// calling thread through the ActiveGrid of the OS thread that runs the grid;
// outside a grid there is none.
//
//   ActiveGrid* grid = CurrentGrid();
//   if (grid == nullptr) DieOutsideGrid("__syncthreads()", file, line);
//   grid->barrier->Arrive(file, line);

#ifndef REFERENCE_DEVICE_SCHEDULING_THREAD_CONTEXT_H_
#define REFERENCE_DEVICE_SCHEDULING_THREAD_CONTEXT_H_

#include <stdint.h>

#include <string>
#include <string_view>

#include "mcr/detail/device_abi.h"
#include "mcr/mc_runtime_types.h"

namespace mxcts::device_internal {

class BlockBarrier;
class BlockScheduler;
class GridBarrier;
class NestedGrid;
class ScheduleOrder;
class SharedArena;
class WaveCollectives;

// The error and diagnostic of the trap that stopped a grid.
struct TrapRecord {
  mcError_t error = mcSuccess;
  std::string diagnostic;  // one line, ending in '\n'
};

// The grid that the calling OS thread is running, with its current block.
struct ActiveGrid {
  std::string_view kernel_name;
  BlockScheduler* block = nullptr;
  BlockBarrier* barrier = nullptr;
  WaveCollectives* waves = nullptr;
  SharedArena* arena = nullptr;
  // The grid barrier of a cooperative launch; null in any other grid.
  GridBarrier* grid_barrier = nullptr;
  // Says whether a faulting address lies in the arena's inaccessible memory
  // and what an access there overran (set by the engine, which knows the
  // arena's type). [lang.ub.memory.out-of-bounds-shared]
  bool (*describe_shared_fault)(const SharedArena* arena, uintptr_t address,
                                std::string* description) = nullptr;
  // The order the grid runs in; trap diagnostics name it.
  ScheduleOrder* order = nullptr;
  TrapRecord trap;
  // Dynamic parallelism (reference/device/nested): the grid's place in its
  // launch tree, and for a child grid the text trap diagnostics append,
  // "; in a child grid launched by kernel 'p' block (0,0,0) thread
  // (0,0,0)", one clause per ancestor.
  NestedGrid* nested = nullptr;
  std::string launch_chain;
};

// The calling OS thread's current grid (CurrentGrid). `__thread`, not
// `thread_local`: a pointer needs no dynamic initialization, and a
// `thread_local` declared extern is read through a wrapper call. The
// initial-exec model makes a lookup two loads and no call (a TLS
// descriptor's lookup is a call, and the frame a call needs): the runtime
// library is loaded with the program, and one loaded later still finds
// the C library's spare static TLS room for eight bytes.
extern __thread ActiveGrid* current_grid_of_os_thread
    __attribute__((tls_model("initial-exec")));

// The grid the calling OS thread runs now, or null outside RunGrid. Inline:
// every collective and device service looks it up.
inline ActiveGrid* CurrentGrid() { return current_grid_of_os_thread; }
// Makes `grid` (null: none) the calling OS thread's current grid.
void SetCurrentGrid(ActiveGrid* grid);

// Makes `context` the built-in variables that device code reads from now on
// (null: none, outside a grid; the built-ins then read zero).
void SetCurrentThreadContext(const __mc_thread_context* context);

// The engine-owned copy of the running thread's context that the built-in
// variables refer to; a device image binds its references to its fields.
const __mc_thread_context* RunningBuiltins();
// The same copy, for the block scheduler's thread walk, which writes each
// starting thread's threadIdx into it.
__mc_thread_context* WritableRunningBuiltins();

// Writes "mxmaca: <what> called outside device code at file:line" to stderr
// and aborts: a device-only entry point was called by host code.
[[noreturn]] void DieOutsideGrid(const char* what, const char* file, int line);

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_SCHEDULING_THREAD_CONTEXT_H_
