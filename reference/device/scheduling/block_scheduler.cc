// Copyright mxcts authors.
//
// The scheduler's state is one state per thread (not waited yet, running
// after a wait, waiting, ready, exited), a record per thread that has
// waited (the fiber that holds it and where it waits), the walk it
// shares with the kernel's thread loop (the next unstarted thread, the
// running one) and the queue of ready threads. Until a thread first waits,
// nothing is written per thread but the walk and the built-in threadIdx:
// that is what makes a barrier-free block cost little more than its
// kernel's body. Its one decision,
// Dispatch, is taken by the fiber that gives up the processor:
//
//   1. a ready thread exists: switch to its fiber (first released, first);
//   2. else an unstarted thread exists: walk on (a free fiber walks itself;
//      a fiber that parked its thread starts a fresh walker);
//   3. else threads wait: no thread can ever release them, trap;
//   4. else every thread has exited: switch to the host.
//
// A free fiber (its thread exited) goes back on the block's idle list when
// it hands over; it is restarted from scratch when a walker is next needed,
// which is safe because nothing ever resumes its old context. All stacks
// return to the pool when the block ends, completed or abandoned.
//
// The built-in variables follow the current thread: Run writes the block's
// (blockIdx, blockDim, gridDim), the thread loop writes threadIdx as each
// thread starts, and whoever resumes a parked thread restores its
// threadIdx, kept in its record since it parked.
// [lang.builtin.values-constant-during-thread]
//
// Tested by block_scheduler_test.cc and engine_test.cc.

#include "reference/device/scheduling/block_scheduler.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "reference/device/scheduling/fault_traps.h"
#include "reference/device/scheduling/thread_context.h"
#include "reference/device/scheduling/trap.h"

