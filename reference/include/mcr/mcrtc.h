// Copyright mxcts authors.
//
// mcr/mcrtc.h: the same as mcrtc.h, under the mcr/ directory where some
// programs include it.

#ifndef MCR_MCRTC_H_
#define MCR_MCRTC_H_

#include "mcrtc.h"

#endif  // MCR_MCRTC_H_
