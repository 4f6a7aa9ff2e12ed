// Copyright mxcts authors.
//
// mc/mc_runtime_api.h: the same header as mc_runtime_api.h, at the path real
// programs also use. See mc_runtime_api.h for the summary, the usage example
// and every contract.
//
//   #include <mc/mc_runtime_api.h>

#ifndef MC_MC_RUNTIME_API_H_
#define MC_MC_RUNTIME_API_H_

#include "../mc_runtime_api.h"

#endif  // MC_MC_RUNTIME_API_H_
