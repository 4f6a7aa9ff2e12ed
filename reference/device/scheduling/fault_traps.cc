// Copyright mxcts authors.
//
// Longer than the project's 600-line guide: the signal handler, the
// alternate stacks and the saved dispositions must be read together to see
// that a signal that is not the grid's keeps its default action.
//
// One signal handler serves the fault signals and the timeout signal. It
// first decides whether the signal is the grid's: the armed grid exists,
// the signal arrived on the grid's OS thread, and the interrupted stack
// pointer lies in one of the pool's fiber stacks (so a device thread, not
// the host fiber, was running). Only then does it classify (fault_traps.h
// lists the order) and trap. A signal that is not the grid's goes to the
// disposition saved when the first grid installed the handlers: a handler
// is called, a default or ignored disposition is reinstated and the handler
// returns, so that the faulting instruction runs again and the process ends
// as it would have without the engine (a signal sent by kill() stays
// pending and is delivered with the default action when the handler
// returns).
//
// Leaving a handler by a fiber switch skips the kernel's sigreturn, so the
// signal mask of the handler (the signal itself and the timeout signal
// blocked) would stay in force: a second fault would then kill the process.
// The trap therefore reinstates the mask of the interrupted code first.
// The abandoned signal frame on the alternate stack is harmless: the kernel
// decides whether a thread is on its alternate stack from the stack
// pointer, and the host fiber's is elsewhere.
//
// A trap from a handler formats its message and writes it with stdio,
// which is not async-signal-safe in general. It is safe here because the
// interrupted code is device code in the cases that trap: a synchronous
// fault raised by it (or by a library function it called, holding none of
// the engine's locks), or the timeout signal when the program counter is in
// registered device code, which calls into the engine and the C library
// only through calls that would show a program counter outside it. A timer
// signal that interrupts anything else only sets a flag.
//
// Floating-point control state: a fiber switch leaves MXCSR and the x87
// control word as they are (fibers/fiber.h), so the masks set here before
// the first block are those of every device thread. A handler runs with the
// kernel's default (all masked) and a trap from it reaches the host fiber
// with that state; the grid's GridFloatingPointEnvironment gives the host
// its own back when the grid ends, as after any grid.
//
// Tested by fault_traps_test.cc.

#include "reference/device/scheduling/fault_traps.h"

#include <errno.h>
#include <fenv.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "absl/base/attributes.h"
#include "absl/base/call_once.h"
#include "absl/base/const_init.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "reference/device/fibers/stack_pool.h"
#include "reference/device/scheduling/block_scheduler.h"
#include "reference/device/scheduling/floating_point_environment.h"
#include "reference/device/scheduling/thread_context.h"
#include "reference/device/scheduling/trap.h"

