// Copyright mxcts authors.
//
// mcr/mc_runtime_api.h: the same header as mc_runtime_api.h, at the path real
// programs also use. See mc_runtime_api.h for the summary, the usage example
// and every contract.
//
//   #include <mcr/mc_runtime_api.h>

#ifndef MCR_MC_RUNTIME_API_H_
#define MCR_MC_RUNTIME_API_H_

#include "../mc_runtime_api.h"

#endif  // MCR_MC_RUNTIME_API_H_
