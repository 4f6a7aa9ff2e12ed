// Copyright mxcts authors.
//
// mcr/maca.h: the same header as maca.h, at the path real programs also use.
// See maca.h for the summary, the usage example and every contract.
//
//   #include <mcr/maca.h>

#ifndef MCR_MACA_H_
#define MCR_MACA_H_

#include "../maca.h"

#endif  // MCR_MACA_H_
