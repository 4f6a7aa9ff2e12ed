// Copyright mxcts authors.
//
// reference/device/scheduling/block_scheduler.h: runs the threads of one block
// on fibers, lazily.
//
// A walker fiber runs the block's threads one after another in linear order
// (x fastest, then y, then z), through the kernel's thread loop
// (GridLaunch::run_threads: one call per block, the kernel's body inlined)
// or, without one, one call of the kernel entry per thread. While no
// thread waits in a collective, one fiber runs the whole block, close to a
// native loop, and the scheduler records nothing per thread: threads below
// the running one have exited, those above it have not started. The first
// wait (or an abandoned thread, or a collective that follows exits) makes
// it record every thread's state from then on. When a thread waits in a
// collective (ParkCurrent, then Yield), its fiber stays parked with it and a
// fresh walker continues with the next unstarted thread. When a collective
// releases its waiters (MakeReady), they resume in the order they were
// released, each on the fiber it parked on; a fiber whose thread exits goes on
// with the next unstarted thread or hands over to the next ready one. Control
// changes hands only inside Yield and when a thread exits, so runs are
// deterministic.
//
// A thread that waits at the grid barrier of a cooperative grid
// (ParkCurrentForGrid) is released from outside the block. When nothing can
// run and every waiting thread waits there, the block is suspended: control
// returns to the host, which resumes the block (Resume) once the grid
// barrier has released its threads (MakeReady).
//
// When no thread can run but some wait, the block is stuck: the scheduler
// traps, calling it "barrier skipped by exiting threads" if any thread of the
// block has exited, else a deadlock. When every thread has exited, control
// returns to the host.
//
//   BlockScheduler block(launch, block_index, &stacks);
//   bool completed = block.Run(&host);  // false: a trap abandoned it
//
// Everything here runs on the one OS thread that runs the grid.

#ifndef REFERENCE_DEVICE_SCHEDULING_BLOCK_SCHEDULER_H_
#define REFERENCE_DEVICE_SCHEDULING_BLOCK_SCHEDULER_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "mcr/detail/device_abi.h"
#include "reference/device/engine.h"
#include "reference/device/fibers/fiber.h"
#include "reference/device/fibers/stack_pool.h"
#include "reference/device/scheduling/fault_traps.h"
#include "reference/device/scheduling/schedule_order.h"

namespace mxcts::device_internal {

// Where a parked thread waits, for diagnostics: "__syncthreads()" at
// file:line.
struct WaitSite {
  const char* operation = "";
  const char* file = "";
  int line = 0;
};

// Hears of the threads of a block that park and exit, for collectives whose
// progress depends on what the other threads do (wave collectives). Calls
// come on the device thread concerned; they may release waiting threads
// (MakeReady) but must not yield.
class ThreadEventObserver {
 public:
  // `thread`, the current one, has just been parked by ParkCurrent (while
  // parks are observed: BlockScheduler::ObserveParks).
  virtual void OnThreadParked(unsigned thread) = 0;
  // `thread` has just returned from the kernel.
  virtual void OnThreadExited(unsigned thread) = 0;
  // Text for the diagnostic of a stalled block (appended after "; "), or
  // empty.
  virtual std::string DescribeStall() = 0;

 protected:
  virtual ~ThreadEventObserver() = default;
};

class BlockScheduler {
 public:
  // A scheduler for block `block_index` of `launch`, taking stacks from
  // `stacks`, running in `order` (null: linear). `launch`, `stacks` and
  // `order` must outlive it.
  BlockScheduler(const device::GridLaunch& launch, uint3 block_index,
                 StackPool* stacks, ScheduleOrder* order = nullptr);
  // Returns every stack to the pool.
  ~BlockScheduler();

  // Host side: makes a scheduler whose block completed (Run or Resume
  // returned true, not suspended) the scheduler of block `block_index` of
  // the same launch, as a new one would be. A grid that runs its blocks one
  // at a time keeps one scheduler: its vectors and fiber objects stay, and
  // so does the stack of a block that ran on one fiber, which the pool
  // would have handed straight back to the next block's Run.
  void PrepareForBlock(uint3 block_index);

