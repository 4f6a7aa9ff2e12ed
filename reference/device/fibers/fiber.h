// Copyright mxcts authors.
//
// reference/device/fibers/fiber.h: execution contexts for device threads.
//
// A Fiber is a suspended computation with its own stack. The OS thread that
// runs a grid is represented by a Fiber without a stack (the "host" fiber),
// whose context is captured when it first switches away. Switching saves the
// current registers on the current stack and resumes the target; it costs a
// few nanoseconds and involves no system call and no signal mask, unlike
// ucontext's swapcontext.
//
//   Fiber host;
//   Fiber walker;
//   walker.Start(stack, &WalkerBody, &block);  // runs WalkerBody(&walker)
//   Fiber::Switch(&host, &walker);             // returns when someone
//                                              // switches back to `host`
//
// A fiber's body never returns: it ends by switching to another fiber and
// is simply never resumed. Nothing on an abandoned fiber's stack is
// destroyed, which is what lets a trap abandon a whole grid of device threads
// without unwinding through device code.
//
// A switch saves the registers the calling convention makes callee-saved,
// except the floating-point controls (MXCSR and the x87 control word): every
// fiber of a grid runs under the grid's floating-point environment, which
// the engine sets on the host fiber before the grid and restores after it
// (scheduling/floating_point_environment.h), so the controls are the same on
// both sides of every switch. Loading them is most of what a general switch
// costs. Device code that changes them itself (the device library and the
// matrix functions restore them before they return, with no switch in
// between) would change them for the grid.
#ifndef REFERENCE_DEVICE_FIBERS_FIBER_H_
#define REFERENCE_DEVICE_FIBERS_FIBER_H_

#include "reference/device/fibers/stack_pool.h"

// Where a started fiber begins (fiber.cc): its entry stub calls it on the
// fiber's stack with the fiber and the fiber that switched to it.
extern "C" __attribute__((__visibility__("hidden"))) void
mxcts_device_fiber_entry(void* self, void* from);

// The switch itself (fiber.cc, in assembly): saves the callee-saved
// registers on the current stack and the stack pointer in `*save`, resumes
// the fiber whose saved stack pointer is `target`, and returns there
// `from`, the fiber that switched. Not hidden: the engine's libraries call
// it inline from other shared objects in tests; the runtime library's
// version script keeps it out of the SDK's interface.
extern "C" void* mxcts_device_fiber_switch(void** save, void* target,
                                           void* from);

namespace mxcts::device_internal {

class Fiber {
 public:
  using Body = void (*)(Fiber* self);

  // A fiber with no stack: the host fiber, or one not yet started.
  Fiber() = default;
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Prepares the fiber to run `body(this)` on `stack` when it is next
  // switched to. Whatever the fiber was doing before is forgotten, so it must
  // not be suspended in the middle of work anyone will resume. `argument` is
  // available to the body through argument().
  void Start(const Stack& stack, Body body, void* argument);

  // Suspends `from` (the fiber running now) and resumes `to`. Returns when
  // another fiber switches back to `from`; never returns if none does.
  // Inline: a thread that waits at a barrier switches twice, and a call
  // around the switch is a frame more on every parked stack.
  static void Switch(Fiber* from, Fiber* to) {
#if defined(__SANITIZE_ADDRESS__)
    SwitchAnnounced(from, to);
#else
    mxcts_device_fiber_switch(&from->context_, to->context_, from);
#endif
  }

  void* argument() const { return argument_; }
  const Stack& stack() const { return stack_; }

 private:
  friend void ::mxcts_device_fiber_entry(void* self, void* from);

  // Switch under AddressSanitizer, which is told about the stacks.
  static void SwitchAnnounced(Fiber* from, Fiber* to);
  // Tells AddressSanitizer, when built with it, about stack switches.
  void BeforeSwitchTo(const Fiber* to);
  static void AfterSwitchFrom(Fiber* self, Fiber* from);

  // The saved stack pointer of a suspended fiber: the callee-saved
  // registers and the address to resume at lie on the stack from there.
  void* context_ = nullptr;
  Stack stack_;
  // AddressSanitizer's view: the stack bounds (learned on the first switch
  // away for the host fiber) and the fiber's fake stack.
  const void* sanitizer_stack_bottom_ = nullptr;
  size_t sanitizer_stack_size_ = 0;
  void* sanitizer_fake_stack_ = nullptr;
  Body body_ = nullptr;
  void* argument_ = nullptr;
};

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_FIBERS_FIBER_H_
