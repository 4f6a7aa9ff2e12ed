// Copyright mxcts authors.
//
// The cache works on files only; it keeps no index, so any number of
// processes can share a directory without a lock:
//
// - Lookup opens the entry's file, reads it whole and checks it
//   (cache_entry.h). A corrupt file is unlinked, but only if the name still
//   refers to the file that was read: another process may have renamed a
//   good entry over it meanwhile. A hit sets the file's modification time
//   to now, which is the "last used" time eviction sorts by (access times
//   are unreliable under relatime and noatime mounts).
// - Store writes ".<entry>.<pid>.<n>.tmp" in the cache directory and
//   renames it onto the entry's name. rename() within one directory is
//   atomic, so readers see the old file or the new one, never a partial
//   one; when two processes store the same key, the last rename wins and
//   both files were whole.
// - Eviction runs after a store: it lists the directory's entry files (only
//   names of the EntryFileName form, so foreign files are never touched),
//   and while their sizes add up to more than max_total_bytes removes the
//   one used least recently, never the entry just written. Temporary files
//   older than an hour are left-overs of a process that died mid-write and
//   are removed too.
//
// A failure to create the directory or to write into it disables the cache
// for the rest of the process, with one warning if MACA_CACHE_PATH named
// the directory (none for the default one): the program then compiles as
// it would without a cache. Reading never disables it.
//
// Tested by binary_cache_test.cc.

#include "reference/runtime/binary_cache/binary_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "reference/logging/log.h"
#include "reference/runtime/binary_cache/cache_entry.h"

