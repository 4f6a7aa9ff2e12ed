// Copyright mxcts authors.
//
// mcr/detail/cooperative_groups_algorithms.h: cg::reduce, cg::inclusive_scan,
// cg::exclusive_scan and the operator types, for thread_block_tile and
// coalesced_group. Include maca_cooperative_groups.h (or
// cooperative_groups/reduce.h, cooperative_groups/scan.h), not this header;
// it states the contracts.
//
// Each algorithm is a sequence of the group's shuffles by rank, the same
// sequence in every member, so misuse (a member that skips the call) traps
// as a shuffle of the group would. The reduction is a tree over ranks
// (partners rank + 1, + 2, + 4, ...) whose result rank 0 then broadcasts;
// the scan is Hillis-Steele (partners rank - 1, - 2, - 4, ...). Both keep
// the rank order of the operands, so an associative operator that is not
// commutative gets the sequential result.

#ifndef MCR_DETAIL_COOPERATIVE_GROUPS_ALGORITHMS_H_
#define MCR_DETAIL_COOPERATIVE_GROUPS_ALGORITHMS_H_

#include "mcr/detail/cooperative_groups_groups.h"

namespace cooperative_groups {

// [api.coop.algo.operators]
template <class T>
struct plus {
  T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T>
struct less {
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T>
struct bit_or {
  T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T>
struct bit_xor {
  T operator()(const T& a, const T& b) const { return a ^ b; }
};

namespace __details {

// Whether `Group` is one the algorithms accept.
template <class Group>
struct IsAlgorithmGroup
    : std::integral_constant<bool, std::is_base_of<LaneGroup, Group>::value> {};

}  // namespace __details

// [api.coop.algo.reduce] Every member gets the combination under `op` of
// every member's `val`.
template <class Group, class T, class Op>
T reduce(const Group& group, T val, Op op) {
  static_assert(__details::IsAlgorithmGroup<Group>::value,
                "cg::reduce works on a thread_block_tile or a coalesced_group");
  const unsigned long long rank = group.thread_rank();
  const unsigned long long count = group.size();
  for (unsigned long long offset = 1; offset < count; offset *= 2) {
    const bool has_partner = rank + offset < count;
    const T other =
        group.shfl(val, static_cast<int>(has_partner ? rank + offset : rank));
    if (has_partner) val = op(val, other);
  }
  return group.shfl(val, 0);
}

// [api.coop.algo.inclusive-scan] The member of rank r gets the combination
// of the `val` of ranks 0 to r.
template <class Group, class T, class Op>
T inclusive_scan(const Group& group, T val, Op op) {
  static_assert(__details::IsAlgorithmGroup<Group>::value,
                "cg::inclusive_scan works on a thread_block_tile or a "
                "coalesced_group");
  const unsigned long long rank = group.thread_rank();
  const unsigned long long count = group.size();
  for (unsigned long long offset = 1; offset < count; offset *= 2) {
    const bool has_partner = rank >= offset;
    const T other =
        group.shfl(val, static_cast<int>(has_partner ? rank - offset : rank));
    if (has_partner) val = op(other, val);
  }
  return val;
}

template <class Group, class T>
T inclusive_scan(const Group& group, T val) {
  return inclusive_scan(group, val, plus<T>());
}

// [api.coop.algo.exclusive-scan] The member of rank r > 0 gets the
// combination of the `val` of ranks 0 to r - 1; on the reference, rank 0
// gets T() (value-initialized). [api.coop.algo.exclusive-scan-rank-zero]
template <class Group, class T, class Op>
T exclusive_scan(const Group& group, T val, Op op) {
  const T inclusive = inclusive_scan(group, val, op);
  const unsigned long long rank = group.thread_rank();
  const T previous =
      group.shfl(inclusive, static_cast<int>(rank > 0 ? rank - 1 : 0));
  return rank > 0 ? previous : T();
}

template <class Group, class T>
T exclusive_scan(const Group& group, T val) {
  return exclusive_scan(group, val, plus<T>());
}

}  // namespace cooperative_groups

#endif  // MCR_DETAIL_COOPERATIVE_GROUPS_ALGORITHMS_H_
