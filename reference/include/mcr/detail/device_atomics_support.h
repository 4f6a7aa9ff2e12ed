// Copyright mxcts authors.
//
// mcr/detail/device_atomics_support.h: what every atomic function of
// mcr/detail/device_atomics.h is built from. Not for programs; the names
// live in namespace `__mc_atomic` and in `__MC_ATOMIC_*` macros, both
// reserved.
//
// Three pieces:
//
// * The address check. Every atomic first checks its address: a null
//   address stops the grid with mcErrorIllegalAddress, an address that is
//   not a multiple of the operand's size with mcErrorMisalignedAddress, each
//   with a diagnostic naming the function and the address
//   [lang.atomic.alignment.natural-alignment-required]
//   [lang.atomic.address.invalid-address-traps]. The trap paths are out of
//   line and cold, so the check costs an inlined compare and branch.
//
// * The operations, on the GCC `__atomic` builtins, so that they are
//   atomic for real: device threads run one at a time on one OS thread, but
//   host threads may update managed and mapped memory while a kernel runs
//   [lang.atomic.scope.system-atomic-across-devices-and-host]. Operations
//   the hardware has no instruction for (minimum, maximum, the wrapping
//   increment and decrement, floating-point and half additions) are a
//   compare-and-swap loop. Every operation is relaxed: it is atomic and
//   orders nothing else [lang.atomic.ordering.relaxed-only]; the fences of
//   device_atomics_fence.h order.
//
// * The macros that stamp out the public overloads. Each overload exists
//   three times, unsuffixed, `_block` and `_system`; in the reference all
//   three are the same operation, atomic with respect to every thread of the
//   process, which is what the widest scope promises and more than the
//   narrower ones require [lang.atomic.scope.default-is-device]
//   [lang.atomic.scope.block-atomic-within-block]. In the device pass
//   (`__MACA_ARCH__` defined) the macros define inline functions; in the
//   host pass, and in plain host compilations of the runtime headers, they
//   only declare them, with an error attribute, so that a call the host
//   compiler emits from host code is a compile-time error naming the
//   function [lang.atomic.general.device-code-only]. Device code never
//   reaches the host pass: mxcc replaces kernel and `__device__` bodies
//   there (reference/compiler/design.md, rewrites 2 and 4).
//
// The overloads are plain functions, not templates, so that the operand is
// converted as for any call: `atomicAdd(double*, int)` adds a double
// [lang.atomic.general.plain-overloads-convert-operand].

#ifndef MCR_DETAIL_DEVICE_ATOMICS_SUPPORT_H_
#define MCR_DETAIL_DEVICE_ATOMICS_SUPPORT_H_

#include "mcr/detail/device_abi.h"

namespace __mc_atomic {

// Every atomic is relaxed. [lang.atomic.ordering.relaxed-only]
constexpr int kOrder = __ATOMIC_RELAXED;

// A diagnostic built in a fixed buffer: device code has no std::string,
// and the trap copies the text before the frame is abandoned.
class TrapMessage {
 public:
  TrapMessage() { text_[0] = '\0'; }

  TrapMessage& Append(const char* text) {
    while (*text != '\0' && length_ + 1 < kCapacity) text_[length_++] = *text++;
    text_[length_] = '\0';
    return *this;
  }

  // `0x` and the lowercase hexadecimal digits without leading zeros, as
  // printf's `%p` writes a non-null pointer.
  TrapMessage& AppendAddress(const volatile void* address) {
    unsigned long long bits = reinterpret_cast<__UINTPTR_TYPE__>(address);
    char digits[2 * sizeof(bits) + 1];
    int count = 0;
    do {
      digits[count++] = "0123456789abcdef"[bits % 16];
      bits /= 16;
    } while (bits != 0);
    Append("0x");
    char one[2] = {0, 0};
    while (count > 0) {
      one[0] = digits[--count];
      Append(one);
    }
    return *this;
  }

  const char* text() const { return text_; }