namespace mxcts::device_internal {

// Set with the armed grid's timeout_expired, for the kernels' thread loops,
// which read it at every thread start (KernelTimeoutPending), and the
// engine's switch points.
volatile sig_atomic_t kernel_timeout_pending = 0;

// The armed grid: what the handler needs, reached through one pointer.
struct ArmedGridTraps {
  GridTrapSettings settings;
  pid_t thread = 0;  // the OS thread that runs the grid
  stack_t previous_alternate_stack{};
  bool alternate_stack_set = false;
  // The grid's floating-point environment, while it runs.
  std::optional<GridFloatingPointEnvironment> floating_point;
  timer_t timer{};
  bool timer_created = false;
  // Set by the timer; read at switch points.
  std::atomic<bool> timeout_expired{false};
  // A trap of this object is under way: later signals are not trapped.
  std::atomic<bool> stopping{false};
  // A fault handler runs: a fault inside it is not the grid's.
  bool in_fault_handler = false;
};

namespace {

constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
constexpr int kFaultSignalCount = sizeof(kFaultSignals) / sizeof(int);
// Big enough for the trap path (formatting, stdio, the runtime's
// classifier) and the processor's largest signal frame.
constexpr size_t kAlternateStackBytes = 256 * 1024;
// Accesses this far below a stack's guard page count as overflows of it: a
// frame larger than a page may skip the guard page.
constexpr size_t kBelowGuardBytes = 64 * 1024;
// Addresses below this are null pointers plus a member or index offset.
constexpr uintptr_t kNullRegionBytes = 64 * 1024;
// How often an expired timeout that could not trap at once fires again.
constexpr long kTimeoutRepeatNanoseconds = 2 * 1000 * 1000;

int TimeoutSignal() { return SIGRTMIN + 4; }

// --- Device code ranges: written under a mutex, read lock-free. ---

constexpr int kMaxDeviceCodeRanges = 4096;
struct CodeRange {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};  // 0: a free slot
};
CodeRange code_ranges[kMaxDeviceCodeRanges];
std::atomic<int> code_ranges_used{0};
ABSL_CONST_INIT absl::Mutex code_ranges_mutex(absl::kConstInit);

std::atomic<device::FaultClassifier> fault_classifier{nullptr};

// The grid being run, if any (one at a time in the process).
std::atomic<ArmedGridTraps*> armed_grid{nullptr};

// The dispositions the grid's handlers replaced, indexed like
// kFaultSignals; the last entry is the timeout signal's.
struct sigaction previous_actions[kFaultSignalCount + 1];

int SavedActionIndex(int signal_number) {
  for (int i = 0; i < kFaultSignalCount; ++i) {
    if (kFaultSignals[i] == signal_number) return i;
  }
  return kFaultSignalCount;
}

// The alternate signal stack of an OS thread that runs grids. The first
// grid on a thread without one gives it ours, which it keeps until the
// thread ends; a thread that has one of its own keeps it if it is large
// enough, else ours stands in for it while each grid runs.
class ThreadSignalStack {
 public:
  ~ThreadSignalStack() {
    if (region_ == nullptr) return;
    if (kept_) {
      stack_t off{};
      off.ss_flags = SS_DISABLE;
      sigaltstack(&off, nullptr);
    }
    munmap(region_, kAlternateStackBytes + page_);
  }

  // Makes the calling thread's alternate stack fit for the grid's handlers.
  // Returns true, with the thread's own stack in `previous`, when that has
  // to be put back after the grid.
  bool Prepare(stack_t* previous) {
    if (kept_) return false;
    if (!checked_) {
      checked_ = true;
      stack_t current{};
      if (sigaltstack(nullptr, &current) != 0) return false;
      if ((current.ss_flags & SS_DISABLE) == 0 &&
          current.ss_size >= kAlternateStackBytes / 4) {
        return false;  // the thread's own is large enough: use it
      }
      if ((current.ss_flags & SS_DISABLE) != 0) {
        const stack_t ours = Ours();
        kept_ = ours.ss_sp != nullptr && sigaltstack(&ours, nullptr) == 0;
        return false;
      }
      swap_ = true;
    }
    if (!swap_) return false;
    const stack_t ours = Ours();
    return ours.ss_sp != nullptr && sigaltstack(&ours, previous) == 0;
  }

