// Copyright mxcts authors.
//
// The constant pages are asked first: they lie in an image, never in an
// arena, so the order only saves the arena search for constant writes. A
// live allocation of a device protected from the running grid (checked
// mode, peer_protection.h) is asked about before the memory manager, whose
// explanation of an address inside a live allocation would be wrong.
//
// Tested by fault_classifier_test.cc and checked_memory_test.cc.

#include "reference/runtime/traps/fault_classifier.h"

#include <optional>
#include <string>
#include <utility>

#include "reference/runtime/images/image_registry.h"
#include "reference/runtime/memory/memory_manager.h"
#include "reference/runtime/peer/peer_protection.h"

namespace mxcts::runtime {

bool ClassifyRuntimeFault(uintptr_t address,
                          mxcts::device::FaultDescription* description) {
  std::optional<std::string> what =
      ImageRegistry::Get().DescribeConstantFault(address);
  if (!what.has_value()) what = DescribePeerFault(address);
  if (!what.has_value()) what = MemoryManager::Get().DescribeFault(address);
  if (!what.has_value()) return false;
  description->error = mcErrorIllegalAddress;
  description->message = std::move(*what);
  return true;
}

}  // namespace mxcts::runtime
