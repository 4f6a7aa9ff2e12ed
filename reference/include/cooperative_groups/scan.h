// Copyright mxcts authors.
//
// cooperative_groups/scan.h: declares the cooperative-groups algorithms
// (cg::reduce, cg::inclusive_scan, cg::exclusive_scan and the operator
// types); maca_cooperative_groups.h declares them too. See that header for
// the contracts. [api.coop.algo.header]
//
//   #include <cooperative_groups/scan.h>

#ifndef COOPERATIVE_GROUPS_SCAN_H_
#define COOPERATIVE_GROUPS_SCAN_H_

#include "../maca_cooperative_groups.h"

#endif  // COOPERATIVE_GROUPS_SCAN_H_
