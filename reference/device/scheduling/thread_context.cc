// Copyright mxcts authors.
//
// The running thread's context pointer is a plain global: device images read
// it through the slot pointer they were bound with, on whatever OS thread
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

const __mc_thread_context* current_thread_context = nullptr;

}  // namespace

extern "C" {
// [lang.builtin.values-constant-during-thread] The slot never changes; the
// pointer it points at changes only when another device thread runs.
const __mc_thread_context* const* __mc_dev_context_slot =
    &current_thread_context;
}

namespace mxcts::device_internal {
namespace {

thread_local ActiveGrid* current_grid = nullptr;

}  // namespace

ActiveGrid* CurrentGrid() { return current_grid; }

void SetCurrentGrid(ActiveGrid* grid) { current_grid = grid; }

void SetCurrentThreadContext(const __mc_thread_context* context) {
  current_thread_context = context;
}

const __mc_thread_context* CurrentThreadContext() {
  return current_thread_context;
}

const __mc_thread_context* const* ThreadContextSlot() {
  return &current_thread_context;
}

void DieOutsideGrid(const char* what, const char* file, int line) {
  std::fprintf(stderr, "mxmaca: %s called outside device code at %s:%d\n", what,
               file != nullptr ? file : "<unknown>", line);
  std::abort();
}

}  // namespace mxcts::device_internal
