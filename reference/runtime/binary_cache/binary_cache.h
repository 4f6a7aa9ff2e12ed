// Copyright mxcts authors.
//
// reference/runtime/binary_cache/binary_cache.h: the on-disk binary cache
// of code compiled while a program runs (docs/spec/api-binary-cache.md).
// One directory of files, one file per compiled program and key:
//
//   <directory>/<program>-<64 hex digits of the key>.mcbin
//
// where <program> is the program's name made safe for a file name
// (EntryFileName). Each file is a checked entry (cache_entry.h). The cache
// is shared by every process whose settings name the same directory:
// entries are written to a temporary file in that directory and renamed
// into place, so a reader sees a whole entry or none, and two processes
// storing the same entry at once both succeed.
// [api.cache.concurrent.processes-share-safely]
//
//   BinaryCache cache(ReadBinaryCacheSettings());
//   CacheKey key = CacheKeyBuilder().Add("source", src).Build();
//   absl::StatusOr<std::string> image = cache.GetOrCompile(
//       "saxpy", key, [&]() -> absl::StatusOr<std::string> {
//         return CompileSomehow(src);
//       });
//
// A cache that cannot use its directory behaves as a disabled one from then
// on, and says why once through the warning sink if MACA_CACHE_PATH named
// the directory; no call fails because of the cache.
// [api.cache.location.unusable-path-disables]

#ifndef MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_BINARY_CACHE_H_
#define MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_BINARY_CACHE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "reference/runtime/binary_cache/cache_key.h"
#include "reference/runtime/binary_cache/cache_settings.h"

namespace mxcts::runtime {

// Receives one warning sentence (no prefix, no newline).
using CacheWarningSink = std::function<void(const std::string&)>;

// Logs "binary cache: <warning>" at the warning level of the runtime's log
// (reference/logging), so MXLOG_LEVEL filters it as every other warning.
void LogCacheWarning(const std::string& warning);

// What GetOrCompile did.
enum class CacheOutcome {
  kHit,            // a valid entry was used; nothing was compiled
  kMissStored,     // compiled, and the result stored
  kMissNotStored,  // compiled; not stored (too large, or the store failed)
  kDisabled,       // compiled; the cache is disabled
  kCompileFailed,  // compile() failed; nothing stored
};

class BinaryCache {
 public:
  // Counts of what this object did, for tests and benchmarks.
  struct Counters {
    uint64_t hits = 0;
    uint64_t misses = 0;
    uint64_t corrupt_removed = 0;
    uint64_t stores = 0;
    uint64_t too_large = 0;
    uint64_t evicted = 0;
  };

  // Prints the settings' warnings through `warn`.
  explicit BinaryCache(BinaryCacheSettings settings,
                       CacheWarningSink warn = LogCacheWarning);
  BinaryCache(const BinaryCache&) = delete;
  BinaryCache& operator=(const BinaryCache&) = delete;

  // False if the settings disable the cache or its directory proved
  // unusable.
  bool enabled() const;
  const BinaryCacheSettings& settings() const { return settings_; }

  // "<program>-<key hex>.mcbin". `program` keeps its letters, digits, '.',
  // '_' and '-' after its last '/', other bytes become '_', at most 64 are
  // kept, and a leading '.' becomes '_'; an empty name is
  // "default_program".
  static std::string EntryFileName(absl::string_view program,
                                   const CacheKey& key);
  // True if `file_name` has the form EntryFileName gives, so the cache
  // never counts or removes other files of a shared directory.
  static bool IsEntryFileName(absl::string_view file_name);
  // The directory joined with EntryFileName.
  std::string EntryPath(absl::string_view program, const CacheKey& key) const;

  // The payload stored under `program` and `key`, checked against its hash;
  // nullopt on a miss. A corrupt entry is removed (it only costs a
  // recompilation). A hit marks the entry as recently used.
  std::optional<std::string> Lookup(absl::string_view program,
                                    const CacheKey& key);

  enum class StoreOutcome { kStored, kDisabled, kTooLarge, kFailed };
  // Writes `payload` as the entry of `program` and `key`, atomically,
  // creating the directory if needed; then removes the least recently used
  // entries while the directory holds more than settings().max_total_bytes.
  // A file larger than settings().max_entry_bytes is not written.
  // [api.cache.size.maxsize-limits-single-entry]
  StoreOutcome Store(absl::string_view program, const CacheKey& key,
                     absl::string_view payload);

  // Lookup; on a miss runs `compile` and stores what it returns. Returns
  // compile()'s error unchanged, and stores nothing then.
  absl::StatusOr<std::string> GetOrCompile(
      absl::string_view program, const CacheKey& key,
      absl::FunctionRef<absl::StatusOr<std::string>()> compile,
      CacheOutcome* outcome = nullptr);

  Counters counters() const;

 private:
  // Warns once with `why` and disables the cache from then on.
  void Disable(const std::string& why);
  // Creates the directory and its parents if missing.
  bool EnsureDirectory();
  // Removes least recently used entries (never `keep`) until the total is
  // within the limit, and temporary files that were abandoned.
  void Evict(const std::string& keep);

  const BinaryCacheSettings settings_;
  const CacheWarningSink warn_;
  mutable absl::Mutex mu_;
  bool disabled_ ABSL_GUARDED_BY(mu_) = false;
  bool directory_ready_ ABSL_GUARDED_BY(mu_) = false;
  Counters counters_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_BINARY_CACHE_H_
