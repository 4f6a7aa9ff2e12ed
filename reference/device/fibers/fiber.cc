// Copyright mxcts authors.
//
// jump_fcontext(to, data) resumes `to` and hands it `data`; in the resumed
// fiber the call that suspended it (or the fiber's entry function) receives
// the suspended context of the fiber that jumped, plus `data`. That suspended
// context must be stored in the jumping fiber's object, so that someone can
// switch back to it later. The jumping side cannot store it itself (it only
// exists once the jump has happened), so every switch passes a record naming
// the jumping fiber, and the resumed side stores the context there first
// thing. The record lives on the jumping fiber's stack, which stays intact
// while that fiber is suspended.
//
// Under AddressSanitizer every switch is announced (start_switch_fiber
// before, finish_switch_fiber after), so that the sanitizer tracks which
// stack is current and does not take a fiber's frames for an overflow.
//
// Tested by fiber_test.cc.

#include "reference/device/fibers/fiber.h"

#include <cstdio>
#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define MXCTS_FIBER_ANNOTATIONS 1
#endif

namespace mxcts::device_internal {
namespace {

namespace ctx = boost::context::detail;

struct SwitchRecord {
  Fiber* from;
  Fiber* to;
};

}  // namespace

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
  context_ = ctx::make_fcontext(static_cast<char*>(stack.top()) - color,
                                stack.size - color, &Fiber::Trampoline);
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

void Fiber::Trampoline(ctx::transfer_t transfer) {
  auto* record = static_cast<SwitchRecord*>(transfer.data);
  record->from->context_ = transfer.fctx;
  AfterSwitchFrom(nullptr, record->from);
  Fiber* self = record->to;
  self->body_(self);
  // Returning from the entry function would end the OS thread.
  std::fputs("mxmaca: internal error: a fiber body returned\n", stderr);
  std::abort();
}

void Fiber::Switch(Fiber* from, Fiber* to) {
  SwitchRecord record{from, to};
  from->BeforeSwitchTo(to);
  ctx::transfer_t transfer = ctx::jump_fcontext(to->context_, &record);
  // Resumed: store the context of the fiber that switched to us.
  auto* resumed_by = static_cast<SwitchRecord*>(transfer.data);
  resumed_by->from->context_ = transfer.fctx;
  AfterSwitchFrom(from, resumed_by->from);
}

}  // namespace mxcts::device_internal
