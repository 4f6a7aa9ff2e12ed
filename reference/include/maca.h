// Copyright mxcts authors.
//
// ==========================================================================
// maca.h: the MXMACA driver-style entry header
// ==========================================================================
//
// Programs that use the driver-style calls (mcInit, mcDriverGetVersion,
// mcDeviceptr_t with mcMemcpyHtoD / mcMemcpyDtoH) include this header. In
// MXMACA the driver-style and runtime calls form one API, so this header
// declares exactly what mc_runtime_api.h declares; see there for each
// function's contract.
//
//   #include <maca.h>
//
//   mcInit(0);
//   mcDeviceptr_t d;
//   mcMalloc(&d, n);
//   mcMemcpyHtoD(d, host, n);
//   mcMemcpyDtoH(host, d, n);
//   mcFree(d);

#ifndef MACA_H_
#define MACA_H_

#include "mc_runtime_api.h"

#endif  // MACA_H_
