// Copyright mxcts authors.
//
// reference/device/scheduling/floating_point_environment.h: the floating-
// point environment a grid runs in, and the host's, given back after it.
//
// A grid runs with every exception flag clear and every exception masked
// but the ones its trap policy reports (policy 2 unmasks division by zero,
// invalid and overflow). When the grid ends the host's environment comes
// back exactly, flags included, as if fegetenv and fesetenv had saved and
// restored it.
//
//   {
//     GridFloatingPointEnvironment environment(FE_DIVBYZERO | FE_INVALID);
//     ... run the grid ...
//   }  // the host's environment again
//
// fegetenv and fesetenv save and load the whole x87 environment, which
// costs about a tenth of an empty launch; on x86-64 this saves the SSE
// control and status register and the x87 control and status words, and
// takes the full path only when the host had x87 exception flags raised.

#ifndef REFERENCE_DEVICE_SCHEDULING_FLOATING_POINT_ENVIRONMENT_H_
#define REFERENCE_DEVICE_SCHEDULING_FLOATING_POINT_ENVIRONMENT_H_

#include <fenv.h>

namespace mxcts::device_internal {

class GridFloatingPointEnvironment {
 public:
  // Saves the calling OS thread's environment and installs the grid's:
  // the exception flags of FE_ALL_EXCEPT clear, the exceptions of
  // FE_ALL_EXCEPT masked except those of `unmasked` (FE_* bits).
  explicit GridFloatingPointEnvironment(int unmasked);
  // Restores the saved environment.
  ~GridFloatingPointEnvironment();

  GridFloatingPointEnvironment(const GridFloatingPointEnvironment&) = delete;
  GridFloatingPointEnvironment& operator=(const GridFloatingPointEnvironment&) =
      delete;

 private:
#if defined(__x86_64__)
  unsigned host_sse_control_status_ = 0;  // MXCSR
  unsigned short host_x87_control_ = 0;
  // The host had x87 exception flags raised: host_environment_ holds them.
  bool host_x87_flags_raised_ = false;
#endif
  fenv_t host_environment_{};
};

}  // namespace mxcts::device_internal

#endif  // REFERENCE_DEVICE_SCHEDULING_FLOATING_POINT_ENVIRONMENT_H_