namespace mxcts::runtime {

namespace {

constexpr absl::string_view kEntrySuffix = ".mcbin";
constexpr absl::string_view kTemporarySuffix = ".tmp";
constexpr size_t kMaxProgramNameBytes = 64;
// Temporary files older than this belong to a process that died.
constexpr time_t kAbandonedTemporarySeconds = 3600;

std::string ErrnoText(int error) { return std::strerror(error); }

bool IsSafeNameByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

// Reads the whole of `fd`, expecting `size` bytes.
bool ReadWhole(int fd, size_t size, std::string& out) {
  out.resize(size);
  size_t done = 0;
  while (done < size) {
    const ssize_t got = read(fd, &out[done], size - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    done += static_cast<size_t>(got);
  }
  // A file that grew after fstat is not the file that was measured.
  char extra;
  return read(fd, &extra, 1) == 0;
}

bool WriteWhole(int fd, absl::string_view bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t put = write(fd, bytes.data() + done, bytes.size() - done);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return false;
    done += static_cast<size_t>(put);
  }
  return true;
}

// Removes `path` if it still names the file (device, inode) that was read.
bool RemoveIfSameFile(const std::string& path, const struct stat& read) {
  struct stat now;
  if (lstat(path.c_str(), &now) != 0) return false;
  if (now.st_dev != read.st_dev || now.st_ino != read.st_ino) return false;
  return unlink(path.c_str()) == 0;
}

}  // namespace

void LogCacheWarning(const std::string& warning) {
  MCR_LOGW("binary cache: %s", warning.c_str());
}

BinaryCache::BinaryCache(BinaryCacheSettings settings, CacheWarningSink warn)
    : settings_(std::move(settings)), warn_(std::move(warn)) {
  for (const std::string& warning : settings_.warnings) warn_(warning);
}

bool BinaryCache::enabled() const {
  absl::MutexLock lock(&mu_);
  return settings_.enabled && !disabled_;
}

BinaryCache::Counters BinaryCache::counters() const {
  absl::MutexLock lock(&mu_);
  return counters_;
}

void BinaryCache::Disable(const std::string& why) {
  {
    absl::MutexLock lock(&mu_);
    if (disabled_) return;
    disabled_ = true;
  }
  // A home directory that cannot hold the cache (read-only in a sandbox or
  // a container) is common and harmless; only a directory the user named
  // is worth a warning.
  if (settings_.directory_is_default) return;
  warn_(absl::StrCat(why, "; the binary cache is disabled for this process"));
}

std::string BinaryCache::EntryFileName(absl::string_view program,
                                       const CacheKey& key) {
  const size_t slash = program.rfind('/');
  if (slash != absl::string_view::npos) program.remove_prefix(slash + 1);
  std::string name;
  for (char c : program.substr(0, kMaxProgramNameBytes)) {
    name.push_back(IsSafeNameByte(c) ? c : '_');
  }
  if (name.empty()) name = "default_program";
  // A leading '.' would hide the entry and could look like a temporary.
  if (name[0] == '.') name[0] = '_';
  return absl::StrCat(name, "-", key.hex, kEntrySuffix);
}

bool BinaryCache::IsEntryFileName(absl::string_view file_name) {
  // At least one name byte, '-', 64 hex digits, ".mcbin".
  const size_t fixed = 1 + 64 + kEntrySuffix.size();
  if (file_name.size() <= fixed || file_name[0] == '.') return false;
  if (!absl::EndsWith(file_name, kEntrySuffix)) return false;
  const size_t dash = file_name.size() - fixed;
  if (file_name[dash] != '-') return false;
  for (char c : file_name.substr(0, dash)) {
    if (!IsSafeNameByte(c)) return false;
  }
  return IsCacheKeyHex(file_name.substr(dash + 1, 64));
}

std::string BinaryCache::EntryPath(absl::string_view program,
                                   const CacheKey& key) const {
  return absl::StrCat(settings_.directory, "/", EntryFileName(program, key));
}

std::optional<std::string> BinaryCache::Lookup(absl::string_view program,
                                               const CacheKey& key) {
  if (!enabled()) return std::nullopt;
  const std::string path = EntryPath(program, key);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    absl::MutexLock lock(&mu_);
    ++counters_.misses;
    return std::nullopt;
  }
  struct stat info {};
  std::string file;
  const bool stat_ok = fstat(fd, &info) == 0;
  const bool read_ok = stat_ok && S_ISREG(info.st_mode) &&
                       static_cast<uint64_t>(info.st_size) <=
                           kCacheMaxEntryBytesCap + kCacheEntryHeaderBytes &&
                       ReadWhole(fd, static_cast<size_t>(info.st_size), file);
  absl::StatusOr<std::string> payload =
      read_ok ? DecodeCacheEntry(file, key)
              : absl::StatusOr<std::string>(
                    absl::DataLossError("unreadable cache entry"));
  close(fd);
  if (!payload.ok()) {
    // [api.cache.corrupt.entry-ignored-and-rebuilt]
    const bool removed =
        stat_ok && S_ISREG(info.st_mode) && RemoveIfSameFile(path, info);
    absl::MutexLock lock(&mu_);
    ++counters_.misses;
    if (removed) ++counters_.corrupt_removed;
    return std::nullopt;
  }
  // Mark it used for eviction. [api.cache.size.eviction-when-full]
  const struct timespec now[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
  utimensat(AT_FDCWD, path.c_str(), now, AT_SYMLINK_NOFOLLOW);
  absl::MutexLock lock(&mu_);
  ++counters_.hits;
  return *std::move(payload);
}

bool BinaryCache::EnsureDirectory() {
  {
    absl::MutexLock lock(&mu_);
    if (directory_ready_) return true;
  }
  const std::string& directory = settings_.directory;
  // mkdir -p: each prefix that ends before a '/', then the whole path.
  for (size_t i = 1; i <= directory.size(); ++i) {
    if (i < directory.size() && directory[i] != '/') continue;
    const std::string prefix = directory.substr(0, i);
    if (mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST) {
      Disable(absl::StrCat("cannot create the directory '", prefix,
                           "': ", ErrnoText(errno)));
      return false;
    }
  }
  struct stat info;
  if (stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    Disable(absl::StrCat("'", directory, "' is not a directory"));
    return false;
  }
  absl::MutexLock lock(&mu_);
  directory_ready_ = true;
  return true;
}

BinaryCache::StoreOutcome BinaryCache::Store(absl::string_view program,
                                             const CacheKey& key,
                                             absl::string_view payload) {
  if (!enabled()) return StoreOutcome::kDisabled;
  // [api.cache.size.maxsize-limits-single-entry]
  if (kCacheEntryHeaderBytes + payload.size() > settings_.max_entry_bytes) {
    absl::MutexLock lock(&mu_);
    ++counters_.too_large;
    return StoreOutcome::kTooLarge;
  }
  if (!EnsureDirectory()) return StoreOutcome::kDisabled;

  static std::atomic<uint64_t> temporaries{0};
  const std::string name = EntryFileName(program, key);
  const std::string final_path = absl::StrCat(settings_.directory, "/", name);
  const std::string temporary_path =
      absl::StrCat(settings_.directory, "/.", name, ".", getpid(), ".",
                   temporaries.fetch_add(1), kTemporarySuffix);
  int fd = open(temporary_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                0644);
  if (fd < 0 && errno == ENOENT) {
    // The directory went away since it was made (a user cleaned the
    // cache): make it again, once.
    {
      absl::MutexLock lock(&mu_);
      directory_ready_ = false;
    }
    if (!EnsureDirectory()) return StoreOutcome::kDisabled;
    fd = open(temporary_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
              0644);
  }
  if (fd < 0) {
    Disable(absl::StrCat("cannot write in '", settings_.directory,
                         "': ", ErrnoText(errno)));
    return StoreOutcome::kDisabled;
  }
  const std::string file = EncodeCacheEntry(key, payload);
  const bool written = WriteWhole(fd, file);
  const int write_error = errno;
  const bool closed = close(fd) == 0;
  if (!written || !closed) {
    unlink(temporary_path.c_str());
    Disable(absl::StrCat("cannot write '", temporary_path,
                         "': ", ErrnoText(write_error)));
    return StoreOutcome::kFailed;
  }
  // [api.cache.concurrent.processes-share-safely]
  if (rename(temporary_path.c_str(), final_path.c_str()) != 0) {
    const int rename_error = errno;
    unlink(temporary_path.c_str());
    Disable(absl::StrCat("cannot rename '", temporary_path, "' to '",
                         final_path, "': ", ErrnoText(rename_error)));
    return StoreOutcome::kFailed;
  }
  {
    absl::MutexLock lock(&mu_);
    ++counters_.stores;
  }
  Evict(name);
  return StoreOutcome::kStored;
}

void BinaryCache::Evict(const std::string& keep) {
  DIR* directory = opendir(settings_.directory.c_str());
  if (directory == nullptr) return;
  struct Entry {
    std::string name;
    uint64_t bytes;
    struct timespec used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  const time_t now = time(nullptr);
  while (struct dirent* item = readdir(directory)) {
    const absl::string_view name = item->d_name;
    const bool is_entry = IsEntryFileName(name);
    const bool is_temporary = absl::StartsWith(name, ".") &&
                              absl::EndsWith(name, kTemporarySuffix) &&
                              absl::StrContains(name, kEntrySuffix);
    if (!is_entry && !is_temporary) continue;
    struct stat info;
    if (fstatat(dirfd(directory), item->d_name, &info, AT_SYMLINK_NOFOLLOW) !=
            0 ||
        !S_ISREG(info.st_mode)) {
      continue;
    }
    if (is_temporary) {
      if (now - info.st_mtime > kAbandonedTemporarySeconds) {
        unlinkat(dirfd(directory), item->d_name, 0);
      }
      continue;
    }
    total += static_cast<uint64_t>(info.st_size);
    entries.push_back(
        {std::string(name), static_cast<uint64_t>(info.st_size), info.st_mtim});
  }
  if (total <= settings_.max_total_bytes) {
    closedir(directory);
    return;
  }
  // [api.cache.size.eviction-when-full] Least recently used first; ties by
  // name, so the order does not depend on the directory's.
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.used.tv_sec != b.used.tv_sec) {
      return a.used.tv_sec < b.used.tv_sec;
    }
    if (a.used.tv_nsec != b.used.tv_nsec) {
      return a.used.tv_nsec < b.used.tv_nsec;
    }
    return a.name < b.name;
  });
  uint64_t evicted = 0;
  for (const Entry& entry : entries) {
    if (total <= settings_.max_total_bytes) break;
    if (entry.name == keep) continue;
    if (unlinkat(dirfd(directory), entry.name.c_str(), 0) == 0) ++evicted;
    // Gone either way: removed here, or by another process.
    total -= entry.bytes;
  }
  closedir(directory);
  absl::MutexLock lock(&mu_);
  counters_.evicted += evicted;
}

absl::StatusOr<std::string> BinaryCache::GetOrCompile(
    absl::string_view program, const CacheKey& key,
    absl::FunctionRef<absl::StatusOr<std::string>()> compile,
    CacheOutcome* outcome) {
  CacheOutcome result = CacheOutcome::kDisabled;
  const bool was_enabled = enabled();
  if (was_enabled) {
    if (std::optional<std::string> hit = Lookup(program, key)) {
      if (outcome != nullptr) *outcome = CacheOutcome::kHit;
      return *std::move(hit);
    }
  }
  absl::StatusOr<std::string> compiled = compile();
  if (!compiled.ok()) {
    result = CacheOutcome::kCompileFailed;
  } else if (was_enabled) {
    result = Store(program, key, *compiled) == StoreOutcome::kStored
                 ? CacheOutcome::kMissStored
                 : CacheOutcome::kMissNotStored;
  }
  if (outcome != nullptr) *outcome = result;
  return compiled;
}

}  // namespace mxcts::runtime
