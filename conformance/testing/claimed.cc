// Copyright mxcts authors.
//
// claimed.h over the requirements of capabilities.h.

#include "conformance/testing/claimed.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "conformance/testing/capabilities.h"

namespace mxcts::conformance {
namespace {

// MXMACA's wave [model.exec.wave-size-is-64], the reference's.
constexpr int kMxmacaWaveSize = 64;

}  // namespace

bool Claimed(const char* feature) {
  const CapabilityRequirement claimed = RequireCapability(feature);
  if (claimed.status == CapabilityRequirement::Status::kError) {
    ADD_FAILURE() << claimed.message;
    return true;
  }
  return claimed.status == CapabilityRequirement::Status::kMet;
}

int ClaimedWaveSize() {
  std::string why;
  const std::optional<int64_t> claimed = ClaimedCount("wave_size", &why);
  if (claimed.has_value()) {
    if (*claimed > 0) return static_cast<int>(*claimed);
    ADD_FAILURE() << "the manifest's wave_size is " << *claimed
                  << ", not a number of lanes";
    return kMxmacaWaveSize;
  }
  // Omitted, or no answer at all: RequireCapability tells them apart.
  const CapabilityRequirement requirement = RequireCapability("wave_size");
  if (requirement.status == CapabilityRequirement::Status::kError) {
    ADD_FAILURE() << requirement.message;
  }
  return kMxmacaWaveSize;
}

}  // namespace mxcts::conformance