 private:
  static constexpr int kCapacity = 256;
  char text_[kCapacity];
  int length_ = 0;
};

// Stops the grid: `function` was given a null address.
// [lang.atomic.address.invalid-address-traps]
[[noreturn]] __attribute__((__noinline__, __cold__)) inline void TrapNull(
    const char* function) {
  TrapMessage message;
  message.Append(function).Append(
      ": null address: not mapped device memory "
      "[lang.atomic.address.invalid-address-traps]");
  __mc_dev_trap(mcErrorIllegalAddress, message.text());
}

// Stops the grid: `function` was given `address`, which is not a multiple
// of the operand's `size` bytes.
// [lang.atomic.alignment.misaligned-16-bit-traps]
// [lang.atomic.alignment.misaligned-32-bit-traps]
// [lang.atomic.alignment.misaligned-64-bit-traps]
[[noreturn]] __attribute__((__noinline__, __cold__)) inline void TrapMisaligned(
    const char* function, const volatile void* address, unsigned size) {
  TrapMessage message;
  message.Append(function).Append(": misaligned address ");
  message.AppendAddress(address);
  switch (size) {
    case 2:
      message.Append(
          ": a 16-bit atomic needs 2-byte alignment "
          "[lang.atomic.alignment.misaligned-16-bit-traps]");
      break;
    case 4:
      message.Append(
          ": a 32-bit atomic needs 4-byte alignment "
          "[lang.atomic.alignment.misaligned-32-bit-traps]");
      break;
    default:
      message.Append(
          ": a 64-bit atomic needs 8-byte alignment "
          "[lang.atomic.alignment.misaligned-64-bit-traps]");
      break;
  }
  __mc_dev_trap(mcErrorMisalignedAddress, message.text());
}

// Traps unless `address` is non-null and a multiple of sizeof(T).
// [lang.atomic.alignment.natural-alignment-required]
template <class T>
__attribute__((__always_inline__)) inline void CheckAddress(
    const volatile T* address, const char* function) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "atomics are on 16-, 32- and 64-bit words");
  const __UINTPTR_TYPE__ bits = reinterpret_cast<__UINTPTR_TYPE__>(address);
  if (__builtin_expect(bits == 0, 0)) TrapNull(function);
  if (__builtin_expect(bits % sizeof(T) != 0, 0)) {
    TrapMisaligned(function, address, sizeof(T));
  }
}

// The one read-modify-write every other operation reduces to: replaces the
// word `old` at `address` by `next(old)` in one compare-and-swap, retrying
// when another thread changed the word in between, and returns `old`.
// Compares bit patterns, so a NaN word does not loop forever.
// [lang.atomic.general.indivisible-read-modify-write]
// [lang.atomic.general.returns-old-value]
template <class T, class Next>
inline T Update(T* address, Next next) {
  T old;
  __atomic_load(address, &old, kOrder);
  T desired = next(old);
  while (!__atomic_compare_exchange(address, &old, &desired, /*weak=*/true,
                                    kOrder, kOrder)) {
    desired = next(old);
  }
  return old;
}

// --- Integer operations with a builtin. ---

template <class T>
inline T FetchAdd(T* address, T val, const char* function) {
  CheckAddress(address, function);
  return __atomic_fetch_add(address, val, kOrder);
}

template <class T>
inline T FetchSub(T* address, T val, const char* function) {
  CheckAddress(address, function);
  return __atomic_fetch_sub(address, val, kOrder);
}

template <class T>
inline T FetchAnd(T* address, T val, const char* function) {
  CheckAddress(address, function);
  return __atomic_fetch_and(address, val, kOrder);
}

template <class T>
inline T FetchOr(T* address, T val, const char* function) {
  CheckAddress(address, function);
  return __atomic_fetch_or(address, val, kOrder);
}

template <class T>
inline T FetchXor(T* address, T val, const char* function) {
  CheckAddress(address, function);
  return __atomic_fetch_xor(address, val, kOrder);
}

// Stores `val` and returns the old word, bit for bit (float NaN payloads
// and -0.0 included). [lang.atomic.exch.float-bits-preserved]
template <class T>
inline T Exchange(T* address, T val, const char* function) {
  CheckAddress(address, function);
  T old;
  __atomic_exchange(address, &val, &old, kOrder);
  return old;
}

// Stores `val` if the word equals `compare`; returns the old word either
// way. [lang.atomic.cas.semantics]
template <class T>
inline T CompareAndSwap(T* address, T compare, T val, const char* function) {
  CheckAddress(address, function);
  __atomic_compare_exchange(address, &compare, &val, /*weak=*/false, kOrder,
                            kOrder);
  return compare;  // the old word: unchanged on success, loaded on failure
}