 private:
  // The stack, with an inaccessible page below it; empty if it cannot be
  // mapped.
  stack_t Ours() {
    if (region_ == nullptr) {
      page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
      void* region =
          mmap(nullptr, kAlternateStackBytes + page_, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (region == MAP_FAILED) return stack_t{};
      mprotect(region, page_, PROT_NONE);
      region_ = region;
    }
    stack_t stack{};
    stack.ss_sp = static_cast<char*>(region_) + page_;
    stack.ss_size = kAlternateStackBytes;
    return stack;
  }

  void* region_ = nullptr;
  size_t page_ = 0;
  bool checked_ = false;
  bool kept_ = false;  // ours is the thread's alternate stack for good
  bool swap_ = false;  // the thread has a small one: swap for each grid
};

thread_local ThreadSignalStack signal_stack;

// What the interrupted code was doing.
struct Interrupted {
  uintptr_t pc = 0;
  uintptr_t sp = 0;
};

Interrupted ReadInterrupted(const void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
  Interrupted at;
#if defined(__x86_64__)
  at.pc = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
  at.sp = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  at.pc = static_cast<uintptr_t>(uc->uc_mcontext.pc);
  at.sp = static_cast<uintptr_t>(uc->uc_mcontext.sp);
#else
  (void)uc;  // Unknown processor: no signal is recognized as the grid's.
#endif
  return at;
}

pid_t CurrentThreadId() {
  thread_local pid_t id = static_cast<pid_t>(gettid());
  return id;
}

// Whether the signal interrupted a device thread of `armed`'s grid.
bool InterruptedDeviceThread(const ArmedGridTraps& armed,
                             const Interrupted& at) {
  if (armed.settings.stacks == nullptr || at.sp == 0) return false;
  if (!armed.settings.stacks->Covers(at.sp, kBelowGuardBytes)) return false;
  const ActiveGrid* grid = CurrentGrid();
  return grid != nullptr && grid->block != nullptr;
}

// Hands a signal that is not the grid's to the disposition it had.
void Forward(int signal_number, siginfo_t* info, void* context) {
  if (signal_number == TimeoutSignal()) return;  // a late timer: nothing
  const struct sigaction& previous =
      previous_actions[SavedActionIndex(signal_number)];
  if ((previous.sa_flags & SA_SIGINFO) != 0) {
    if (previous.sa_sigaction != nullptr) {
      previous.sa_sigaction(signal_number, info, context);
    }
    return;
  }
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signal_number);
    return;
  }
  // The default action: reinstate it. A fault happens again when the
  // handler returns; a signal sent by kill() is raised again (blocked until
  // then, it is delivered on return).
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal_number, &default_action, nullptr);
  if (info == nullptr || info->si_code <= 0) raise(signal_number);
}

void StopTimer(ArmedGridTraps& armed) {
  if (!armed.timer_created) return;
  itimerspec off{};
  timer_settime(armed.timer, 0, &off, nullptr);
}

// Leaves the handler for good through a trap.
[[noreturn]] void TrapFromHandler(ArmedGridTraps& armed, void* context,
                                  device::FaultDescription description) {
  armed.stopping.store(true);
  StopTimer(armed);
  pthread_sigmask(SIG_SETMASK, &static_cast<ucontext_t*>(context)->uc_sigmask,
                  nullptr);
  Trap(description.error, std::move(description.message));
}

// When the timer fires: the kernel timeout or the hang monitor, whichever
// is set and earlier; 0 when neither is set.
uint64_t TimerMilliseconds(const GridTrapSettings& settings) {
  const uint64_t hang =
      uint64_t{settings.hang_timeout_seconds} * 1000;  // 0: off
  const uint64_t kernel = settings.timeout_milliseconds;
  if (kernel == 0) return hang;
  if (hang == 0) return kernel;
  return kernel <= hang ? kernel : hang;
}

std::string TimeoutMessage(const ArmedGridTraps& armed) {
  const GridTrapSettings& settings = armed.settings;
  if (settings.timeout_milliseconds != 0 &&
      TimerMilliseconds(settings) == settings.timeout_milliseconds) {
    // [api.trap.error.timeout] [lang.ub.exec.kernel-timeout]
    return absl::StrFormat("kernel ran longer than MACA_KERNEL_TIMEOUT=%u ms",
                           settings.timeout_milliseconds);
  }
  // [api.env.monitor-hang-timeout.values]
  // [api.env.monitor-hang-timeout.reference-monitor]
  return absl::StrFormat(
      "hang monitor: kernel still running after "
      "MACA_MONITOR_HANG_TIMEOUT=%u s",
      settings.hang_timeout_seconds);
}

