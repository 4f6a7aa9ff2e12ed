// Copyright mxcts authors.
//
// reference/runtime/binary_cache/cache_settings.h: the binary cache's
// settings, from MACA_CACHE_DISABLE, MACA_CACHE_PATH and MACA_CACHE_MAXSIZE
// (docs/spec/api-binary-cache.md). Parsing is separate from reading the
// environment, so every value can be tested without a process of its own.
//
//   BinaryCacheSettings s = ParseBinaryCacheSettings(
//       {.disable = "0", .path = "/tmp/c", .max_size = "1048576",
//        .home = "/home/me"});
//   s.enabled;          // true
//   s.directory;        // "/tmp/c"
//   s.max_entry_bytes;  // 1048576
//
// An invalid value never fails: it adds a warning (the caller logs it) and
// the default applies.

#ifndef MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_CACHE_SETTINGS_H_
#define MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_CACHE_SETTINGS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace mxcts::runtime {

// [api.cache.size.default-256-mib]
inline constexpr uint64_t kDefaultCacheMaxEntryBytes = 268435456;
// [api.cache.size.clamped-to-4-gib]
inline constexpr uint64_t kCacheMaxEntryBytesCap = 4294967296;
// [api.cache.size.eviction-when-full]: the entries of a cache directory
// together stay within this many times the largest entry.
inline constexpr uint64_t kCacheTotalEntriesFactor = 4;
// The default directory, under the user's home directory.
// [api.cache.location.default-directory]
inline constexpr char kDefaultCacheSubdirectory[] = ".metax/shadercache";

// The raw values; null means unset.
struct BinaryCacheEnvironment {
  const char* disable = nullptr;   // MACA_CACHE_DISABLE
  const char* path = nullptr;      // MACA_CACHE_PATH
  const char* max_size = nullptr;  // MACA_CACHE_MAXSIZE
  const char* home = nullptr;      // HOME (else the password database's)
  // The working directory a relative MACA_CACHE_PATH is taken against;
  // empty: leave the path as given.
  std::string working_directory;
};

struct BinaryCacheSettings {
  // False when MACA_CACHE_DISABLE=1, or when no directory can be named.
  bool enabled = true;
  // The cache directory: absolute unless the environment gave a relative
  // path and no working directory. Empty when disabled for lack of one.
  std::string directory;
  // True when `directory` is the default one (MACA_CACHE_PATH unset or
  // empty): a default directory that cannot be used disables the cache
  // without a warning, since nobody asked for it.
  bool directory_is_default = false;
  // The largest cache file stored, header included.
  uint64_t max_entry_bytes = kDefaultCacheMaxEntryBytes;
  // The most all entries of the directory may hold together before the
  // least recently used are removed.
  uint64_t max_total_bytes =
      kCacheTotalEntriesFactor * kDefaultCacheMaxEntryBytes;
  // One sentence per invalid value, for the runtime's log at the warning
  // level: `MACA_CACHE_MAXSIZE="1M" is not a valid value (...); using the
  // default, 268435456`.
  std::vector<std::string> warnings;
  // One line per variable for the debug log, with the setting in force:
  // `environment: MACA_CACHE_DISABLE=0 (default)`, `environment:
  // MACA_CACHE_PATH=/abs/dir`, `environment: MACA_CACHE_MAXSIZE=1048576`
  // [api.env.general.settings-logged-at-debug].
  std::vector<std::string> setting_lines;
};

// The settings `environment` gives. Never fails.
BinaryCacheSettings ParseBinaryCacheSettings(
    const BinaryCacheEnvironment& environment);

// The settings of this process's environment, read now.
BinaryCacheSettings ReadBinaryCacheSettings();

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_CACHE_SETTINGS_H_