  BlockScheduler(const BlockScheduler&) = delete;
  BlockScheduler& operator=(const BlockScheduler&) = delete;

  // Host side: runs the block on `host`, the calling OS thread's own context.
  // Returns true when every thread has exited, false when a trap abandoned
  // the block (the trap is recorded in the active grid). A block may run
  // once. Inline, so that the host does not return from a call it made
  // before switching away: the processor predicts a return from the calls
  // it has seen, and the block's fibers made others since (a mispredicted
  // return per block).
  __attribute__((always_inline)) bool Run(Fiber* host) {
    Fiber* walker = StartWalker(host);
    if (walker == nullptr) return false;
    Fiber::Switch(host, walker);
    // Back on the host: every thread exited, a trap abandoned the block, or
    // (cooperative grids) every thread left waits at the grid barrier.
    return BackOnHost();
  }

  // Host side, cooperative grids: whether the last Run or Resume returned
  // because every thread that has not exited waits at the grid barrier.
  bool suspended() const { return suspended_; }
  // Host side: continues a suspended block whose threads the grid barrier
  // has released (MakeReady) on `host`; returns as Run does (check
  // suspended() again).
  bool Resume(Fiber* host);

  // --- Device side: called on the running device thread. ---

  unsigned thread_count() const { return thread_count_; }
  // The linear index of the thread that runs now.
  unsigned current_thread() const {
    return InFastPhase() ? FastPhaseThread() : walk_.abi.current;
  }
  // The stack the running thread runs on.
  const Stack& running_stack() const { return running_fiber_->stack(); }
  uint3 block_index() const { return block_index_; }
  // The order the block runs in, or null for the linear order.
  ScheduleOrder* order() const { return order_; }
  // The threadIdx of the thread with linear index `linear`.
  uint3 ThreadIndex(unsigned linear) const;

  // Marks the current thread as waiting at `site`. It keeps running until it
  // calls Yield. `site` must stay valid until the thread is released: a
  // local of the caller's frame does, since the parked thread's frames stay
  // on its stack. It is kept by address, not copied: copying it right after
  // the caller wrote it field by field stalls the processor's store
  // forwarding, a cost every waiting thread paid.
  void ParkCurrent(const WaitSite& site) { Park(site, ThreadState::kWaiting); }
  // ParkCurrent where another thread of the block has parked before (a
  // barrier phase with arrivals): every thread's state is recorded already,
  // so the test is left out of a path that all threads but one of each
  // phase take.
  void ParkCurrentAfterOthers(const WaitSite& site) {
    ParkRecorded(site, ThreadState::kWaiting);
  }
  // The same for a wait that only something outside the block ends (the
  // grid barrier): while every waiting thread waits so and none has exited,
  // a block with nothing to run is suspended instead of stuck.
  void ParkCurrentForGrid(const WaitSite& site) {
    Park(site, ThreadState::kWaitingForGrid);
    ++grid_waiting_count_;
  }

  // Releases the waiting thread `thread` (the current one included): it
  // becomes ready and resumes after the threads released before it.
  void MakeReady(unsigned thread) {
    const ThreadState state = states_[thread];
    if (state != ThreadState::kWaiting) {
      if (state != ThreadState::kWaitingForGrid) DieReleasingNonWaiter(thread);
      --grid_waiting_count_;
    }
    states_[thread] = ThreadState::kReady;
    --waiting_count_;
    ready_.push_back(thread);
  }