bool DescribeMemoryFault(const StackPool& stacks, uintptr_t address,
                         bool device_code,
                         device::FaultDescription* description) {
  if (const Stack* stack = stacks.OverflowedStack(address, kBelowGuardBytes)) {
    // [lang.ub.exec.stack-overflow]
    *description = {
        mcErrorLaunchFailure,
        absl::StrFormat("stack overflow: the thread's calls need more than "
                        "its %u-byte stack (mcLimitStackSize plus the "
                        "engine's reserve) and reached 0x%x, below it",
                        stack->size, address)};
    return true;
  }
  // The block's shared memory: in checked mode every variable ends at a gap.
  if (const ActiveGrid* grid = CurrentGrid();
      grid != nullptr && grid->arena != nullptr &&
      grid->describe_shared_fault != nullptr) {
    std::string text;
    if (grid->describe_shared_fault(grid->arena, address, &text)) {
      // [lang.ub.memory.out-of-bounds-shared]
      *description = {mcErrorIllegalAddress, std::move(text)};
      return true;
    }
  }
  // The runtime's ranges: checked device memory, __constant__ variables.
  if (device::FaultClassifier classify = fault_classifier.load();
      classify != nullptr && classify(address, description)) {
    return true;
  }
  if (address < kNullRegionBytes) {
    // [lang.ub.memory.null-dereference]
    *description = {mcErrorIllegalAddress,
                    absl::StrFormat("memory violation at 0x%x (a null "
                                    "pointer dereference)",
                                    address)};
    return true;
  }
  if (device_code) {
    // [api.trap.cause.memory-violation] [api.trap.error.illegal-address]
    *description = {mcErrorIllegalAddress,
                    absl::StrFormat("memory violation at 0x%x", address)};
    return true;
  }
  return false;
}

bool DescribeArithmeticFault(int code, bool device_code,
                             device::FaultDescription* description) {
  const char* what = nullptr;
  bool floating = true;
  switch (code) {
    case FPE_FLTDIV:
      what = "floating-point exception: division by zero";
      break;
    case FPE_FLTINV:
      what = "floating-point exception: invalid operation";
      break;
    case FPE_FLTOVF:
      what = "floating-point exception: overflow";
      break;
    case FPE_FLTUND:
      what = "floating-point exception: underflow";
      break;
    case FPE_FLTRES:
      what = "floating-point exception: inexact result";
      break;
    case FPE_INTDIV:
      what = "integer division by zero";
      floating = false;
      break;
    case FPE_INTOVF:
      what = "integer overflow in a division";
      floating = false;
      break;
    default:
      return false;
  }
  // Floating-point exceptions are enabled only under MACA_TRAP_HANDLER=2,
  // so one raised on a device thread, in device code or in a library
  // function it called, is the program's. An integer one outside device
  // code is the engine's own failure and keeps its default action.
  if (!floating && !device_code) return false;
  // [api.trap.policy.two-reports-numeric]
  // [api.trap.error.other-causes-launch-failure]
  *description = {mcErrorLaunchFailure, what};
  return true;
}

// A fault signal on the grid's thread. Returns only if it is not the
// grid's.
void OnFault(ArmedGridTraps& armed, int signal_number, siginfo_t* info,
             void* context) {
  if (armed.stopping.load() || info == nullptr) return;
  const Interrupted at = ReadInterrupted(context);
  if (!InterruptedDeviceThread(armed, at)) return;
  const bool device_code = IsDeviceCode(at.pc);
  const uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
  device::FaultDescription description;
  switch (signal_number) {
    case SIGSEGV:
    case SIGBUS:
      if (!DescribeMemoryFault(*armed.settings.stacks, address, device_code,
                               &description)) {
        return;
      }
      break;
    case SIGFPE:
      if (!DescribeArithmeticFault(info->si_code, device_code, &description)) {
        return;
      }
      break;
    case SIGILL:
      if (!device_code) return;
      // [api.trap.error.illegal-instruction]
      description = {mcErrorIllegalInstruction,
                     absl::StrFormat("illegal instruction at pc 0x%x", at.pc)};
      break;
    default:
      return;
  }
  TrapFromHandler(armed, context, std::move(description));
}

// The timeout signal on the grid's thread.
void OnTimeout(ArmedGridTraps& armed, void* context) {
  if (armed.stopping.load()) return;
  armed.timeout_expired.store(true);
  kernel_timeout_pending = 1;
  const Interrupted at = ReadInterrupted(context);
  // Anywhere but device code, wait for the next switch point.
  if (!IsDeviceCode(at.pc) || !InterruptedDeviceThread(armed, at)) return;
  armed.in_fault_handler = true;
  TrapFromHandler(armed, context,
                  {mcErrorLaunchTimeout, TimeoutMessage(armed)});
}

