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
// A suspended fiber is three words (FiberContext): its stack pointer, frame
// pointer and the address to resume at. A switch is inline assembly that
// stores them for the fiber that leaves and loads the target's; it declares
// every other general, vector and x87 register clobbered, so the compiler
// keeps around it only what is live there, in the caller's own frame. A
// switch that is a function call saves all six callee-saved registers on
// every switch, on top of the caller's own saves, and the resumed thread
// waits for the registers it pops from its stack: in a 1024-thread block
// those loads were half of a barrier's time. Nothing is pushed: the context
// is stored in the fiber, so nothing below the stack pointer (the red zone
// a leaf function may use) is touched.
//
// The floating-point controls (MXCSR and the x87 control word) are not
// switched: every fiber of a grid runs under the grid's floating-point
// environment, which the engine sets on the host fiber before the grid and
// restores after it (scheduling/floating_point_environment.h), so the
// controls are the same on both sides of every switch. Loading them is most
// of what a general switch costs. Device code that changes them itself (the
// device library and the matrix functions restore them before they return,
// with no switch in between) would change them for the grid.
#ifndef REFERENCE_DEVICE_FIBERS_FIBER_H_
#define REFERENCE_DEVICE_FIBERS_FIBER_H_

#include <cstddef>

#include "reference/device/fibers/stack_pool.h"

// Where a started fiber begins (fiber.cc): its entry stub calls it on the
// fiber's stack with the fiber and the fiber that switched to it.
extern "C" __attribute__((__visibility__("hidden"))) void
mxcts_device_fiber_entry(void* self, void* from);

namespace mxcts::device_internal {

// A suspended fiber's context: what a switch to it loads.
struct FiberContext {
  void* stack_pointer = nullptr;
  void* frame_pointer = nullptr;
  void* resume_address = nullptr;
};

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
    SwitchContext(from, to->context_);
#endif
  }

  // Asks the processor to fetch the lines and the address translation of
  // the top of the suspended fiber's stack, which a switch to it reads
  // first. Thousands of parked stacks, each in its own pages, miss the
  // translation buffers; resuming them in a known order, the engine
  // prefetches a few threads ahead so that the page walks overlap.
  void PrefetchContext() const {
    __builtin_prefetch(context_.stack_pointer);
    __builtin_prefetch(static_cast<char*>(context_.stack_pointer) + 64);
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

  // The switch itself: saves `from`'s context, loads `to` and continues
  // there. Returns, when some fiber switches back to `from`, the fiber that
  // did (its address travels in %rax).
  __attribute__((always_inline)) static Fiber* SwitchContext(Fiber* from,
                                                             FiberContext to) {
    Fiber* resumed_by = from;
    __asm__ volatile(
        "leaq 1f(%%rip), %%r8\n\t"
        "movq %%rsp, %c[sp](%%rdi)\n\t"
        "movq %%rbp, %c[bp](%%rdi)\n\t"
        "movq %%r8, %c[ip](%%rdi)\n\t"
        "movq %%rsi, %%rbp\n\t"
        "movq %%rdx, %%rsp\n\t"
        "jmpq *%%rcx\n"
        "1:"
        : "+a"(resumed_by), "+D"(from), "+d"(to.stack_pointer),
          "+S"(to.frame_pointer), "+c"(to.resume_address)
        : [sp] "i"(offsetof(Fiber, context_) +
                   offsetof(FiberContext, stack_pointer)),
          [bp] "i"(offsetof(Fiber, context_) +
                   offsetof(FiberContext, frame_pointer)),
          [ip] "i"(offsetof(Fiber, context_) +
                   offsetof(FiberContext, resume_address))
        : "rbx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "xmm0",
          "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
          "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "st",
          "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)",
#if defined(__AVX512F__)
          "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22",
          "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29",
          "xmm30", "xmm31", "k1", "k2", "k3", "k4", "k5", "k6", "k7",
#endif
          "memory", "cc");
    return resumed_by;
  }

  // A suspended fiber's context (see the note at the top); a fiber that
  // has not run yet resumes at its entry stub, on its stack's top.
  FiberContext context_;
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
