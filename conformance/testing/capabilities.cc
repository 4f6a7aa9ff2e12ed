// Copyright mxcts authors.
//
// Deciding a test's capability requirements. Each requirement first checks
// that the test asks a sensible question (a known feature, of the kind the
// macro expects): a wrong question is the test's bug and fails it whatever
// the backend claims. Then it reads the manifest named by
// $MXMACA_CAPABILITIES and answers from it. A missing variable or a bad
// manifest is an error, never "unsupported": the report must not show a
// feature as unsupported because the test ran in the wrong environment.
//
// Tested by capabilities_test.cc.

#include "conformance/testing/capabilities.h"

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "conformance/testing/capability_manifest.h"

namespace mxcts::conformance {
namespace {

using Status = CapabilityRequirement::Status;

CapabilityRequirement Met() { return {Status::kMet, ""}; }

CapabilityRequirement Unsupported(std::string_view feature,
                                  std::string_view why,
                                  const std::string& path) {
  return {Status::kUnsupported,
          absl::StrCat("unsupported: ", std::string(feature), " ",
                       std::string(why), " (capability manifest ", path, ")")};
}

CapabilityRequirement Error(std::string message) {
  return {Status::kError, std::move(message)};
}

// Checks that `feature` is known and, unless `kind` is null, of that kind.
// Returns its table entry if so; otherwise sets `*error`, returns nullptr.
const KnownCapability* CheckQuestion(std::string_view feature,
                                     const CapabilityKind* kind,
                                     std::string_view macro,
                                     CapabilityRequirement* error) {
  const KnownCapability* known = FindKnownCapability(feature);
  if (known == nullptr) {
    *error = Error(absl::StrCat("unknown capability '", std::string(feature),
                                "'; the known features are ",
                                KnownCapabilityNames()));
    return nullptr;
  }
  if (kind != nullptr && known->kind != *kind) {
    *error = Error(absl::StrCat(std::string(macro), " needs a ",
                                std::string(CapabilityKindName(*kind)),
                                ", and '", std::string(feature), "' is a ",
                                std::string(CapabilityKindName(known->kind))));
    return nullptr;
  }
  return known;
}

// Reads the manifest named by the environment; sets `*path` to its path.
absl::StatusOr<CapabilityManifest> ReadManifestFromEnvironment(
    std::string* path) {
  const char* value = std::getenv(kCapabilitiesVariable);
  if (value == nullptr || *value == '\0') {
    return absl::FailedPreconditionError(absl::StrCat(
        kCapabilitiesVariable,
        " is not set: run the test through mxmaca_test or conformance_test "
        "(tools/build_defs), or set it to the backend's capability manifest"));
  }
  *path = value;
  return CapabilityManifest::Read(*path);
}

}  // namespace

CapabilityRequirement RequireCapability(std::string_view feature) {
  CapabilityRequirement error;
  if (CheckQuestion(feature, nullptr, "", &error) == nullptr) return error;
  std::string path;
  absl::StatusOr<CapabilityManifest> manifest =
      ReadManifestFromEnvironment(&path);
  if (!manifest.ok()) return Error(std::string(manifest.status().message()));
  if (manifest->Claims(feature)) return Met();
  return Unsupported(feature, "is not claimed", path);
}

CapabilityRequirement RequireCapabilityAtLeast(std::string_view feature,
                                               int64_t minimum) {
  CapabilityRequirement error;
  const CapabilityKind kind = CapabilityKind::kCount;
  if (CheckQuestion(feature, &kind, "MX_REQUIRE_CAPABILITY_AT_LEAST", &error) ==
      nullptr) {
    return error;
  }
  std::string path;
  absl::StatusOr<CapabilityManifest> manifest =
      ReadManifestFromEnvironment(&path);
  if (!manifest.ok()) return Error(std::string(manifest.status().message()));
  std::optional<int64_t> count = manifest->Count(feature);
  if (!count.has_value()) {
    return Unsupported(feature, "is not claimed", path);
  }
  if (*count >= minimum) return Met();
  return Unsupported(
      feature,
      absl::StrCat("is ", *count, ", the test needs at least ", minimum), path);
}

CapabilityRequirement RequireCapabilityValue(std::string_view feature,
                                             std::string_view word) {
  CapabilityRequirement error;
  const CapabilityKind kind = CapabilityKind::kList;
  if (CheckQuestion(feature, &kind, "MX_REQUIRE_CAPABILITY_VALUE", &error) ==
      nullptr) {
    return error;
  }
  std::string path;
  absl::StatusOr<CapabilityManifest> manifest =
      ReadManifestFromEnvironment(&path);
  if (!manifest.ok()) return Error(std::string(manifest.status().message()));
  if (manifest->ListHolds(feature, word)) return Met();
  return Unsupported(
      feature, absl::StrCat("does not include ", std::string(word)), path);
}

std::optional<int64_t> ClaimedCount(std::string_view feature,
                                    std::string* error) {
  std::string ignored;
  std::string& why = error != nullptr ? *error : ignored;
  why.clear();
  CapabilityRequirement wrong;
  const CapabilityKind kind = CapabilityKind::kCount;
  if (CheckQuestion(feature, &kind, "ClaimedCount", &wrong) == nullptr) {
    why = wrong.message;
    return std::nullopt;
  }
  std::string path;
  absl::StatusOr<CapabilityManifest> manifest =
      ReadManifestFromEnvironment(&path);
  if (!manifest.ok()) {
    why = std::string(manifest.status().message());
    return std::nullopt;
  }
  std::optional<int64_t> count = manifest->Count(feature);
  if (!count.has_value()) {
    why = absl::StrCat(std::string(feature), " is not in ", path);
  }
  return count;
}

}  // namespace mxcts::conformance
