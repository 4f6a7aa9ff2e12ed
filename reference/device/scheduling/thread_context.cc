// Copyright mxcts authors.
//
// The running thread's built-in variables are a plain global: device images
// read them through the address they were bound with, on whatever OS thread
// runs the grid, and only one grid runs at a time (RunGrid serializes them).
// The active grid, in contrast, is per OS thread, so that a host thread that
// calls a device-only function while another thread runs a grid is told so
// instead of disturbing that grid.
//
// Tested by engine_test.cc.

#include "reference/device/scheduling/thread_context.h"

#include <cstdio>
#include <cstdlib>

namespace {

// [lang.builtin.values-constant-during-thread] Rewritten only when another
// device thread runs; zero outside a grid.
__mc_thread_context running_builtins = {};

}  // namespace

// Host code that names a built-in (the host path of a __host__ __device__
// function, engine tests) reads the same storage.
const __mc_builtin_index& threadIdx =
    reinterpret_cast<const __mc_builtin_index&>(running_builtins.threadIdx);
const __mc_builtin_index& blockIdx =
    reinterpret_cast<const __mc_builtin_index&>(running_builtins.blockIdx);
const __mc_builtin_extent& blockDim =
    reinterpret_cast<const __mc_builtin_extent&>(running_builtins.blockDim);
const __mc_builtin_extent& gridDim =
    reinterpret_cast<const __mc_builtin_extent&>(running_builtins.gridDim);

namespace mxcts::device_internal {

__thread ActiveGrid* current_grid_of_os_thread = nullptr;

void SetCurrentGrid(ActiveGrid* grid) { current_grid_of_os_thread = grid; }

void SetCurrentThreadContext(const __mc_thread_context* context) {
  running_builtins = context != nullptr ? *context : __mc_thread_context{};
}

const __mc_thread_context* RunningBuiltins() { return &running_builtins; }

__mc_thread_context* WritableRunningBuiltins() { return &running_builtins; }

void DieOutsideGrid(const char* what, const char* file, int line) {
  std::fprintf(stderr, "mxmaca: %s called outside device code at %s:%d\n", what,
               file != nullptr ? file : "<unknown>", line);
  std::abort();
}

}  // namespace mxcts::device_internal
