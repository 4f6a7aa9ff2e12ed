// Copyright mxcts authors.
//
// On x86-64 the environment is two registers: the SSE control and status
// register (MXCSR: exception flags in bits 0-5, their masks in bits 7-12,
// rounding and flush modes above), which ldmxcsr restores whole in a few
// cycles, and the x87 control and status words (masks and flags in bits
// 0-5 of each), whose flags only the slow fldenv can set. So the x87 flags
// take the slow path when the host had some raised, and otherwise are
// simply cleared again at the end if device code raised any. The bits
// touched are those glibc's feclearexcept, fedisableexcept and
// feenableexcept touch for FE_ALL_EXCEPT (which leaves the denormal
// exception alone).
//
// Tested by floating_point_environment_test.cc, against fegetenv.

#include "reference/device/scheduling/floating_point_environment.h"

namespace mxcts::device_internal {

#if defined(__x86_64__)

namespace {

constexpr unsigned kExceptionBits = FE_ALL_EXCEPT & 0x3f;
constexpr unsigned kSseMaskShift = 7;

unsigned ReadSseControlStatus() {
  unsigned value;
  __asm__ volatile("stmxcsr %0" : "=m"(value));
  return value;
}

void WriteSseControlStatus(unsigned value) {
  __asm__ volatile("ldmxcsr %0" : : "m"(value));
}

unsigned short ReadX87Control() {
  unsigned short value;
  __asm__ volatile("fnstcw %0" : "=m"(value));
  return value;
}

void WriteX87Control(unsigned short value) {
  __asm__ volatile("fldcw %0" : : "m"(value));
}

unsigned short ReadX87Status() {
  unsigned short value;
  __asm__ volatile("fnstsw %0" : "=am"(value));
  return value;
}

void ClearX87Exceptions() { __asm__ volatile("fnclex"); }

}  // namespace

GridFloatingPointEnvironment::GridFloatingPointEnvironment(int unmasked) {
  const unsigned masked = kExceptionBits & ~static_cast<unsigned>(unmasked);
  host_sse_control_status_ = ReadSseControlStatus();
  host_x87_control_ = ReadX87Control();
  host_x87_flags_raised_ = (ReadX87Status() & kExceptionBits) != 0;
  if (host_x87_flags_raised_) {
    fegetenv(&host_environment_);
    feclearexcept(FE_ALL_EXCEPT);
  }
  unsigned sse = host_sse_control_status_;
  sse &= ~kExceptionBits;
  sse &= ~(kExceptionBits << kSseMaskShift);
  sse |= masked << kSseMaskShift;
  WriteSseControlStatus(sse);
  const unsigned short x87 = static_cast<unsigned short>(
      (host_x87_control_ & ~kExceptionBits) | masked);
  if (x87 != host_x87_control_) WriteX87Control(x87);
}

GridFloatingPointEnvironment::~GridFloatingPointEnvironment() {
  if (host_x87_flags_raised_) {
    fesetenv(&host_environment_);  // the x87 environment, and MXCSR below
  } else if ((ReadX87Status() & kExceptionBits) != 0) {
    ClearX87Exceptions();
  }
  if (ReadX87Control() != host_x87_control_) {
    WriteX87Control(host_x87_control_);
  }
  WriteSseControlStatus(host_sse_control_status_);
}

#else  // not x86-64: the C library's functions.

GridFloatingPointEnvironment::GridFloatingPointEnvironment(int unmasked) {
  fegetenv(&host_environment_);
  feclearexcept(FE_ALL_EXCEPT);
  fedisableexcept(FE_ALL_EXCEPT);
  if (unmasked != 0) feenableexcept(unmasked);
}

GridFloatingPointEnvironment::~GridFloatingPointEnvironment() {
  fesetenv(&host_environment_);
}

#endif

}  // namespace mxcts::device_internal
