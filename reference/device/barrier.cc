// Copyright mxcts authors.
//
// The barrier records who waits and where; the block scheduler parks and
// resumes the threads. Arrival parks the thread first and releases the phase
// if it was the last one, then yields: with a released phase the scheduler
// resumes the released threads in linear order, the arriving one among them;
// otherwise it walks on to the next thread that has not arrived.
//
// Call sites compare by file name text and line, not by pointer, because one
// file's name may be spelled by several string literals.
//
// Tested by barrier_test.cc.

#include "reference/device/barrier.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_format.h"
#include "reference/device/thread_context.h"
#include "reference/device/trap.h"

namespace mxcts::device_internal {
namespace {

constexpr char kSyncthreads[] = "__syncthreads()";

bool SameSite(const WaitSite& a, const WaitSite& b) {
  return a.line == b.line && std::strcmp(a.file, b.file) == 0;
}

}  // namespace

void BlockBarrier::Arrive(const char* file, int line) {
  const WaitSite here{kSyncthreads, file != nullptr ? file : "<unknown>", line};
  const unsigned self = block_->current_thread();
  if (waiting_.empty()) {
    site_ = here;
  } else if (!SameSite(site_, here)) {
    // [lang.sync.syncthreads.different-call-sites-undefined]
    // [lang.sync.syncthreads.divergent-condition-undefined]
    Trap(mcErrorLaunchFailure,
         absl::StrFormat(
             "threads of the block wait at different barriers: this thread "
             "arrived at %s at %s:%d, while %u threads (the first: thread %s) "
             "wait at %s at %s:%d",
             kSyncthreads, here.file, here.line, waiting_.size(),
             FormatIndex(block_->ThreadIndex(waiting_.front())), kSyncthreads,
             site_.file, site_.line));
  }
  block_->ParkCurrent(here);
  waiting_.push_back(self);
  // [lang.sync.syncthreads.waits-for-whole-block]
  if (waiting_.size() == block_->thread_count()) {
    std::sort(waiting_.begin(), waiting_.end());
    for (unsigned thread : waiting_) block_->MakeReady(thread);
    waiting_.clear();
    // [lang.sync.syncthreads.repeated-use] A new phase begins.
    ++completed_phases_;
  }
  block_->Yield();
}

}  // namespace mxcts::device_internal

extern "C" void __mc_dev_syncthreads(const char* file, int line) {
  using namespace mxcts::device_internal;
  ActiveGrid* grid = CurrentGrid();
  // [lang.sync.syncthreads.device-code-only]
  if (grid == nullptr || grid->barrier == nullptr) {
    DieOutsideGrid("__syncthreads()", file, line);
  }
  grid->barrier->Arrive(file, line);
}
