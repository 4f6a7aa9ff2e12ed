// Copyright mxcts authors.
//
// mcr/mc_runtime.h: the same header as mc_runtime.h, at the path real programs
// also use. See mc_runtime.h for the summary, the usage example and every
// contract.
//
//   #include <mcr/mc_runtime.h>

#ifndef MCR_MC_RUNTIME_H_
#define MCR_MC_RUNTIME_H_

#include "../mc_runtime.h"

#endif  // MCR_MC_RUNTIME_H_