  // Releases the waiting threads first_thread + i for each bit i of
  // `lanes`, in increasing order: MakeReady of each, with one check of the
  // ready queue's room.
  void MakeReadyInOrder(unsigned first_thread, uint64_t lanes) {
    if (lanes == 0) return;
    // A run of consecutive threads released while none is ready (a whole
    // wave's collective, each lane's next one) is kept as the ready range.
    const unsigned first = first_thread + __builtin_ctzll(lanes);
    const uint64_t run = lanes >> __builtin_ctzll(lanes);
    if ((run & (run + 1)) == 0 && NoThreadReady()) {
      const unsigned count = __builtin_popcountll(run);
      if (AllWaitInBlock(first, count)) {
        std::fill(states_.begin() + first, states_.begin() + first + count,
                  ThreadState::kReady);
        waiting_count_ -= count;
        ready_range_next_ = first;
        ready_range_end_ = first + count;
        return;
      }
    }
    ready_.reserve(ready_.size() + __builtin_popcountll(lanes));
    for (; lanes != 0; lanes &= lanes - 1) {
      MakeReady(first_thread + static_cast<unsigned>(__builtin_ctzll(lanes)));
    }
  }

  // Releases the waiting `threads` (linear ids in increasing order, released
  // together by a collective) in the block's schedule order: as given in the
  // linear order, a random interleaving of their waves in the shuffled one
  // (ScheduleOrder::ReleaseOrder). Reorders `threads` to that order.
  void MakeReadyInScheduleOrder(std::vector<unsigned>* threads) {
    if (order_ != nullptr) order_->ReleaseOrder(threads);
    for (unsigned thread : *threads) MakeReady(thread);
  }

  // Releases every thread of the block, each waiting in the block (not at
  // the grid barrier), in linear order: a barrier phase that completes.
  // The same as MakeReady(0), ..., MakeReady(n-1), at a fraction of the
  // cost.
  void MakeEveryThreadReady();

  // Gives up the processor: the current thread, waiting or ready, is
  // resumed when its turn comes; returns then, with the built-in variables
  // its own again. If it is the first ready thread, returns at once. Traps
  // if no thread can ever run again. Always inline: a collective's frame is
  // the one every parked thread keeps, and a call more is a tenth of a
  // barrier's cost.
  __attribute__((always_inline)) void Yield() {
    Dispatch(running_fiber_, /*self_free=*/false);
    // Resumed. Whoever resumed this thread made it current (MakeCurrent),
    // so nothing here waits for what the thread reloads from its stack.
    // [api.trap.error.timeout] A timeout that expired while engine code
    // ran; the flag is read here so that a resume costs no call.
    if (kernel_timeout_pending != 0) PollKernelTimeout();
  }

  // Abandons the block (used by Trap): switches to the host for good.
  [[noreturn]] void AbandonToHost();

  // Ends the current thread where it stands, as if it had returned from the
  // kernel, without unwinding its frames; the block goes on with the next
  // thread (used to ignore a trap under MACA_TRAP_HANDLER=0).
  [[noreturn]] void AbandonCurrentThread();

  // Makes `observer` (null: none) hear of every park and exit from now on.
  void SetObserver(ThreadEventObserver* observer);
  // Whether the observer hears of parks (it always hears of exits): one
  // that needs them only at times (the wave collectives, while a wave has
  // lanes at __activemask()) spares every other park the call.
  void ObserveParks(bool observed) {
    parks_observed_ = observed && observer_ != nullptr;
  }
  // Whether thread `thread` waits (parked and not yet released).
  bool IsWaiting(unsigned thread) const {
    return states_[thread] == ThreadState::kWaiting ||
           states_[thread] == ThreadState::kWaitingForGrid;
  }
  // Whether thread `thread` has returned from the kernel.
  bool HasExited(unsigned thread) const {
    if (!recording_every_thread_) return thread < current_thread();
    return states_[thread] == ThreadState::kExited;
  }
  // Where thread `thread` waits, or null when it does not wait.
  const WaitSite* WaitSiteOf(unsigned thread) const {
    return IsWaiting(thread) ? records_[thread].wait : nullptr;
  }

  // How many fibers the block has used (tests check laziness with it).
  size_t fibers_used() const { return fibers_used_; }

