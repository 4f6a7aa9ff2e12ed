// Copyright mxcts authors.
//
// A suspended fiber is its stack pointer. mxcts_device_fiber_switch pushes
// the callee-saved general registers on the current stack, stores the stack
// pointer through its first argument, loads the second, pops the target's
// registers and returns on the target's stack, handing it its third argument
// (the fiber that switched) as the return value. A fiber that has not run
// yet is a stack prepared by Start to look suspended: its registers hold the
// fiber (r12), and it "returns" into the entry stub, which calls
// mxcts_device_fiber_entry with the fiber and the one that switched to it.
//
// Under AddressSanitizer every switch is announced (start_switch_fiber
// before, finish_switch_fiber after), so that the sanitizer tracks which
// stack is current and does not take a fiber's frames for an overflow.
//
// Tested by fiber_test.cc.

#include "reference/device/fibers/fiber.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define MXCTS_FIBER_ANNOTATIONS 1
#endif

#if !defined(__x86_64__)
#error \
    "fiber.cc switches contexts in x86-64 assembly; another processor needs its own switch"
#endif

// mxcts_device_fiber_switch (fiber.h): the six callee-saved registers and
// the return address are the whole saved state; see the note at the top.
__asm__(R"(
  .text
  .globl mxcts_device_fiber_switch
  .type mxcts_device_fiber_switch, @function
mxcts_device_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  movq %rdx, %rax
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size mxcts_device_fiber_switch, .-mxcts_device_fiber_switch

  .globl mxcts_device_fiber_start
  .hidden mxcts_device_fiber_start
  .type mxcts_device_fiber_start, @function
mxcts_device_fiber_start:
  .cfi_startproc
  .cfi_undefined rip
  movq %r12, %rdi
  movq %rax, %rsi
  andq $-16, %rsp
  call mxcts_device_fiber_entry@PLT
  ud2
  .cfi_endproc
  .size mxcts_device_fiber_start, .-mxcts_device_fiber_start
)");
extern "C" void mxcts_device_fiber_start();

extern "C" void mxcts_device_fiber_entry(void* self_pointer,
                                         void* from_pointer) {
  using mxcts::device_internal::Fiber;
  Fiber* self = static_cast<Fiber*>(self_pointer);
  Fiber::AfterSwitchFrom(nullptr, static_cast<Fiber*>(from_pointer));
  self->body_(self);
  // Returning from the entry function would end the OS thread.
  std::fputs("mxmaca: internal error: a fiber body returned\n", stderr);
  std::abort();
}

namespace mxcts::device_internal {

// Stacks are page-aligned and equally sized, so fibers that wait at the
// same point of the same code keep their saved registers at the same page
// offset: in a 1024-thread block they all compete for a few cache sets.
// Starting each fiber's stack a different number of cache lines below the
// top spreads them over kStackColors sets.
constexpr size_t kStackColors = 64;
constexpr size_t kCacheLineBytes = 64;

void Fiber::Start(const Stack& stack, Body body, void* argument) {
  static size_t next_color = 0;  // only the engine's OS thread starts fibers
  stack_ = stack;
  body_ = body;
  argument_ = argument;
  const size_t color = (next_color++ % kStackColors) * kCacheLineBytes;
  const uintptr_t top =
      (reinterpret_cast<uintptr_t>(stack.top()) - color) & ~uintptr_t{15};
  // As mxcts_device_fiber_switch leaves a suspended fiber: r15, r14, r13,
  // r12, rbx, rbp, then the address to resume at; one word of padding above.
  void** saved = reinterpret_cast<void**>(top) - 8;
  for (int i = 0; i < 6; ++i) saved[i] = nullptr;
  saved[3] = this;  // r12
  saved[6] = reinterpret_cast<void*>(&mxcts_device_fiber_start);
  saved[7] = nullptr;
  context_ = saved;
  sanitizer_stack_bottom_ = stack.base;
  sanitizer_stack_size_ = stack.size;
  sanitizer_fake_stack_ = nullptr;
}

void Fiber::BeforeSwitchTo(const Fiber* to) {
#ifdef MXCTS_FIBER_ANNOTATIONS
  __sanitizer_start_switch_fiber(&sanitizer_fake_stack_,
                                 to->sanitizer_stack_bottom_,
                                 to->sanitizer_stack_size_);
#else
  (void)to;
#endif
}

void Fiber::AfterSwitchFrom(Fiber* self, Fiber* from) {
#ifdef MXCTS_FIBER_ANNOTATIONS
  const void* bottom = nullptr;
  size_t size = 0;
  __sanitizer_finish_switch_fiber(
      self != nullptr ? self->sanitizer_fake_stack_ : nullptr, &bottom, &size);
  from->sanitizer_stack_bottom_ = bottom;
  from->sanitizer_stack_size_ = size;
#else
  (void)self;
  (void)from;
#endif
}

void Fiber::SwitchAnnounced(Fiber* from, Fiber* to) {
  from->BeforeSwitchTo(to);
  void* resumed_by =
      mxcts_device_fiber_switch(&from->context_, to->context_, from);
  AfterSwitchFrom(from, static_cast<Fiber*>(resumed_by));
}

}  // namespace mxcts::device_internal