namespace mxcts::device_internal {

BlockScheduler::RecycledVectors& BlockScheduler::Recycled() {
  // One thread-local for the three, read once by a block's setup and once
  // by its teardown: each read of a thread-local of a shared library is a
  // call of __tls_get_addr.
  static thread_local RecycledVectors recycled;
  return recycled;
}

Fiber* BlockScheduler::TakeFiber() {
  if (fibers_used_ == fibers_.size()) {
    fibers_.push_back(std::make_unique<Fiber>());
  }
  return fibers_[fibers_used_++].get();
}

BlockScheduler::BlockScheduler(const device::GridLaunch& launch,
                               uint3 block_index, StackPool* stacks,
                               ScheduleOrder* order)
    : launch_(launch),
      block_index_(block_index),
      stacks_(stacks),
      order_(order) {
  const dim3 block = launch.block;
  // The vectors of the previous block of this OS thread are reused: a
  // fresh allocation of a large block's records comes from new pages, and
  // faulting them in costs more than running the threads. Only the states
  // are reset; a record is written when its thread first waits.
  RecycledVectors& recycled = Recycled();
  states_.swap(recycled.states);
  records_.swap(recycled.records);
  fibers_.swap(recycled.fibers);
  thread_count_ = block.x * block.y * block.z;
  states_.assign(thread_count_, ThreadState::kNotWaited);
  if (records_.size() < thread_count_) records_.resize(thread_count_);
  walk_.owner = this;
  walk_.abi.builtins = WritableRunningBuiltins();
  walk_.abi.count = thread_count_;
  walk_.abi.timeout_pending = KernelTimeoutPending();
  walk_.abi.poll_timeout = &PollKernelTimeout;
  BeginWalk();
}

void BlockScheduler::BeginWalk() {
  walk_.abi.next = 0;
  walk_.abi.current = 0;
  walk_.abi.thread_exited = nullptr;
  // Nothing per thread is set up here (threadIdx is written as each thread
  // starts): most threads of most kernels start and exit without ever
  // waiting, and a block of a large grid is set up thousands of times.
  // (The linear order's start order is empty: asked only when shuffled.)
  if (order_ != nullptr && order_->shuffled()) {
    start_order_ = order_->ThreadStartOrder(thread_count_);
  }
  // Threads that start out of linear order do not follow the rule that
  // tells exited threads from unstarted ones.
  if (!start_order_.empty()) BeginRecording(0);
}

void BlockScheduler::PrepareForBlock(uint3 block_index) {
  block_index_ = block_index;
  // A block that recorded no thread's state left every state as it began.
  if (recording_every_thread_) {
    std::fill(states_.begin(), states_.begin() + thread_count_,
              ThreadState::kNotWaited);
  }
  recording_every_thread_ = false;
  // The stacks go back to the pool as when a scheduler ends, but for a lone
  // walker's guarded stack: the pool, last in first out, would give it to
  // the next Run (an unguarded one would get its canary written again).
  if (fibers_used_ != 1 || !fibers_[0]->stack().guarded) {
    for (size_t i = 0; i < fibers_used_; ++i) {
      stacks_->Release(fibers_[i]->stack());
    }
    fibers_used_ = 0;
  }
  idle_fibers_.clear();
  waiting_count_ = 0;
  grid_waiting_count_ = 0;
  suspended_ = false;
  exited_count_ = 0;
  first_exited_ = 0;
  ready_.clear();
  ready_head_ = 0;
  ready_range_next_ = 0;
  ready_range_end_ = 0;
  host_ = nullptr;
  running_fiber_ = nullptr;
  completed_ = false;
  observer_ = nullptr;
  parks_observed_ = false;
  BeginWalk();
}

BlockScheduler::~BlockScheduler() {
  RecycledVectors& recycled = Recycled();
  if (states_.capacity() > recycled.states.capacity()) {
    states_.swap(recycled.states);
  }
  if (records_.capacity() > recycled.records.capacity()) {
    records_.swap(recycled.records);
  }
  for (size_t i = 0; i < fibers_used_; ++i) {
    stacks_->Release(fibers_[i]->stack());
  }
  if (fibers_.size() > recycled.fibers.size()) fibers_.swap(recycled.fibers);
}

uint3 BlockScheduler::ThreadIndex(unsigned linear) const {
  const dim3 block = launch_.block;
  return uint3{linear % block.x, linear / block.x % block.y,
               linear / block.x / block.y};
}

Fiber* BlockScheduler::StartWalker(Fiber* host) {
  host_ = host;
  Fiber* walker;
  if (fibers_used_ == 1) {
    // The previous block's walker, kept with its stack (PrepareForBlock).
    walker = fibers_[0].get();
    walker->Start(walker->stack(), &BlockScheduler::WalkerBody, this);
  } else {
    absl::StatusOr<Stack> stack = stacks_->Acquire();
    if (!stack.ok()) {
      // Nothing runs yet, so there is no fiber to trap on: record it here.
      ActiveGrid* grid = CurrentGrid();
      grid->trap.error = mcErrorLaunchOutOfResources;
      grid->trap.diagnostic =
          FormatTrapDiagnostic(grid->kernel_name, block_index_, ThreadIndex(0),
                               std::string(stack.status().message()), order_);
      std::fputs(grid->trap.diagnostic.c_str(), stderr);
      return nullptr;
    }
    walker = TakeFiber();
    walker->Start(*stack, &BlockScheduler::WalkerBody, this);
  }
  running_fiber_ = walker;
  EnterBlock();
  return walker;
}

bool BlockScheduler::BackOnHost() {
  SetCurrentThreadContext(nullptr);
  return completed_;
}

void BlockScheduler::EnterBlock() {
  // The block's built-ins; each thread's threadIdx is written as it starts
  // or resumes, and reads zero until then (a trap before the first start
  // names thread 0).
  __mc_thread_context* builtins = walk_.abi.builtins;
  builtins->threadIdx = uint3{0, 0, 0};
  builtins->blockIdx = block_index_;
  builtins->blockDim = launch_.block;
  builtins->gridDim = launch_.grid;
}

bool BlockScheduler::Resume(Fiber* host) {
  if (!suspended_ || NoThreadReady()) {
    std::fputs("mxmaca: internal error: resuming a block with nothing to run\n",
               stderr);
    std::abort();
  }
  host_ = host;
  suspended_ = false;
  EnterBlock();
  // The thread resumes in its Yield, current already.
  const unsigned next = TakeReadyThread();
  Fiber* target = records_[next].fiber;
  states_[next] = ThreadState::kRunning;
  MakeCurrent(next, records_[next].index);
  running_fiber_ = target;
  Fiber::Switch(host, target);
  SetCurrentThreadContext(nullptr);
  return completed_;
}

Fiber* BlockScheduler::Suspend(Fiber* self, bool self_free) {
  suspended_ = true;
  // A free fiber is restarted from scratch when a walker is next needed;
  // one that holds a parked thread resumes in Dispatch when the thread is
  // next.
  if (self_free) idle_fibers_.push_back(self);
  return host_;
}

void BlockScheduler::WalkerBody(Fiber* self) {
  static_cast<BlockScheduler*>(self->argument())->Walk(self);
}

void BlockScheduler::Walk(Fiber* self) {
  for (;;) {
    // [api.trap.error.timeout] A timeout that expired while engine code ran
    // (between blocks, or before this walker started). The handler sets the
    // flag with the expiry, so a clear flag means nothing to poll.
    if (kernel_timeout_pending != 0) PollKernelTimeout();
    // A thread that waits keeps this fiber and the frames of the loop that
    // started it; when it resumes and returns, the same loop starts the
    // next unstarted thread, if any.
    if (!start_order_.empty()) {
      RunThreadsInStartOrder(self);
    } else if (launch_.run_threads != nullptr) {
      launch_.run_threads(launch_.args, &walk_.abi);
    } else {
      RunThreadsByEntry();
    }
    Dispatch(self, /*self_free=*/true);
  }
}

void BlockScheduler::RunThreadsByEntry() {
  // [api.trap.error.timeout] The loop polls a timeout that expired
  // elsewhere at each thread start.
  __mc_walk_threads(&walk_.abi, [this] { launch_.entry(launch_.args); });
}

void BlockScheduler::RunThreadsInStartOrder(Fiber* self) {
  while (walk_.abi.next < thread_count_) {
    const unsigned thread = start_order_[walk_.abi.next++];
    records_[thread].fiber = self;
    Enter(thread, ThreadIndex(thread));
    launch_.entry(launch_.args);
    // The thread returned from the kernel. It may have waited and resumed
    // in between, always on this fiber.
    RecordExit(thread);
  }
}

void BlockScheduler::RecordEveryThread() {
  if (recording_every_thread_) return;
  if (InFastPhase()) {
    const unsigned running = FastPhaseThread();
    walk_.abi.current = running;
    walk_.abi.next = running + 1;
  }
  // Until now threads started in linear order and none waited, so every
  // thread below the running one has exited, first thread 0.
  BeginRecording(walk_.abi.current);
}

void BlockScheduler::BeginRecording(unsigned exited) {
  recording_every_thread_ = true;
  walk_.abi.thread_exited = &BlockScheduler::OnWalkThreadExited;
  for (unsigned thread = 0; thread < exited; ++thread) {
    states_[thread] = ThreadState::kExited;
  }
  exited_count_ = exited;
  first_exited_ = 0;
}

void BlockScheduler::OnWalkThreadExited(__mc_thread_walk* walk) {
  // `abi` is the first member of a ThreadWalk.
  ThreadWalk* owned = reinterpret_cast<ThreadWalk*>(walk);
  owned->owner->RecordExit(walk->current);
}

void BlockScheduler::RecordExit(unsigned thread) {
  states_[thread] = ThreadState::kExited;
  if (exited_count_++ == 0) first_exited_ = thread;
  if (observer_ != nullptr) observer_->OnThreadExited(thread);
}

void BlockScheduler::SetObserver(ThreadEventObserver* observer) {
  // An observer hears of exits, so they must be recorded from now on.
  if (observer != nullptr) RecordEveryThread();
  observer_ = observer;
  parks_observed_ = observer != nullptr;
}

void BlockScheduler::DieReleasingNonWaiter(unsigned thread) {
  std::fprintf(stderr,
               "mxmaca: internal error: releasing thread %u of a "
               "block, which does not wait\n",
               thread);
  std::abort();
}

void BlockScheduler::MakeEveryThreadReady() {
  // Every thread waits, so every thread released before has resumed and
  // none is ready: the ready queue is empty. The thread to blame is
  // searched for only when the check fails.
  if (!NoThreadReady() || !AllWaitInBlock(0, thread_count_)) {
    unsigned blamed = 0;
    while (blamed + 1 < thread_count_ &&
           states_[blamed] == ThreadState::kWaiting) {
      ++blamed;
    }
    DieReleasingNonWaiter(blamed);
  }
  std::fill(states_.begin(), states_.begin() + thread_count_,
            ThreadState::kReady);
  waiting_count_ -= thread_count_;
  ready_range_next_ = 0;
  ready_range_end_ = thread_count_;
}

Fiber* BlockScheduler::DispatchWithNothingReady(Fiber* self, bool self_free) {
  if (walk_.abi.next < thread_count_) {
    if (self_free) return nullptr;  // The caller walks on.
    return NewWalker();
  }
  // [api.coop.grid.sync-across-blocks] Every thread left waits for the
  // other blocks of a cooperative grid. With exited threads the grid
  // barrier can never complete: that is a stall.
  if (waiting_count_ > 0 && waiting_count_ == grid_waiting_count_ &&
      exited_count_ == 0) {
    // Dispatch switches to the host; Resume switches back.
    return Suspend(self, self_free);
  }
  if (waiting_count_ > 0) ReportStall();
  // [model.exec.grid-complete-when-all-threads-exit] for this block.
  completed_ = true;
  running_fiber_ = host_;
  Fiber::Switch(self, host_);
  std::fputs("mxmaca: internal error: a finished block resumed\n", stderr);
  std::abort();
}

void BlockScheduler::TrapStackOverflow(const Stack& stack) {
  Trap(mcErrorLaunchFailure,
       absl::StrFormat(
           "stack overflow: the thread's calls need more than its %u-byte "
           "stack (mcLimitStackSize plus the engine's reserve) and "
           "overwrote the canary at its bottom (this grid has more waiting "
           "threads than stacks with guard pages)",
           stack.size));
}

Fiber* BlockScheduler::NewWalker() {
  Fiber* walker;
  if (!idle_fibers_.empty()) {
    walker = idle_fibers_.back();
    idle_fibers_.pop_back();
  } else {
    absl::StatusOr<Stack> stack = stacks_->Acquire();
    if (!stack.ok()) {
      std::string message(stack.status().message());
      stack = Stack();  // The trap never returns to free the status.
      Trap(mcErrorLaunchOutOfResources, std::move(message));
    }
    walker = TakeFiber();
    walker->Start(*stack, &BlockScheduler::WalkerBody, this);
    return walker;
  }
  walker->Start(walker->stack(), &BlockScheduler::WalkerBody, this);
  return walker;
}

void BlockScheduler::ReportStall() {
  unsigned first_waiting = 0;
  while (!IsWaiting(first_waiting)) ++first_waiting;
  // The diagnostic names a waiting thread; the trap still leaves from the
  // fiber that runs now.
  Enter(first_waiting, ThreadIndex(first_waiting));
  const WaitSite& site = *records_[first_waiting].wait;
  // What the observer knows about the waits (wave collectives' groups).
  std::string detail =
      observer_ != nullptr ? observer_->DescribeStall() : std::string();
  if (!detail.empty()) detail.insert(0, "; ");
  if (exited_count_ > 0) {
    // [lang.sync.syncthreads.exited-threads-undefined]
    Trap(mcErrorLaunchFailure,
         absl::StrFormat(
             "barrier skipped by exiting threads: %u of %u threads wait in "
             "%s at %s:%d, but %u threads have exited without reaching it "
             "(the first: thread %s)%s",
             waiting_count_, thread_count(), site.operation, site.file,
             site.line, exited_count_, FormatIndex(ThreadIndex(first_exited_)),
             detail));
  }
  Trap(mcErrorLaunchFailure,
       absl::StrFormat("deadlock: %u of %u threads wait (this one in %s at "
                       "%s:%d) and no thread of the block can continue%s",
                       waiting_count_, thread_count(), site.operation,
                       site.file, site.line, detail));
}

void BlockScheduler::AbandonCurrentThread() {
  RecordEveryThread();
  Fiber* self = running_fiber_;
  RecordExit(walk_.abi.current);
  // `self` holds the thread's frames, which are never resumed: it cannot
  // walk on itself, so unstarted threads get a fresh walker. Either way
  // `self` goes idle and is restarted from scratch when next needed.
  if (NoThreadReady() && walk_.abi.next < thread_count_) {
    Fiber* walker = NewWalker();
    idle_fibers_.push_back(self);
    running_fiber_ = walker;
    Fiber::Switch(self, walker);
  } else {
    Dispatch(self, /*self_free=*/true);
  }
  std::fputs("mxmaca: internal error: an abandoned thread resumed\n", stderr);
  std::abort();
}

void BlockScheduler::AbandonToHost() {
  completed_ = false;
  Fiber* from = running_fiber_;
  running_fiber_ = host_;
  Fiber::Switch(from, host_);
  std::fputs("mxmaca: internal error: an abandoned block resumed\n", stderr);
  std::abort();
}

}  // namespace mxcts::device_internal