 private:
  // A thread that has not waited yet stays kNotWaited while it runs and
  // becomes kExited when it returns (recorded only while every thread is).
  enum class ThreadState : unsigned char {
    kNotWaited,
    kRunning,  // resumed after a wait
    kWaiting,
    kWaitingForGrid,  // waiting at the grid barrier of a cooperative grid
    kReady,
    kExited
  };

  // What the scheduler keeps of a thread that has waited: 32 bytes, since
  // a block of 1024 threads that waits at a barrier touches every record
  // once per phase.
  struct ThreadRecord {
    Fiber* fiber = nullptr;  // the fiber it parked on
    // While waiting: where. It points into the waiting thread's own frames
    // (or a collective's state), which stay put until the thread resumes.
    const WaitSite* wait = nullptr;
    // Its threadIdx, which whoever resumes it restores (MakeCurrent): the
    // resumed thread then has nothing to reload from its own stack, whose
    // lines are the ones a switch waits for.
    uint3 index = {0, 0, 0};
  };

  // The walk a kernel's thread loop shares with the engine, and the
  // scheduler it belongs to (the exit callback finds it through `abi`,
  // the first member).
  struct ThreadWalk {
    __mc_thread_walk abi;
    BlockScheduler* owner;
  };

  // The vectors of the last block that this OS thread finished, reused by
  // the next block (see the constructor).
  struct RecycledVectors {
    std::vector<ThreadState> states;
    std::vector<ThreadRecord> records;
    std::vector<std::unique_ptr<Fiber>> fibers;
  };
  static RecycledVectors& Recycled();
  // A fiber object for a new walker (not started).
  Fiber* TakeFiber();
  // Whether threads first to first + count - 1 all wait in the block (not
  // at the grid barrier); eight states are compared at a time.
  bool AllWaitInBlock(unsigned first, unsigned count) const {
    static_assert(sizeof(ThreadState) == 1, "one byte per thread");
    constexpr uint64_t kEightWaiting =
        0x0101010101010101ull * static_cast<uint64_t>(ThreadState::kWaiting);
    const ThreadState* const states = states_.data() + first;
    uint64_t mismatch = 0;
    unsigned thread = 0;
    for (; thread + 8 <= count; thread += 8) {
      uint64_t eight;
      std::memcpy(&eight, states + thread, sizeof(eight));
      mismatch |= eight ^ kEightWaiting;
    }
    for (; thread < count; ++thread) {
      mismatch |= states[thread] != ThreadState::kWaiting;
    }
    return mismatch == 0;
  }
  // How many threads ahead of the one it resumes a release range's
  // resumer prefetches the parked stack of (TakeReadyThread).
  static constexpr unsigned kResumeLookahead = 12;
  // Whether no released thread waits to be resumed (ready_ below).
  bool NoThreadReady() const {
    return ready_range_next_ == ready_range_end_ &&
           ready_head_ == ready_.size();
  }
  // The first released thread not yet resumed; some thread must be ready.
  unsigned TakeReadyThread() {
    if (ready_range_next_ != ready_range_end_) {
      const unsigned ahead = ready_range_next_ + kResumeLookahead;
      if (ahead < ready_range_end_) records_[ahead].fiber->PrefetchContext();
      return ready_range_next_++;
    }
    const unsigned thread = ready_[ready_head_++];
    if (ready_head_ == ready_.size()) {
      ready_.clear();
      ready_head_ = 0;
    }
    return thread;
  }