void OnSignal(int signal_number, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  ArmedGridTraps* armed = armed_grid.load();
  if (armed == nullptr || armed->thread != CurrentThreadId() ||
      armed->in_fault_handler) {
    Forward(signal_number, info, context);
  } else if (signal_number == TimeoutSignal()) {
    OnTimeout(*armed, context);
  } else {
    armed->in_fault_handler = true;
    OnFault(*armed, signal_number, info, context);
    armed->in_fault_handler = false;
    Forward(signal_number, info, context);
  }
  errno = saved_errno;
}

void InstallHandler(int signal_number, struct sigaction* previous) {
  struct sigaction action {};
  action.sa_sigaction = &OnSignal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, TimeoutSignal());
  sigaction(signal_number, &action, previous);
}

// The fault handlers are installed by the first grid and stay: installing
// and restoring four dispositions per grid would cost more than the rest of
// a launch. Outside a grid they hand every signal to the disposition saved
// here, so the process behaves as if they were not there.
void InstallFaultHandlersOnce() {
  static absl::once_flag installed;
  absl::call_once(installed, [] {
    for (int i = 0; i < kFaultSignalCount; ++i) {
      InstallHandler(kFaultSignals[i], &previous_actions[i]);
    }
  });
}

// Starts the timeout timer of `armed`, directed at its thread.
void StartTimer(ArmedGridTraps& armed) {
  InstallHandler(TimeoutSignal(), &previous_actions[kFaultSignalCount]);
  struct sigevent event {};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = TimeoutSignal();
  event._sigev_un._tid = armed.thread;
  if (timer_create(CLOCK_MONOTONIC, &event, &armed.timer) != 0) {
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true)) {
      std::fprintf(stderr,
                   "mxmaca: MACA_KERNEL_TIMEOUT is not enforced: "
                   "timer_create failed (errno %d)\n",
                   errno);
    }
    sigaction(TimeoutSignal(), &previous_actions[kFaultSignalCount], nullptr);
    return;
  }
  armed.timer_created = true;
  const uint64_t ms = TimerMilliseconds(armed.settings);
  itimerspec when{};
  when.it_value.tv_sec = static_cast<time_t>(ms / 1000);
  when.it_value.tv_nsec = static_cast<long>(ms % 1000) * 1000 * 1000;
  when.it_interval.tv_nsec = kTimeoutRepeatNanoseconds;
  timer_settime(armed.timer, 0, &when, nullptr);
}

// Deletes the timer and discards a signal of it still pending, then gives
// the timeout signal its disposition back: a real-time signal's default
// action would end the process.
void DeleteTimer(ArmedGridTraps& armed) {
  if (!armed.timer_created) return;
  sigset_t timeout_only;
  sigemptyset(&timeout_only);
  sigaddset(&timeout_only, TimeoutSignal());
  sigset_t previous_mask;
  pthread_sigmask(SIG_BLOCK, &timeout_only, &previous_mask);
  timer_delete(armed.timer);
  armed.timer_created = false;
  const timespec no_wait{};
  while (sigtimedwait(&timeout_only, nullptr, &no_wait) > 0) {
  }
  sigaction(TimeoutSignal(), &previous_actions[kFaultSignalCount], nullptr);
  pthread_sigmask(SIG_SETMASK, &previous_mask, nullptr);
}

}  // namespace

GridFaultTraps::GridFaultTraps(const GridTrapSettings& settings)
    : armed_(std::make_unique<ArmedGridTraps>()) {
  ArmedGridTraps& armed = *armed_;
  armed.settings = settings;
  armed.thread = CurrentThreadId();

  // Floating-point exceptions trap only under policy 2; under the others
  // they are masked even if the host program unmasked them, so that device
  // code computes IEEE results. [api.trap.policy.default-reports-fatal]
  // [api.trap.policy.two-reports-numeric]
  armed.floating_point.emplace(settings.policy ==
                                       device::TrapPolicy::kFatalAndNumeric
                                   ? FE_DIVBYZERO | FE_INVALID | FE_OVERFLOW
                                   : 0);

  armed.alternate_stack_set =
      signal_stack.Prepare(&armed.previous_alternate_stack);
  InstallFaultHandlersOnce();
  kernel_timeout_pending = 0;
  armed_grid.store(&armed);
  if (TimerMilliseconds(settings) > 0) StartTimer(armed);
}

