// Copyright mxcts authors.
//
// The scheduler's state is one record per thread (unstarted, running,
// waiting, ready, exited; the fiber that holds it), the index of the next
// unstarted thread, and the queue of ready threads. Its one decision,
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
// The built-in variables follow the current thread: Enter sets the context
// pointer whenever a different thread starts or resumes.
// [lang.builtin.values-constant-during-thread]
//
// Tested by block_scheduler_test.cc and engine_test.cc.

#include "reference/device/scheduling/block_scheduler.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "reference/device/scheduling/fault_traps.h"
#include "reference/device/scheduling/thread_context.h"
#include "reference/device/scheduling/trap.h"

namespace mxcts::device_internal {

std::vector<BlockScheduler::ThreadRecord>& BlockScheduler::RecycledRecords() {
  static thread_local std::vector<ThreadRecord> records;
  return records;
}

BlockScheduler::BlockScheduler(const device::GridLaunch& launch,
                               uint3 block_index, StackPool* stacks,
                               ScheduleOrder* order)
    : launch_(launch),
      block_index_(block_index),
      stacks_(stacks),
      order_(order) {
  const dim3 block = launch.block;
  // The records of the previous block of this OS thread are reused: a
  // fresh allocation of a large block's records comes from new pages, and
  // faulting them in costs more than running the threads.
  threads_.swap(RecycledRecords());
  thread_count_ = block.x * block.y * block.z;
  if (threads_.size() < thread_count_) threads_.resize(thread_count_);
  for (unsigned thread = 0; thread < thread_count_; ++thread) {
    threads_[thread].state = ThreadState::kUnstarted;
  }
  // Each thread's built-in variables are filled in when it starts (Walk):
  // most threads of most kernels start and exit without ever waiting, and a
  // block of a large grid is set up thousands of times.
  if (order_ != nullptr) {
    start_order_ = order_->ThreadStartOrder(thread_count_);
  }
}

BlockScheduler::~BlockScheduler() {
  if (threads_.capacity() > RecycledRecords().capacity()) {
    threads_.swap(RecycledRecords());
  }
  for (const std::unique_ptr<Fiber>& fiber : fibers_) {
    stacks_->Release(fiber->stack());
  }
}

uint3 BlockScheduler::ThreadIndex(unsigned linear) const {
  const dim3 block = launch_.block;
  return uint3{linear % block.x, linear / block.x % block.y,
               linear / block.x / block.y};
}

bool BlockScheduler::Run(Fiber* host) {
  host_ = host;
  absl::StatusOr<Stack> stack = stacks_->Acquire();
  ActiveGrid* grid = CurrentGrid();
  if (!stack.ok()) {
    // Nothing runs yet, so there is no fiber to trap on: record it here.
    grid->trap.error = mcErrorLaunchOutOfResources;
    grid->trap.diagnostic =
        FormatTrapDiagnostic(*grid->kernel_name, block_index_, ThreadIndex(0),
                             std::string(stack.status().message()), order_);
    std::fputs(grid->trap.diagnostic.c_str(), stderr);
    return false;
  }
  fibers_.push_back(std::make_unique<Fiber>());
  Fiber* walker = fibers_.back().get();
  walker->Start(*stack, &BlockScheduler::WalkerBody, this);
  running_fiber_ = walker;
  Fiber::Switch(host, walker);
  // Back on the host: every thread exited, or a trap abandoned the block.
  SetCurrentThreadContext(nullptr);
  return completed_;
}

void BlockScheduler::WalkerBody(Fiber* self) {
  static_cast<BlockScheduler*>(self->argument())->Walk(self);
}

void BlockScheduler::Walk(Fiber* self) {
  for (;;) {
    while (next_unstarted_ < thread_count_) {
      unsigned thread;
      uint3 index;
      if (start_order_.empty()) {
        // [model.exec.linear-thread-id] x varies fastest, then y, then z;
        // counted up rather than divided out, once per thread.
        thread = next_unstarted_++;
        index = next_linear_index_;
        if (++next_linear_index_.x == launch_.block.x) {
          next_linear_index_.x = 0;
          if (++next_linear_index_.y == launch_.block.y) {
            next_linear_index_.y = 0;
            ++next_linear_index_.z;
          }
        }
      } else {
        thread = start_order_[next_unstarted_++];
        index = ThreadIndex(thread);
      }
      ThreadRecord& record = threads_[thread];
      // Positional: device_abi.h makes the member names macros.
      record.context =
          __mc_thread_context{index, block_index_, launch_.block, launch_.grid};
      record.state = ThreadState::kRunning;
      record.fiber = self;
      Enter(thread);
      launch_.entry(launch_.args);
      // The thread returned from the kernel. It may have waited and resumed
      // in between, always on this fiber.
      threads_[thread].state = ThreadState::kExited;
      threads_[thread].fiber = nullptr;
      if (exited_count_++ == 0) first_exited_ = thread;
      if (observer_ != nullptr) observer_->OnThreadExited(thread);
    }
    Dispatch(self, /*self_free=*/true);
  }
}

void BlockScheduler::Enter(unsigned thread) {
  current_ = thread;
  SetCurrentThreadContext(&threads_[thread].context);
  // [api.trap.error.timeout] A timeout that expired while engine code ran.
  PollKernelTimeout();
}

void BlockScheduler::ParkCurrent(const WaitSite& site) {
  ThreadRecord& thread = threads_[current_];
  thread.state = ThreadState::kWaiting;
  thread.wait = site;
  ++waiting_count_;
  if (observer_ != nullptr) observer_->OnThreadParked(current_);
}

void BlockScheduler::MakeReady(unsigned thread) {
  ThreadRecord& record = threads_[thread];
  if (record.state != ThreadState::kWaiting) {
    std::fprintf(stderr,
                 "mxmaca: internal error: releasing thread %u of a "
                 "block, which does not wait\n",
                 thread);
    std::abort();
  }
  record.state = ThreadState::kReady;
  --waiting_count_;
  ready_.push_back(thread);
}

void BlockScheduler::Yield() {
  Dispatch(threads_[current_].fiber, /*self_free=*/false);
}

void BlockScheduler::Dispatch(Fiber* self, bool self_free) {
  if (!ready_.empty()) {
    const unsigned next = ready_.front();
    ready_.pop_front();
    Fiber* target = threads_[next].fiber;
    threads_[next].state = ThreadState::kRunning;
    Enter(next);
    if (target == self) return;
    if (self_free) idle_fibers_.push_back(self);
    running_fiber_ = target;
    Fiber::Switch(self, target);
    return;  // Resumed: whoever switched here has entered this thread.
  }
  if (next_unstarted_ < thread_count_) {
    if (self_free) return;  // The caller walks on.
    Fiber* walker = NewWalker();
    running_fiber_ = walker;
    Fiber::Switch(self, walker);
    return;
  }
  if (waiting_count_ > 0) ReportStall();
  // [model.exec.grid-complete-when-all-threads-exit] for this block.
  completed_ = true;
  running_fiber_ = host_;
  Fiber::Switch(self, host_);
  std::fputs("mxmaca: internal error: a finished block resumed\n", stderr);
  std::abort();
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
    fibers_.push_back(std::make_unique<Fiber>());
    walker = fibers_.back().get();
    walker->Start(*stack, &BlockScheduler::WalkerBody, this);
    return walker;
  }
  walker->Start(walker->stack(), &BlockScheduler::WalkerBody, this);
  return walker;
}

void BlockScheduler::ReportStall() {
  unsigned first_waiting = 0;
  while (threads_[first_waiting].state != ThreadState::kWaiting) {
    ++first_waiting;
  }
  // The diagnostic names a waiting thread; the trap still leaves from the
  // fiber that runs now.
  Enter(first_waiting);
  const WaitSite& site = threads_[first_waiting].wait;
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
  const unsigned thread = current_;
  Fiber* self = threads_[thread].fiber;
  threads_[thread].state = ThreadState::kExited;
  threads_[thread].fiber = nullptr;
  if (exited_count_++ == 0) first_exited_ = thread;
  if (observer_ != nullptr) observer_->OnThreadExited(thread);
  // `self` holds the thread's frames, which are never resumed: it cannot
  // walk on itself, so unstarted threads get a fresh walker. Either way
  // `self` goes idle and is restarted from scratch when next needed.
  if (ready_.empty() && next_unstarted_ < thread_count_) {
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
