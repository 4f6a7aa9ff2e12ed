// Copyright mxcts authors.
//
// Parsing capability manifests. Each line is cut at its first `#`, split
// into words on white space, and checked against the table of known
// features: the first word names the feature, the rest is its value, whose
// shape the feature's kind fixes. The first bad line ends the parse, with an
// error naming the file and line, so a typo in a manifest fails loudly
// instead of silently turning a feature off.
//
// The table is the one place that lists the optional features of MXMACA;
// docs/backend-guide.md repeats it for readers.
//
// Tested by capability_manifest_test.cc.

#include "conformance/testing/capability_manifest.h"

#include <limits>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "tools/spec/file_io.h"

namespace mxcts::conformance {
namespace {

const std::vector<KnownCapability>* BuildKnownCapabilities() {
  using K = CapabilityKind;
  return new std::vector<KnownCapability>{
      {"device_count", K::kCount,
       "the number of devices the backend presents to one process"},
      {"wave_size", K::kCount,
       "the lanes of a wave (warpSize in device code); MXMACA's is 64"},
      {"managed_memory", K::kFlag, "mcMallocManaged and __managed__ variables"},
      {"peer_access", K::kFlag,
       "a device can access another device's memory once peer access is "
       "enabled"},
      {"dynamic_parallelism", K::kFlag,
       "kernels launch kernels and use the device runtime"},
      {"device_streams", K::kFlag,
       "device code creates streams and events and launches into them"},
      {"ipc", K::kFlag,
       "device memory and events are shared between processes through IPC "
       "handles"},
      {"runtime_compilation", K::kFlag,
       "mcrtc compiles source while the program runs and the module API "
       "loads the result"},
      {"cooperative_launch", K::kFlag,
       "mcLaunchCooperativeKernel and grid-wide synchronization"},
      {"cooperative_multi_device", K::kFlag,
       "cooperative launches spanning several devices"},
      {"matrix_shapes", K::kList,
       "the matrix fragment combinations supported, each written "
       "MxNxK:multiplicand:accumulator, e.g. 16x16x16:half:float"},
      {"matrix_mma_satf", K::kFlag,
       "the five-argument mma_sync(d, a, b, c, satf)"},
      {"vector_operators", K::kFlag,
       "arithmetic, comparison and compound-assignment operators on the "
       "built-in vector types"},
      {"printf", K::kFlag, "printf in device code"},
      {"device_malloc", K::kFlag, "malloc and free in device code"},
      {"graphs", K::kFlag, "graphs and stream capture"},
      {"memory_pools", K::kFlag, "memory pools and stream-ordered allocation"},
      {"binary_cache", K::kFlag,
       "the on-disk binary cache of code compiled at run time"},
      {"trap_handler", K::kFlag,
       "the MACA_TRAP_HANDLER policies for device exceptions"},
      {"kernel_timeout", K::kFlag,
       "MACA_KERNEL_TIMEOUT stops a kernel that runs past it"},
      {"reference_choices", K::kFlag,
       "trap diagnostics and compiler errors in the reference's wording, "
       "which tests of the reference's own messages check"},
      {"multi_process_service", K::kFlag,
       "the MACA_MPS_MODE policies of the multi-process service"},
      {"logging", K::kFlag,
       "the runtime's MXLOG_LEVEL log and the mcLog API of libmcanalyzer"},
      {"timeline_modes", K::kFlag,
       "MXCTS_TIMELINE selects when submitted device work runs: at "
       "submission, at the first wait that covers it, or in a shuffled "
       "order"},
      {"checked_memory", K::kFlag,
       "the MXCTS_MEMCHECK checked mode: a device access outside its "
       "allocation, to freed memory, past a __shared__ variable or to the "
       "shared memory of another block traps with mcErrorIllegalAddress"},
  };
}

absl::Status LineError(const std::string& file, int line,
                       absl::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat(file, ":", line, ": ", message));
}

// Checks `words` (the value) against the kind of `known`.
absl::Status CheckValue(const KnownCapability& known,
                        const std::vector<std::string>& words,
                        const std::string& file, int line) {
  const std::string name(known.name);
  if (words.empty()) {
    return LineError(file, line,
                     absl::StrCat("feature '", name, "' has no value"));
  }
  if (known.kind == CapabilityKind::kList) return absl::OkStatus();
  if (words.size() > 1) {
    return LineError(file, line,
                     absl::StrCat("feature '", name, "' is a ",
                                  std::string(CapabilityKindName(known.kind)),
                                  " and takes one value, not ", words.size()));
  }
  const std::string& value = words.front();
  if (known.kind == CapabilityKind::kFlag) {
    if (value == "yes" || value == "no") return absl::OkStatus();
    return LineError(
        file, line,
        absl::StrCat("feature '", name, "' is a flag: write yes or no, not '",
                     value, "'"));
  }
  int64_t count = 0;
  if (!absl::SimpleAtoi(value, &count) || count < 0 ||
      count > std::numeric_limits<int32_t>::max() ||
      !absl::ascii_isdigit(static_cast<unsigned char>(value.front()))) {
    return LineError(file, line,
                     absl::StrCat("feature '", name,
                                  "' is a count: write a number from 0 to ",
                                  std::numeric_limits<int32_t>::max(),
                                  ", not '", value, "'"));
  }
  return absl::OkStatus();
}

}  // namespace

