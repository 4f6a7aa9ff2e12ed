// Copyright mxcts authors.
//
// The member function a group calls for each wave operation, and a set of
// the names made so far: a program has a handful of group types, so the set
// stays small, and a node-based set keeps every name at its address.
//
// Tested by reference/device/cooperative_grid_test.cc.

#include "reference/device/collectives/group_names.h"

#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "mcr/detail/device_abi.h"

namespace mxcts::device_internal {
namespace {

const char* MemberName(int operation) {
  switch (operation) {
    case __MC_WAVE_SYNC:
      return "sync";
    case __MC_WAVE_SHFL_IDX:
      return "shfl";
    case __MC_WAVE_SHFL_UP:
      return "shfl_up";
    case __MC_WAVE_SHFL_DOWN:
      return "shfl_down";
    case __MC_WAVE_SHFL_XOR:
      return "shfl_xor";
    case __MC_WAVE_BALLOT:
      return "ballot";
    case __MC_WAVE_ANY:
      return "any";
    case __MC_WAVE_ALL:
      return "all";
    case __MC_WAVE_MATCH_ANY:
      return "match_any";
    case __MC_WAVE_MATCH_ALL:
      return "match_all";
    default:
      return "collective";
  }
}

}  // namespace

const char* GroupOperationName(const char* group, int operation) {
  static std::set<std::string>* const names = new std::set<std::string>();
  return names->insert(absl::StrCat(group, "::", MemberName(operation), "()"))
      .first->c_str();
}

}  // namespace mxcts::device_internal
