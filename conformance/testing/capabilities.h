// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/testing/capabilities.h
// -----------------------------------------------------------------------------
//
// Lets a conformance test of an optional feature run only where the backend
// claims that feature. A test names what it needs as the first statements of
// its body, after MX_SPEC:
//
//   TEST(PeerAccess, CopiesBetweenDevices) {
//     MX_SPEC("api.peer.enable.allows-access");
//     MX_REQUIRE_CAPABILITY("peer_access");
//     MX_REQUIRE_CAPABILITY_AT_LEAST("device_count", 2);
//     ...
//   }
//
// Where the backend's capability manifest (capability_manifest.h) does not
// claim the feature, the test is skipped with a message that starts with
// "unsupported: ", which the spec coverage report shows as *unsupported*,
// never as passed or failed. A test that asks for an unknown feature, or
// runs without a readable manifest, fails: silently skipping it would hide
// the mistake.
//
// The manifest's path comes from the environment variable
// MXMACA_CAPABILITIES, which mxmaca_test and conformance_test
// (tools/build_defs) set to the selected backend's manifest. The file is
// read at each requirement, so a test process always sees the current one.
//
// The macros return from the enclosing function when they skip or fail, so
// use them in a test body or SetUp(), not in a helper whose caller goes on.

#ifndef MXCTS_CONFORMANCE_TESTING_CAPABILITIES_H_
#define MXCTS_CONFORMANCE_TESTING_CAPABILITIES_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mxcts::conformance {

// The environment variable holding the capability manifest's path.
inline constexpr char kCapabilitiesVariable[] = "MXMACA_CAPABILITIES";

// The answer to one requirement.
struct CapabilityRequirement {
  enum class Status {
    kMet,          // the backend claims what the test needs: run it
    kUnsupported,  // it does not: skip the test as unsupported
    kError,        // the requirement cannot be decided: fail the test
  };
  Status status = Status::kError;
  // Empty for kMet; "unsupported: <feature> ..." for kUnsupported; what is
  // wrong (unknown feature, unset variable, unreadable manifest) for kError.
  std::string message;
};

// Requires that the manifest claims `feature`: a flag set to yes, a count
// above 0, or a list that is present.
CapabilityRequirement RequireCapability(std::string_view feature);

// Requires that the count `feature` is at least `minimum`. kError if
// `feature` is not a count.
CapabilityRequirement RequireCapabilityAtLeast(std::string_view feature,
                                               int64_t minimum);

// Requires that the list `feature` holds `word`. kError if `feature` is not
// a list.
CapabilityRequirement RequireCapabilityValue(std::string_view feature,
                                             std::string_view word);

// The value of the count `feature` in the manifest, or nullopt where the
// manifest omits it, `feature` is not a known count or the manifest cannot
// be read (`*error`, when not null, then says why; it is cleared otherwise).
std::optional<int64_t> ClaimedCount(std::string_view feature,
                                    std::string* error = nullptr);

}  // namespace mxcts::conformance

// Skips the test as unsupported unless the backend claims `feature` (a
// string naming a known feature); fails it if that cannot be decided.
#define MX_REQUIRE_CAPABILITY(feature)      \
  MX_INTERNAL_APPLY_CAPABILITY_REQUIREMENT( \
      ::mxcts::conformance::RequireCapability(feature))

// Skips the test as unsupported unless the count `feature` is >= `minimum`.
#define MX_REQUIRE_CAPABILITY_AT_LEAST(feature, minimum) \
  MX_INTERNAL_APPLY_CAPABILITY_REQUIREMENT(              \
      ::mxcts::conformance::RequireCapabilityAtLeast(feature, minimum))

// Skips the test as unsupported unless the list `feature` holds `word`.
#define MX_REQUIRE_CAPABILITY_VALUE(feature, word) \
  MX_INTERNAL_APPLY_CAPABILITY_REQUIREMENT(        \
      ::mxcts::conformance::RequireCapabilityValue(feature, word))

#define MX_INTERNAL_APPLY_CAPABILITY_REQUIREMENT(requirement_expression)     \
  do {                                                                       \
    const ::mxcts::conformance::CapabilityRequirement mx_requirement =       \
        (requirement_expression);                                            \
    if (mx_requirement.status ==                                             \
        ::mxcts::conformance::CapabilityRequirement::Status::kUnsupported) { \
      GTEST_SKIP() << mx_requirement.message;                                \
    }                                                                        \
    if (mx_requirement.status ==                                             \
        ::mxcts::conformance::CapabilityRequirement::Status::kError) {       \
      GTEST_FAIL() << mx_requirement.message;                                \
    }                                                                        \
  } while (false)

#endif  // MXCTS_CONFORMANCE_TESTING_CAPABILITIES_H_