// --- Operations built on Update. ---

// The smaller of the word and `val`, compared in T (signed or unsigned).
// [lang.atomic.minmax.signedness]
template <class T>
inline T Minimum(T* address, T val, const char* function) {
  CheckAddress(address, function);
  return Update(address, [val](T old) { return val < old ? val : old; });
}

template <class T>
inline T Maximum(T* address, T val, const char* function) {
  CheckAddress(address, function);
  return Update(address, [val](T old) { return old < val ? val : old; });
}

// `(old >= val) ? 0 : old + 1`. [lang.atomic.inc.wraps-at-limit]
inline unsigned int WrappingIncrement(unsigned int* address, unsigned int val,
                                      const char* function) {
  CheckAddress(address, function);
  return Update(address,
                [val](unsigned int old) { return old >= val ? 0u : old + 1; });
}

// `(old == 0 || old > val) ? val : old - 1`. [lang.atomic.dec.wraps-at-zero]
inline unsigned int WrappingDecrement(unsigned int* address, unsigned int val,
                                      const char* function) {
  CheckAddress(address, function);
  return Update(address, [val](unsigned int old) {
    return (old == 0 || old > val) ? val : old - 1;
  });
}

// `old + val` in T's arithmetic (float, double: rounded to nearest even).
// [lang.atomic.add.float] [lang.atomic.add.double]
template <class T>
inline T FloatingAdd(T* address, T val, const char* function) {
  CheckAddress(address, function);
  return Update(address, [val](T old) { return old + val; });
}

}  // namespace __mc_atomic

// --------------------------------------------------------------------------
// Stamping out the public overloads.
// --------------------------------------------------------------------------

// The attribute that makes a host-pass call of `NAME` a compile-time error.
#define __MC_ATOMIC_DEVICE_ONLY(NAME, CLAUSE)                           \
  __attribute__((__error__(#NAME " is a device function: call it from " \
                                 "__global__ or __device__ code " CLAUSE)))

// `R NAME PARAMETERS { BODY }` in the device pass; a declaration that
// rejects host calls in the host pass.
#ifdef __MACA_ARCH__
#define __MC_ATOMIC_FUNCTION(R, NAME, PARAMETERS, BODY) \
  inline R NAME PARAMETERS { BODY }
#else
#define __MC_ATOMIC_FUNCTION(R, NAME, PARAMETERS, BODY) \
  R NAME PARAMETERS __MC_ATOMIC_DEVICE_ONLY(            \
      NAME, "[lang.atomic.general.device-code-only]");
#endif

// `T NAME(T* address, T val)`, returning OPERATION(address, val, "NAME").
#define __MC_ATOMIC_BINARY_ONE(T, NAME, OPERATION)    \
  __MC_ATOMIC_FUNCTION(T, NAME, (T * address, T val), \
                       return ::__mc_atomic::OPERATION(address, val, #NAME);)

// The unsuffixed, `_block` and `_system` forms of one binary overload.
// [lang.atomic.scope.block-variants-exist]
// [lang.atomic.scope.system-variants-exist]
#define __MC_ATOMIC_BINARY(T, NAME, OPERATION)       \
  __MC_ATOMIC_BINARY_ONE(T, NAME, OPERATION)         \
  __MC_ATOMIC_BINARY_ONE(T, NAME##_block, OPERATION) \
  __MC_ATOMIC_BINARY_ONE(T, NAME##_system, OPERATION)

// `T NAME(T* address, T compare, T val)` in its three forms.
#define __MC_ATOMIC_CAS_ONE(T, NAME)            \
  __MC_ATOMIC_FUNCTION(                         \
      T, NAME, (T * address, T compare, T val), \
      return ::__mc_atomic::CompareAndSwap(address, compare, val, #NAME);)
#define __MC_ATOMIC_CAS(T, NAME)       \
  __MC_ATOMIC_CAS_ONE(T, NAME)         \
  __MC_ATOMIC_CAS_ONE(T, NAME##_block) \
  __MC_ATOMIC_CAS_ONE(T, NAME##_system)

#endif  // MCR_DETAIL_DEVICE_ATOMICS_SUPPORT_H_