  // Run's part before its switch: the block's first walker, started, and
  // the block's built-ins; null, with the trap recorded, when no stack can
  // be had.
  Fiber* StartWalker(Fiber* host);
  // Run's and Resume's part after the block hands the host back: no
  // thread's built-ins, and whether every thread exited.
  bool BackOnHost();
  static void WalkerBody(Fiber* self);
  // Runs unstarted threads on `self` until none is left, then hands over.
  [[noreturn]] void Walk(Fiber* self);
  // Runs unstarted threads in linear order through `launch_.entry`, with
  // the protocol of the kernel's thread loop.
  void RunThreadsByEntry();
  // Runs unstarted threads in the order of start_order_.
  void RunThreadsInStartOrder(Fiber* self);
  // Whether the kernel's thread loop is in its fast phase
  // (__mc_thread_walk): it writes only threadIdx, and the walk's current
  // and next ids are derived from it.
  bool InFastPhase() const {
    return walk_.abi.next == 0 && walk_.abi.thread_exited == nullptr;
  }
  // The running thread in the fast phase: the linear id of the built-in
  // threadIdx, which the loop writes as each thread starts.
  unsigned FastPhaseThread() const {
    const uint3 index = walk_.abi.builtins->threadIdx;
    return index.x + launch_.block.x * (index.y + launch_.block.y * index.z);
  }
  // From now on every thread's state is recorded: threads below the
  // running one have exited (the linear order without waits so far), and
  // each exit is recorded as it happens. Called by the running thread; the
  // walk's current and next ids, left to derive in the fast phase, are
  // written first, since the loop reads them once thread_exited is set.
  void RecordEveryThread();
  // RecordEveryThread's bookkeeping, with threads 0 to `exited` - 1 exited.
  void BeginRecording(unsigned exited);
  // Sets up the walk of a block none of whose threads has started: the
  // start order and, when it is not the linear one, the recording of every
  // thread's state.
  void BeginWalk();
  // ParkCurrent and ParkCurrentForGrid: the current thread waits at `site`
  // in state `waiting`.
  void Park(const WaitSite& site, ThreadState waiting) {
    if (!recording_every_thread_) RecordEveryThread();
    ParkRecorded(site, waiting);
  }
  // Park, once every thread's state is recorded.
  __attribute__((always_inline)) void ParkRecorded(const WaitSite& site,
                                                   ThreadState waiting) {
    const unsigned thread = walk_.abi.current;
    ThreadRecord& record = records_[thread];
    // A thread resumed after an earlier wait runs on the fiber its record
    // names, and its threadIdx never changes: only a first wait writes
    // them.
    if (states_[thread] != ThreadState::kRunning) {
      record.fiber = running_fiber_;
      record.index = walk_.abi.builtins->threadIdx;
    }
    states_[thread] = waiting;
    record.wait = &site;
    ++waiting_count_;
    if (parks_observed_) observer_->OnThreadParked(thread);
  }
  // Aborts: MakeReady of a thread that does not wait (an engine bug).
  [[noreturn]] __attribute__((noinline, cold)) static void
  DieReleasingNonWaiter(unsigned thread);
  // `thread` has returned from the kernel (or was abandoned).
  void RecordExit(unsigned thread);
  static void OnWalkThreadExited(__mc_thread_walk* walk);
  // Makes `thread` the current one: the built-in variables follow it.
  void MakeCurrent(unsigned thread, uint3 index) {
    walk_.abi.current = thread;
    walk_.abi.builtins->threadIdx = index;
  }
  // MakeCurrent, at a switch point: traps if the kernel timeout has
  // expired. A parked thread that resumes polls in its Yield.
  void Enter(unsigned thread, uint3 index) {
    MakeCurrent(thread, index);
    // [api.trap.error.timeout] A timeout that expired while engine code ran.
    if (kernel_timeout_pending != 0) PollKernelTimeout();
  }
  // Passes the processor from `self` to whatever runs next. `self_free`:
  // `self` holds no thread (its thread exited); it returns only to let a
  // free `self` walk on, or when a thread parked on `self` resumes. The
  // common case, a released thread to resume, is inline.
  __attribute__((always_inline)) void Dispatch(Fiber* self, bool self_free) {
    // [lang.ub.exec.stack-overflow] An unguarded stack (stack_pool.h) shows
    // its overflow when the thread that ran on it leaves it.
    if (!self->stack().guarded && !stacks_->CanaryIntact(self->stack())) {
      TrapStackOverflow(self->stack());
    }
    Fiber* target;
    if (NoThreadReady()) {
      target = DispatchWithNothingReady(self, self_free);
      if (target == nullptr) return;
    } else {
      // The thread resumes in its Yield, current already.
      const unsigned next = TakeReadyThread();
      const ThreadRecord& record = records_[next];
      target = record.fiber;
      states_[next] = ThreadState::kRunning;
      MakeCurrent(next, record.index);
      if (target == self) return;
      if (self_free) idle_fibers_.push_back(self);
    }
    running_fiber_ = target;
    // One switch for both: a thread that parks here returns from this
    // frame's caller alone when it resumes, as every thread waiting at the
    // same call does, so the processor predicts that return.
    Fiber::Switch(self, target);
    // Resumed: back in this fiber's thread's Yield.
  }
  // Dispatch when no released thread waits to resume: returns the fiber to
  // switch to (a new walker for a parked `self`, the host for a suspended
  // block), or null when a free `self` walks on; switches to the host
  // itself when the block is done.
  Fiber* DispatchWithNothingReady(Fiber* self, bool self_free);
  // Writes the block's built-ins (blockIdx, blockDim, gridDim).
  void EnterBlock();
  // Suspends the block until Resume (every waiting thread waits for the
  // grid barrier): returns the host, for Dispatch to switch to.
  Fiber* Suspend(Fiber* self, bool self_free);
  // Traps: nothing can run, but threads wait.
  [[noreturn]] void ReportStall();
  // Traps: the thread that ran on unguarded `stack` overwrote its canary.
  // Out of line, so that Dispatch's frame, which every parked thread keeps,
  // stays small.
  [[noreturn]] __attribute__((noinline, cold)) static void TrapStackOverflow(
      const Stack& stack);
  // A started fiber that will run Walk; traps if no stack can be had.
  Fiber* NewWalker();

