// Copyright mxcts authors.
//
// A suspended fiber is its stack pointer, frame pointer and resume address
// (fiber.h, where the switch is inline assembly). A fiber that has not run
// yet resumes at the entry stub with the fiber on the top of its stack and
// the fiber that switched in %rax; the stub calls mxcts_device_fiber_entry
// with them.
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

// The entry stub: entered by a switch with the new fiber on the top of its
// stack and the one that switched in %rax.
__asm__(R"(
  .text
  .globl mxcts_device_fiber_start
  .hidden mxcts_device_fiber_start
  .type mxcts_device_fiber_start, @function
mxcts_device_fiber_start:
  .cfi_startproc
  .cfi_undefined rip
  movq (%rsp), %rdi
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
  // The stub finds the fiber on the stack and calls the entry with the
  // stack 16-byte aligned.
  void** saved = reinterpret_cast<void**>(top) - 2;
  saved[0] = this;
  saved[1] = nullptr;
  context_.stack_pointer = saved;
  context_.frame_pointer = nullptr;
  context_.resume_address = reinterpret_cast<void*>(&mxcts_device_fiber_start);
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
  Fiber* resumed_by = SwitchContext(from, to->context_);
  AfterSwitchFrom(from, resumed_by);
}

}  // namespace mxcts::device_internal
