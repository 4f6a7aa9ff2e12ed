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

#include "reference/device/collectives/barrier.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "absl/strings/str_format.h"
#include "reference/device/scheduling/thread_context.h"
#include "reference/device/scheduling/trap.h"

namespace mxcts::device_internal {
namespace {

// Whether call-site file names `file` (null: unknown) and `site_file` name
// the same file; for arrivals whose pointer differs from the phase's.
bool SameFile(const char* file, const char* site_file) {
  return std::strcmp(file != nullptr ? file : "<unknown>", site_file) == 0;
}

}  // namespace

void BlockBarrier::Arrive(const char* file, int line) {
  ArriveAs<false>(Kind::kPlain, 0, file, line);
}

int BlockBarrier::Arrive(Kind kind, int predicate, const char* file, int line) {
  return ArriveAs<true>(kind, predicate, file, line);
}

template <bool kPredicated>
int BlockBarrier::ArriveAs(Kind kind, int predicate, const char* file,
                           int line) {
  if (arrived_ == 0) {
    if (file == nullptr) file = "<unknown>";
    site_ = WaitSite{OperationName(kind), file, line};
    kind_ = kind;
    nonzero_predicates_ = 0;
    first_arrival_ = block_->current_thread();
    // Every thread of the phase waits at the phase's site: the parked
    // threads share the barrier's copy, which stays until all are released.
    block_->ParkCurrent(site_);
  } else {
    if (line != site_.line || kind != kind_ ||
        (file != site_.file && !SameFile(file, site_.file))) {
      // One call site passes the same literal every time: pointers are
      // compared first, text only when they differ (one file's name may be
      // spelled by several literals).
      TrapDifferentBarriers(kind, file != nullptr ? file : "<unknown>", line);
    }
    // The phase's first arrival parked: the block records every thread.
    block_->ParkCurrentAfterOthers(site_);
  }
  ++arrived_;
  if (kPredicated && predicate != 0) ++nonzero_predicates_;
  // [lang.sync.syncthreads.waits-for-whole-block]
  if (arrived_ == block_->thread_count()) CompletePhase();
  block_->Yield();
  if (!kPredicated || kind == Kind::kPlain) return 0;
  // Current again: whoever resumed this thread made it so.
  return results_[block_->current_thread()];
}

void BlockBarrier::CompletePhase() {
  // [lang.sync.syncthreads-predicate.same-result-for-all]
  ReleasePhase(PhaseResult());
  arrived_ = 0;
  // [lang.sync.syncthreads.repeated-use] A new phase begins.
  ++completed_phases_;
}

void BlockBarrier::ReleasePhase(int result) {
  const unsigned count = block_->thread_count();
  if (kind_ != Kind::kPlain) {
    if (results_.empty()) results_.resize(count, 0);
    std::fill(results_.begin(), results_.end(), result);
  }
  // Every thread of the block waits, so in linear order the release order
  // is simply 0, 1, ..., n-1.
  ScheduleOrder* order = block_->order();
  if (order == nullptr || !order->shuffled()) {
    block_->MakeEveryThreadReady();
    return;
  }
  std::vector<unsigned> threads(count);
  std::iota(threads.begin(), threads.end(), 0u);
  block_->MakeReadyInScheduleOrder(&threads);
}

void BlockBarrier::TrapDifferentBarriers(Kind kind, const char* file,
                                         int line) const {
  // [lang.sync.syncthreads.different-call-sites-undefined]
  // [lang.sync.syncthreads.divergent-condition-undefined]
  // [lang.sync.syncthreads-predicate.mixed-variants-undefined]
  Trap(mcErrorLaunchFailure,
       absl::StrFormat(
           "threads of the block wait at different barriers: this thread "
           "arrived at %s at %s:%d, while %u threads (the first: thread %s) "
           "wait at %s at %s:%d",
           OperationName(kind), file, line, arrived_,
           FormatIndex(block_->ThreadIndex(first_arrival_)), site_.operation,
           site_.file, site_.line));
}

int BlockBarrier::PhaseResult() const {
  const unsigned arrived = arrived_;
  switch (kind_) {
    case Kind::kPlain:
      return 0;
    case Kind::kCount:
      // [lang.sync.syncthreads-count.returns-nonzero-count]
      return static_cast<int>(nonzero_predicates_);
    case Kind::kAnd:
      // [lang.sync.syncthreads-and.returns-all]
      return nonzero_predicates_ == arrived ? 1 : 0;
    case Kind::kOr:
      // [lang.sync.syncthreads-or.returns-any]
      return nonzero_predicates_ > 0 ? 1 : 0;
  }
  return 0;
}

}  // namespace mxcts::device_internal

// A tail call of Arrive: merging the two into one frame made each barrier
// slower on the processor it was measured on (design.md, "What a parked
// thread costs the processor").
extern "C" void __mc_dev_syncthreads(const char* file, int line) {
  using namespace mxcts::device_internal;
  ActiveGrid* grid = CurrentGrid();
  // No compiled program gets here outside a grid: mxcc's host pass rejects
  // a host call of __syncthreads() (mcr/detail/device_abi.h implements
  // lang.sync.syncthreads.device-code-only; the must-not-compile tests of
  // conformance/language/synchronization check it). This only guards the
  // engine against another caller of its ABI, as in the predicate variants.
  if (grid == nullptr || grid->barrier == nullptr) {
    DieOutsideGrid("__syncthreads()", file, line);
  }
  grid->barrier->Arrive(file, line);
}

extern "C" int __mc_dev_syncthreads_predicate(int kind, int predicate,
                                              const char* file, int line) {
  using namespace mxcts::device_internal;
  ActiveGrid* grid = CurrentGrid();
  if (grid == nullptr || grid->barrier == nullptr) {
    DieOutsideGrid("__syncthreads_count/_and/_or()", file, line);
  }
  if (kind < __MC_BARRIER_COUNT || kind > __MC_BARRIER_OR) {
    Trap(mcErrorLaunchFailure,
         absl::StrFormat("invalid barrier kind %d at %s:%d", kind,
                         file != nullptr ? file : "<unknown>", line));
  }
  return grid->barrier->Arrive(static_cast<BlockBarrier::Kind>(kind), predicate,
                               file, line);
}