  const device::GridLaunch& launch_;
  uint3 block_index_;
  StackPool* const stacks_;
  ScheduleOrder* const order_;
  // States and records of threads 0..thread_count_-1 (the records vector
  // may be longer: it is reused from block to block, and only a thread
  // that waits touches its record).
  std::vector<ThreadState> states_;
  std::vector<ThreadRecord> records_;
  unsigned thread_count_ = 0;
  // The order in which threads start; empty: linear. Indexed by
  // walk_.abi.next.
  std::vector<unsigned> start_order_;
  // The next thread to start (in start_order_ when it is not empty), the
  // running thread, and whether exits are recorded.
  ThreadWalk walk_;
  bool recording_every_thread_ = false;
  unsigned waiting_count_ = 0;
  unsigned grid_waiting_count_ = 0;  // of them, at the grid barrier
  bool suspended_ = false;
  unsigned exited_count_ = 0;
  unsigned first_exited_ = 0;  // valid when exited_count_ > 0
  // Released threads in release order, read from ready_head_: a vector,
  // not a std::deque, whose constructor allocates, since a block of a large
  // grid is set up thousands of times and most blocks release no thread.
  std::vector<unsigned> ready_;
  size_t ready_head_ = 0;
  // Released before those of ready_: threads ready_range_next_ to
  // ready_range_end_ - 1, in that order. A whole block released at once
  // (MakeEveryThreadReady) is kept so, which spares writing and reading
  // back its thousand ids; ready_ is empty then, since no thread was ready.
  unsigned ready_range_next_ = 0;
  unsigned ready_range_end_ = 0;
  Fiber* host_ = nullptr;
  Fiber* running_fiber_ = nullptr;
  bool completed_ = false;
  // Fiber objects, reused from block to block (fibers_used_ of them hold
  // this block's stacks).
  std::vector<std::unique_ptr<Fiber>> fibers_;
  size_t fibers_used_ = 0;
  std::vector<Fiber*> idle_fibers_;
  ThreadEventObserver* observer_ = nullptr;
  bool parks_observed_ = false;  // see ObserveParks
};

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_SCHEDULING_BLOCK_SCHEDULER_H_
