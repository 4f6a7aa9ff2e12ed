// Copyright mxcts authors.
//
// cooperative_groups/reduce.h: declares the cooperative-groups algorithms
// (cg::reduce, cg::inclusive_scan, cg::exclusive_scan and the operator
// types); maca_cooperative_groups.h declares them too. See that header for
// the contracts. [api.coop.algo.header]
//
//   #include <cooperative_groups/reduce.h>

#ifndef COOPERATIVE_GROUPS_REDUCE_H_
#define COOPERATIVE_GROUPS_REDUCE_H_

#include "../maca_cooperative_groups.h"

#endif  // COOPERATIVE_GROUPS_REDUCE_H_
