// Copyright mxcts authors.
//
// reference/device/scheduling/fault_traps.h: turning what the processor reports
// about device code (memory faults, floating-point and integer exceptions,
// illegal instructions) and a kernel that runs too long into traps.
//
// While a grid runs, a GridFaultTraps object on the engine's OS thread arms
// handlers for SIGSEGV, SIGBUS, SIGFPE and SIGILL that run on an alternate
// signal stack (so a device thread that overflowed its stack can still be
// reported), arms the MACA_KERNEL_TIMEOUT timer, and sets the
// floating-point exception masks the trap policy asks for. A signal raised
// by a device thread of that grid, at an address the engine can classify,
// becomes a trap: one diagnostic line, the grid stopped, RunGrid returning
// the error (trap.h). The handler is left by switching to the host fiber;
// it never returns into the faulting code. Everything else (a fault outside
// a grid, on another OS thread, in engine code at an address nobody
// recognizes) goes to the disposition the process had before, by default
// the death of the process.
//
// The handlers are installed by the first grid and stay installed (per
// grid, installing and restoring them would cost more than the rest of a
// launch); outside a grid they only pass signals on. So a program that
// installs its own handler for one of these signals after its first launch
// takes that signal over, device faults included.
//
//   GridTrapSettings settings;
//   settings.policy = device::GetTrapPolicy();
//   settings.timeout_milliseconds = device::KernelTimeoutMilliseconds();
//   settings.stacks = &stack_pool;
//   GridFaultTraps traps(settings);   // until the grid's blocks are done
//   ... run the blocks ...
//
// The faults, in the order they are tried (each only for a signal raised by
// a device thread: its stack pointer lies in one of the pool's stacks):
//   1. the guard page below a fiber stack, or the 64 KiB under it: "stack
//      overflow", mcErrorLaunchFailure [lang.ub.exec.stack-overflow];
//   2. an address the runtime's classifier recognizes (device::
//      SetFaultClassifier: guard areas and freed ranges of checked device
//      memory, protected __constant__ variables), with its error and text;
//   3. the first 64 KiB of the address space: a null pointer dereference,
//      mcErrorIllegalAddress [lang.ub.memory.null-dereference];
//   4. any other address, when the faulting instruction is device code
//      (device::RegisterDeviceCode): "memory violation at 0x...",
//      mcErrorIllegalAddress [api.trap.error.illegal-address];
//   5. a floating-point exception (only enabled under MACA_TRAP_HANDLER=2):
//      mcErrorLaunchFailure [api.trap.policy.two-reports-numeric]; integer
//      division by zero or overflow in device code: mcErrorLaunchFailure;
//      an illegal instruction in device code: mcErrorIllegalInstruction
//      [api.trap.error.illegal-instruction].
//
// The kernel timeout fires on a monotonic clock. When it fires while a
// device thread executes device code, that thread traps at once with
// mcErrorLaunchTimeout. When it fires anywhere else (engine code, which may
// hold a lock or be inside malloc; the C library; the host fiber between
// blocks) the handler only records it, and the engine traps at its next
// switch point (PollKernelTimeout, called when a thread starts or resumes);
// the timer keeps firing every 2 ms until one of the two happens.
//
// Everything here runs on the one OS thread that runs the grid; grids run
// one at a time (the engine lock).

#ifndef REFERENCE_DEVICE_SCHEDULING_FAULT_TRAPS_H_
#define REFERENCE_DEVICE_SCHEDULING_FAULT_TRAPS_H_

#include <signal.h>
#include <stdint.h>

#include <memory>

#include "reference/device/engine.h"

namespace mxcts::device_internal {

class StackPool;
struct ArmedGridTraps;

// What one grid's traps need.
struct GridTrapSettings {
  device::TrapPolicy policy = device::TrapPolicy::kFatal;
  // 0: no timeout; else at most device::kMaxKernelTimeoutMilliseconds.
  unsigned timeout_milliseconds = 0;
  // The hang monitor (MACA_MONITOR_HANG_TIMEOUT): 0, off; else seconds, at
  // most device::kMaxHangTimeoutSeconds. The grid traps the same way when
  // the earlier of the two expires, with a message naming that one.
  unsigned hang_timeout_seconds = 0;
  // The stacks the grid's device threads run on; must outlive the object.
  const StackPool* stacks = nullptr;
};

// Arms trapping for one grid on the calling OS thread from construction to
// destruction, and restores on destruction what it changed for the grid:
// the floating-point environment, the timeout signal's disposition, and
// the thread's own alternate signal stack if it had a small one (a thread
// without one keeps the engine's). Construct it on the host fiber before the
// first device thread starts (fibers take their floating-point control state
// from the context that starts them) and destroy it on the host fiber after the
// last block. At most one may exist at a time in the process.
class GridFaultTraps {
 public:
  explicit GridFaultTraps(const GridTrapSettings& settings);
  ~GridFaultTraps();

  GridFaultTraps(const GridFaultTraps&) = delete;
  GridFaultTraps& operator=(const GridFaultTraps&) = delete;

 private:
  std::unique_ptr<ArmedGridTraps> armed_;
};

// Whether traps that device code could continue past (a failed assert, an
// explicit trap) are reported: false only while a grid runs under
// TrapPolicy::kOff. [api.trap.policy.zero-disables-reporting]
bool ContinuableTrapsReported();

// Ignores a continuable trap of the current device thread: the thread ends
// where it stands, as if it had returned from the kernel, and the rest of
// the grid runs on. Must be called on a device thread. Never returns.
[[noreturn]] void IgnoreContinuableTrap();

// Traps with mcErrorLaunchTimeout if the running grid's MACA_KERNEL_TIMEOUT
// has expired; returns at once otherwise (one relaxed load). Called on a
// device thread at the engine's switch points.
void PollKernelTimeout();

// A flag that is nonzero once the running grid's MACA_KERNEL_TIMEOUT has
// expired (zero outside a grid): kernels' thread loops read it at each
// thread start and call PollKernelTimeout when it is set.
const volatile sig_atomic_t* KernelTimeoutPending();

// The flag itself, for the engine's own switch points: a resumed thread
// reads it at a fixed address, which depends on nothing it reloads from
// its stack.
extern volatile sig_atomic_t kernel_timeout_pending;

// Whether `pc` lies in code registered with device::RegisterDeviceCode.
// Async-signal-safe.
bool IsDeviceCode(uintptr_t pc);

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_SCHEDULING_FAULT_TRAPS_H_