GridFaultTraps::~GridFaultTraps() {
  ArmedGridTraps& armed = *armed_;
  armed_grid.store(nullptr);
  DeleteTimer(armed);
  kernel_timeout_pending = 0;
  if (armed.alternate_stack_set) {
    sigaltstack(&armed.previous_alternate_stack, nullptr);
  }
  armed.floating_point.reset();
}

bool ContinuableTrapsReported() {
  const ArmedGridTraps* armed = armed_grid.load();
  return armed == nullptr || armed->settings.policy != device::TrapPolicy::kOff;
}

void IgnoreContinuableTrap() {
  ActiveGrid* grid = CurrentGrid();
  if (grid == nullptr || grid->block == nullptr) {
    std::fputs("mxmaca: internal error: a trap ignored outside any grid\n",
               stderr);
    std::abort();
  }
  grid->block->AbandonCurrentThread();
}

void PollKernelTimeout() {
  ArmedGridTraps* armed = armed_grid.load(std::memory_order_relaxed);
  if (armed == nullptr ||
      !armed->timeout_expired.load(std::memory_order_relaxed) ||
      armed->stopping.exchange(true)) {
    return;
  }
  StopTimer(*armed);
  // [api.trap.error.timeout] [lang.ub.exec.kernel-timeout]
  Trap(mcErrorLaunchTimeout, TimeoutMessage(*armed));
}

const volatile sig_atomic_t* KernelTimeoutPending() {
  return &kernel_timeout_pending;
}

bool IsDeviceCode(uintptr_t pc) {
  const int used = code_ranges_used.load(std::memory_order_acquire);
  for (int i = 0; i < used; ++i) {
    const uintptr_t end = code_ranges[i].end.load(std::memory_order_acquire);
    if (end != 0 && pc < end &&
        pc >= code_ranges[i].begin.load(std::memory_order_relaxed)) {
      return true;
    }
  }
  return false;
}

}  // namespace mxcts::device_internal

namespace mxcts::device {

bool RegisterDeviceCode(const void* begin, size_t size) {
  using device_internal::code_ranges;
  using device_internal::code_ranges_used;
  using device_internal::kMaxDeviceCodeRanges;
  if (begin == nullptr || size == 0) return false;
  absl::MutexLock lock(&device_internal::code_ranges_mutex);
  const int used = code_ranges_used.load(std::memory_order_relaxed);
  int slot = 0;
  while (slot < used && code_ranges[slot].end.load() != 0) ++slot;
  if (slot == kMaxDeviceCodeRanges) return false;
  const uintptr_t start = reinterpret_cast<uintptr_t>(begin);
  code_ranges[slot].begin.store(start, std::memory_order_relaxed);
  code_ranges[slot].end.store(start + size, std::memory_order_release);
  if (slot == used) code_ranges_used.store(used + 1, std::memory_order_release);
  return true;
}

void UnregisterDeviceCode(const void* begin) {
  using device_internal::code_ranges;
  absl::MutexLock lock(&device_internal::code_ranges_mutex);
  const int used =
      device_internal::code_ranges_used.load(std::memory_order_relaxed);
  const uintptr_t start = reinterpret_cast<uintptr_t>(begin);
  for (int i = 0; i < used; ++i) {
    if (code_ranges[i].end.load() != 0 &&
        code_ranges[i].begin.load() == start) {
      code_ranges[i].end.store(0, std::memory_order_release);
      code_ranges[i].begin.store(0, std::memory_order_relaxed);
      return;
    }
  }
}

void SetFaultClassifier(FaultClassifier classifier) {
  device_internal::fault_classifier.store(classifier);
}

}  // namespace mxcts::device
