// Copyright mxcts authors.
//
// cooperative_groups.h: the same header as maca_cooperative_groups.h, at the
// path programs written for either spelling include. See
// maca_cooperative_groups.h for the summary, the usage example and every
// contract. [api.coop.header.cuda-spelling]
//
//   #include <cooperative_groups.h>
//   namespace cg = cooperative_groups;

#ifndef COOPERATIVE_GROUPS_H_
#define COOPERATIVE_GROUPS_H_

#include "maca_cooperative_groups.h"

#endif  // COOPERATIVE_GROUPS_H_
