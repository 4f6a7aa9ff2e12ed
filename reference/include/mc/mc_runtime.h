// Copyright mxcts authors.
//
// mc/mc_runtime.h: the same header as mc_runtime.h, at the path real programs
// also use. See mc_runtime.h for the summary, the usage example and every
// contract.
//
//   #include <mc/mc_runtime.h>

#ifndef MC_MC_RUNTIME_H_
#define MC_MC_RUNTIME_H_

#include "../mc_runtime.h"

#endif  // MC_MC_RUNTIME_H_