std::string_view CapabilityKindName(CapabilityKind kind) {
  switch (kind) {
    case CapabilityKind::kFlag:
      return "flag";
    case CapabilityKind::kCount:
      return "count";
    case CapabilityKind::kList:
      return "list";
  }
  return "unknown";
}

const std::vector<KnownCapability>& KnownCapabilities() {
  static const std::vector<KnownCapability>* const known =
      BuildKnownCapabilities();
  return *known;
}

const KnownCapability* FindKnownCapability(std::string_view name) {
  for (const KnownCapability& known : KnownCapabilities()) {
    if (known.name == name) return &known;
  }
  return nullptr;
}

std::string KnownCapabilityNames() {
  std::vector<std::string> names;
  for (const KnownCapability& known : KnownCapabilities()) {
    names.push_back(std::string(known.name));
  }
  return absl::StrJoin(names, ", ");
}

absl::StatusOr<CapabilityManifest> CapabilityManifest::Parse(
    absl::string_view text, const std::string& file) {
  CapabilityManifest manifest;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    const size_t comment = line.find('#');
    if (comment != absl::string_view::npos) line = line.substr(0, comment);
    std::vector<std::string> words =
        absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
    if (words.empty()) continue;
    const std::string name = words.front();
    words.erase(words.begin());
    const KnownCapability* known = FindKnownCapability(name);
    if (known == nullptr) {
      return LineError(
          file, line_number,
          absl::StrCat("unknown feature '", name, "'; the known features are ",
                       KnownCapabilityNames()));
    }
    if (manifest.words_.count(name) != 0) {
      return LineError(file, line_number,
                       absl::StrCat("feature '", name, "' is given twice"));
    }
    absl::Status value = CheckValue(*known, words, file, line_number);
    if (!value.ok()) return value;
    manifest.words_.emplace(name, std::move(words));
  }
  return manifest;
}

absl::StatusOr<CapabilityManifest> CapabilityManifest::Read(
    const std::string& path) {
  absl::StatusOr<std::string> text = spec::ReadFile(path);
  if (!text.ok()) return text.status();
  return Parse(*text, path);
}

const std::vector<std::string>* CapabilityManifest::Words(
    std::string_view name) const {
  auto found = words_.find(name);
  return found == words_.end() ? nullptr : &found->second;
}

bool CapabilityManifest::Claims(std::string_view name) const {
  const KnownCapability* known = FindKnownCapability(name);
  const std::vector<std::string>* words = Words(name);
  if (known == nullptr || words == nullptr) return false;
  switch (known->kind) {
    case CapabilityKind::kFlag:
      return words->front() == "yes";
    case CapabilityKind::kCount:
      return Count(name).value_or(0) > 0;
    case CapabilityKind::kList:
      return true;
  }
  return false;
}

std::optional<int64_t> CapabilityManifest::Count(std::string_view name) const {
  const KnownCapability* known = FindKnownCapability(name);
  const std::vector<std::string>* words = Words(name);
  if (known == nullptr || known->kind != CapabilityKind::kCount ||
      words == nullptr) {
    return std::nullopt;
  }
  int64_t count = 0;
  if (!absl::SimpleAtoi(words->front(), &count)) return std::nullopt;
  return count;
}

bool CapabilityManifest::ListHolds(std::string_view name,
                                   std::string_view word) const {
  const KnownCapability* known = FindKnownCapability(name);
  const std::vector<std::string>* words = Words(name);
  if (known == nullptr || known->kind != CapabilityKind::kList ||
      words == nullptr) {
    return false;
  }
  for (const std::string& held : *words) {
    if (held == word) return true;
  }
  return false;
}

}  // namespace mxcts::conformance
