// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/testing/capability_manifest.h
// -----------------------------------------------------------------------------
//
// A backend's capability manifest: the optional features it claims, so that
// a test of a feature it does not claim reports "unsupported" instead of
// failing. The manifest is a text file, one feature per line:
//
//   # The reference backend.
//   device_count        2
//   peer_access         yes
//   dynamic_parallelism yes
//   matrix_shapes       16x16x16:half:float 16x16x16:half:half
//
// A line is a feature name, white space, and its value; `#` starts a comment
// that runs to the end of the line; blank lines are ignored. Each feature is
// one of the known features below and appears at most once. Its kind says
// what its value is:
//
//   * a flag: `yes` or `no`; claimed when `yes`;
//   * a count: a decimal integer from 0 to 2^31-1; claimed when above 0;
//   * a list: one or more words; claimed when present.
//
// A feature the manifest does not mention is not claimed. docs/backend-
// guide.md lists the features for backend authors.
//
// Example:
//
//   absl::StatusOr<CapabilityManifest> manifest =
//       CapabilityManifest::Parse(text, "capabilities.txt");
//   if (!manifest.ok()) return manifest.status();  // "file:line: message"
//   if (manifest->Claims("peer_access")) ...

#ifndef MXCTS_CONFORMANCE_TESTING_CAPABILITY_MANIFEST_H_
#define MXCTS_CONFORMANCE_TESTING_CAPABILITY_MANIFEST_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mxcts::conformance {

enum class CapabilityKind {
  kFlag,
  kCount,
  kList,
};

// Returns "flag", "count" or "list".
std::string_view CapabilityKindName(CapabilityKind kind);

struct KnownCapability {
  std::string_view name;
  CapabilityKind kind;
  // What claiming it means, for messages and the backend guide.
  std::string_view meaning;
};

// Every feature a manifest may name, in the order the guide lists them.
const std::vector<KnownCapability>& KnownCapabilities();

// Returns the known feature called `name`, or nullptr.
const KnownCapability* FindKnownCapability(std::string_view name);

// The known features' names, separated by ", " (for error messages).
std::string KnownCapabilityNames();

class CapabilityManifest {
 public:
  // Parses a manifest; `file` names it in errors.
  //
  // Returns absl::InvalidArgumentError "<file>:<line>: <message>" for the
  // first bad line: an unknown feature, a feature given twice, a missing
  // value, a flag that is not yes/no, a count that is not a number in range,
  // or several words for a flag or count.
  static absl::StatusOr<CapabilityManifest> Parse(absl::string_view text,
                                                  const std::string& file);

  // Reads and parses the manifest at `path`. Fails as Parse does, or with
  // the reader's error naming `path`.
  static absl::StatusOr<CapabilityManifest> Read(const std::string& path);

  // True if the manifest claims the known feature `name` (a flag set to yes,
  // a count above 0, a list present). False for an unknown name.
  bool Claims(std::string_view name) const;

  // The value of the count `name`, or nullopt if the manifest omits it.
  std::optional<int64_t> Count(std::string_view name) const;

  // True if the list `name` is present and holds `word`.
  bool ListHolds(std::string_view name, std::string_view word) const;

  // The words of feature `name` as written, or nullptr if it is absent.
  const std::vector<std::string>* Words(std::string_view name) const;

 private:
  std::map<std::string, std::vector<std::string>, std::less<>> words_;
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_TESTING_CAPABILITY_MANIFEST_H_
