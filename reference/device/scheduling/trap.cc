// Copyright mxcts authors.
//
// A trap must not return into device code, and must not unwind through it
// either: device code is compiled without regard for exceptions, and the
// frames of every other suspended device thread would stay behind anyway.
// So the trap stores its diagnostic in the active grid, writes it, and has
// the block scheduler switch from the running fiber to the host fiber for
// good. The heap-owning locals of this frame are emptied before the switch,
// since the frame is never left.
//
// Tested by engine_test.cc and barrier_test.cc.

#include "reference/device/scheduling/trap.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "reference/device/scheduling/block_scheduler.h"
#include "reference/device/scheduling/schedule_order.h"
#include "reference/device/scheduling/thread_context.h"

namespace mxcts::device_internal {

std::string FormatIndex(uint3 index) {
  return absl::StrFormat("(%u,%u,%u)", index.x, index.y, index.z);
}

std::string FormatTrapDiagnostic(std::string_view kernel, uint3 block,
                                 uint3 thread, const std::string& message,
                                 const ScheduleOrder* order) {
  // [api.trap.diagnostic.content]
  std::string line =
      absl::StrFormat("mxmaca trap: kernel '%s' block %s thread %s: %s", kernel,
                      FormatIndex(block), FormatIndex(thread), message);
  if (order != nullptr && order->shuffled()) {
    absl::StrAppend(&line, " [MXCTS_ENGINE_ORDER=", order->Describe(), "]");
  }
  line.push_back('\n');
  return line;
}

void Trap(mcError_t error, std::string message) {
  ActiveGrid* grid = CurrentGrid();
  if (grid == nullptr || grid->block == nullptr) {
    std::fprintf(stderr, "mxmaca: trap outside of any grid: %s\n",
                 message.c_str());
    std::abort();
  }
  BlockScheduler& block = *grid->block;
  grid->trap.error = error;
  grid->trap.diagnostic =
      FormatTrapDiagnostic(grid->kernel_name, block.block_index(),
                           block.ThreadIndex(block.current_thread()),
                           message + grid->launch_chain, grid->order);
  std::string().swap(message);
  // [api.trap.diagnostic.printed-on-trap]
  std::fputs(grid->trap.diagnostic.c_str(), stderr);
  std::fflush(stderr);
  block.AbandonToHost();
}

}  // namespace mxcts::device_internal

extern "C" void __mc_dev_trap(int error, const char* message) {
  // [api.trap.cause.memory-violation] Checks compiled into device code (a
  // misaligned atomic) stop the grid with their own error.
  mxcts::device_internal::Trap(static_cast<mcError_t>(error),
                               message != nullptr ? message : "trap");
}
