// Copyright mxcts authors.
//
// The binary cache on a real directory: naming, hits and misses, the size
// limits, corrupt entries, disabled and unusable directories, eviction, and
// processes sharing a directory at once.

#include "reference/runtime/binary_cache/binary_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "reference/runtime/binary_cache/cache_entry.h"

namespace mxcts::runtime {
namespace {

class BinaryCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* base = std::getenv("TEST_TMPDIR");
    std::string pattern =
        absl::StrCat(base != nullptr ? base : "/tmp", "/cacheXXXXXX");
    ASSERT_NE(mkdtemp(&pattern[0]), nullptr);
    root_ = pattern;
    directory_ = root_ + "/shadercache";
  }

  void TearDown() override {
    std::string command = "rm -rf '" + root_ + "'";
    ASSERT_EQ(std::system(command.c_str()), 0);
  }

  BinaryCacheSettings Settings(uint64_t max_entry = 1 << 20) {
    BinaryCacheSettings settings;
    settings.directory = directory_;
    settings.max_entry_bytes = max_entry;
    settings.max_total_bytes = 4 * max_entry;
    return settings;
  }

  std::unique_ptr<BinaryCache> Cache(BinaryCacheSettings settings) {
    return std::make_unique<BinaryCache>(
        std::move(settings),
        [this](const std::string& warning) { warnings_.push_back(warning); });
  }

  std::vector<std::string> Files(const std::string& directory) {
    std::vector<std::string> names;
    if (DIR* dir = opendir(directory.c_str())) {
      while (struct dirent* item = readdir(dir)) {
        const std::string name = item->d_name;
        if (name != "." && name != "..") names.push_back(name);
      }
      closedir(dir);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  static std::string ReadFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
  }

  static void WriteFile(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
  }

  static void SetModificationTime(const std::string& path, time_t seconds) {
    const struct timespec times[2] = {{seconds, 0}, {seconds, 0}};
    ASSERT_EQ(utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
  }

  static CacheKey Key(const std::string& text) {
    return CacheKeyBuilder().Add("source", text).Build();
  }

  std::string root_;
  std::string directory_;
  std::vector<std::string> warnings_;
};

TEST_F(BinaryCacheTest, EntryFileNameIsProgramDashKey) {
  const CacheKey key = Key("a");
  EXPECT_EQ(BinaryCache::EntryFileName("saxpy.cu", key),
            "saxpy.cu-" + key.hex + ".mcbin");
  EXPECT_EQ(BinaryCache::EntryFileName("", key),
            "default_program-" + key.hex + ".mcbin");
  EXPECT_EQ(BinaryCache::EntryFileName("dir/sub/k.cu", key),
            "k.cu-" + key.hex + ".mcbin");
  EXPECT_EQ(BinaryCache::EntryFileName("my kernel*", key),
            "my_kernel_-" + key.hex + ".mcbin");
  EXPECT_EQ(BinaryCache::EntryFileName(".hidden", key),
            "_hidden-" + key.hex + ".mcbin");
  EXPECT_EQ(BinaryCache::EntryFileName(std::string(100, 'p'), key),
            std::string(64, 'p') + "-" + key.hex + ".mcbin");
}

TEST_F(BinaryCacheTest, IsEntryFileNameAcceptsOnlyEntryNames) {
  const CacheKey key = Key("a");
  for (const char* program : {"", "k", "a-b.cu", "../x", "a b"}) {
    EXPECT_TRUE(
        BinaryCache::IsEntryFileName(BinaryCache::EntryFileName(program, key)))
        << program;
  }
  EXPECT_FALSE(BinaryCache::IsEntryFileName("k-" + key.hex + ".bin"));
  EXPECT_FALSE(BinaryCache::IsEntryFileName("-" + key.hex + ".mcbin"));
  EXPECT_FALSE(BinaryCache::IsEntryFileName("k" + key.hex + ".mcbin"));
  EXPECT_FALSE(
      BinaryCache::IsEntryFileName("k-" + key.hex.substr(1) + "X.mcbin"));
  EXPECT_FALSE(BinaryCache::IsEntryFileName(".k-" + key.hex + ".mcbin"));
  EXPECT_FALSE(BinaryCache::IsEntryFileName("notes.txt"));
}

TEST_F(BinaryCacheTest, MissThenStoreThenHit) {
  auto cache = Cache(Settings());
  const CacheKey key = Key("a");
  EXPECT_FALSE(cache->Lookup("k", key).has_value());
  EXPECT_EQ(cache->Store("k", key, "image"),
            BinaryCache::StoreOutcome::kStored);
  EXPECT_EQ(Files(directory_),
            std::vector<std::string>{BinaryCache::EntryFileName("k", key)});
  EXPECT_EQ(cache->Lookup("k", key).value_or("none"), "image");
  // Another key or another program name misses.
  EXPECT_FALSE(cache->Lookup("k", Key("b")).has_value());
  EXPECT_FALSE(cache->Lookup("other", key).has_value());
  const BinaryCache::Counters counters = cache->counters();
  EXPECT_EQ(counters.hits, 1u);
  EXPECT_EQ(counters.misses, 3u);
  EXPECT_EQ(counters.stores, 1u);
  EXPECT_TRUE(warnings_.empty());
}

TEST_F(BinaryCacheTest, EntryIsReadableByAnotherCacheObject) {
  Cache(Settings())->Store("k", Key("a"), "image");
  EXPECT_EQ(Cache(Settings())->Lookup("k", Key("a")).value_or("none"), "image");
}

TEST_F(BinaryCacheTest, GetOrCompileCompilesOnlyOnMiss) {
  auto cache = Cache(Settings());
  int compiles = 0;
  auto compile = [&]() -> absl::StatusOr<std::string> {
    ++compiles;
    return std::string("image");
  };
  CacheOutcome outcome;
  EXPECT_EQ(cache->GetOrCompile("k", Key("a"), compile, &outcome).value(),
            "image");
  EXPECT_EQ(outcome, CacheOutcome::kMissStored);
  EXPECT_EQ(cache->GetOrCompile("k", Key("a"), compile, &outcome).value(),
            "image");
  EXPECT_EQ(outcome, CacheOutcome::kHit);
  EXPECT_EQ(compiles, 1);
  // A new key compiles again. [api.cache.contents.keyed-by-input]
  EXPECT_TRUE(cache->GetOrCompile("k", Key("b"), compile, &outcome).ok());
  EXPECT_EQ(compiles, 2);
}

TEST_F(BinaryCacheTest, FailedCompileIsNotStored) {
  auto cache = Cache(Settings());
  CacheOutcome outcome;
  absl::StatusOr<std::string> result = cache->GetOrCompile(
      "k", Key("a"),
      []() -> absl::StatusOr<std::string> {
        return absl::InvalidArgumentError("syntax error");
      },
      &outcome);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(outcome, CacheOutcome::kCompileFailed);
  EXPECT_TRUE(Files(directory_).empty());
}

// [api.cache.location.default-directory]: missing directories are made.
TEST_F(BinaryCacheTest, StoreCreatesTheDirectoryAndParents) {
  directory_ = root_ + "/a/b/c";
  auto cache = Cache(Settings());
  EXPECT_EQ(cache->Store("k", Key("a"), "x"),
            BinaryCache::StoreOutcome::kStored);
  EXPECT_EQ(Files(directory_).size(), 1u);
}

// A directory removed while the process runs is made again.
TEST_F(BinaryCacheTest, RemovedDirectoryIsMadeAgain) {
  auto cache = Cache(Settings());
  ASSERT_EQ(cache->Store("k", Key("a"), "x"),
            BinaryCache::StoreOutcome::kStored);
  ASSERT_EQ(std::system(("rm -rf '" + directory_ + "'").c_str()), 0);
  EXPECT_EQ(cache->Store("k", Key("b"), "x"),
            BinaryCache::StoreOutcome::kStored);
  EXPECT_EQ(Files(directory_).size(), 1u);
  EXPECT_TRUE(warnings_.empty());
}

// Looking up creates nothing: a program that only hits or never compiles
// leaves no directory behind.
TEST_F(BinaryCacheTest, LookupCreatesNoDirectory) {
  auto cache = Cache(Settings());
  EXPECT_FALSE(cache->Lookup("k", Key("a")).has_value());
  struct stat info;
  EXPECT_NE(stat(directory_.c_str(), &info), 0);
}

// [api.cache.disable.value-one-disables]
TEST_F(BinaryCacheTest, DisabledCacheNeitherReadsNorWrites) {
  Cache(Settings())->Store("k", Key("a"), "cached");
  BinaryCacheSettings settings = Settings();
  settings.enabled = false;
  auto cache = Cache(settings);
  int compiles = 0;
  CacheOutcome outcome;
  auto compile = [&]() -> absl::StatusOr<std::string> {
    ++compiles;
    return std::string("fresh");
  };
  EXPECT_EQ(cache->GetOrCompile("k", Key("a"), compile, &outcome).value(),
            "fresh");
  EXPECT_EQ(outcome, CacheOutcome::kDisabled);
  EXPECT_EQ(cache->GetOrCompile("k", Key("b"), compile, &outcome).value(),
            "fresh");
  EXPECT_EQ(compiles, 2);
  EXPECT_EQ(Files(directory_).size(), 1u);  // only the enabled cache's entry
}

// [api.cache.location.unusable-path-disables]
TEST_F(BinaryCacheTest, RegularFileAsDirectoryDisablesWithOneWarning) {
  directory_ = root_ + "/file";
  WriteFile(directory_, "not a directory");
  auto cache = Cache(Settings());
  int compiles = 0;
  auto compile = [&]() -> absl::StatusOr<std::string> {
    ++compiles;
    return std::string("image");
  };
  EXPECT_EQ(cache->GetOrCompile("k", Key("a"), compile).value(), "image");
  EXPECT_EQ(cache->GetOrCompile("k", Key("a"), compile).value(), "image");
  EXPECT_EQ(compiles, 2);
  EXPECT_FALSE(cache->enabled());
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_TRUE(absl::StrContains(warnings_[0], directory_)) << warnings_[0];
  EXPECT_EQ(ReadFile(directory_), "not a directory");
}

// The default directory, unusable, disables the cache without a word.
TEST_F(BinaryCacheTest, UnusableDefaultDirectoryDisablesSilently) {
  directory_ = root_ + "/file";
  WriteFile(directory_, "not a directory");
  BinaryCacheSettings settings = Settings();
  settings.directory_is_default = true;
  auto cache = Cache(settings);
  EXPECT_EQ(cache->Store("k", Key("a"), "x"),
            BinaryCache::StoreOutcome::kDisabled);
  EXPECT_FALSE(cache->enabled());
  EXPECT_TRUE(warnings_.empty());
}

TEST_F(BinaryCacheTest, ReadOnlyDirectoryDisables) {
  if (geteuid() == 0) {
    GTEST_SKIP() << "root writes into read-only directories, so the "
                    "permission cannot make the directory unusable";
  }
  ASSERT_EQ(mkdir(directory_.c_str(), 0555), 0);
  auto cache = Cache(Settings());
  EXPECT_EQ(cache->Store("k", Key("a"), "x"),
            BinaryCache::StoreOutcome::kDisabled);
  EXPECT_FALSE(cache->enabled());
  EXPECT_EQ(warnings_.size(), 1u);
  EXPECT_TRUE(Files(directory_).empty());
  chmod(directory_.c_str(), 0755);
}

// [api.cache.size.maxsize-limits-single-entry]: the file may be as large
// as the limit, and not one byte larger.
TEST_F(BinaryCacheTest, EntryAtTheLimitIsStoredOneByteMoreIsNot) {
  const uint64_t limit = 1000;
  auto cache = Cache(Settings(limit));
  const std::string fits(limit - kCacheEntryHeaderBytes, 'x');
  const std::string too_large(limit - kCacheEntryHeaderBytes + 1, 'x');
  EXPECT_EQ(cache->Store("k", Key("fits"), fits),
            BinaryCache::StoreOutcome::kStored);
  EXPECT_EQ(cache->Store("k", Key("large"), too_large),
            BinaryCache::StoreOutcome::kTooLarge);
  EXPECT_TRUE(cache->Lookup("k", Key("fits")).has_value());
  EXPECT_FALSE(cache->Lookup("k", Key("large")).has_value());
  EXPECT_EQ(Files(directory_).size(), 1u);
  EXPECT_EQ(cache->counters().too_large, 1u);
  EXPECT_TRUE(cache->enabled());
}

TEST_F(BinaryCacheTest, ZeroLimitStoresNothing) {
  auto cache = Cache(Settings(0));
  CacheOutcome outcome;
  EXPECT_TRUE(cache
                  ->GetOrCompile(
                      "k", Key("a"),
                      [] { return absl::StatusOr<std::string>("x"); }, &outcome)
                  .ok());
  EXPECT_EQ(outcome, CacheOutcome::kMissNotStored);
  EXPECT_TRUE(Files(directory_).empty());
}

// [api.cache.corrupt.entry-ignored-and-rebuilt]
class CorruptEntry : public BinaryCacheTest,
                     public ::testing::WithParamInterface<int> {};

TEST_P(CorruptEntry, IsRemovedAndRebuilt) {
  auto cache = Cache(Settings());
  const CacheKey key = Key("a");
  ASSERT_EQ(cache->Store("k", key, "the image"),
            BinaryCache::StoreOutcome::kStored);
  const std::string path = cache->EntryPath("k", key);
  std::string file = ReadFile(path);
  switch (GetParam()) {
    case 0:  // empty
      file.clear();
      break;
    case 1:  // truncated header
      file.resize(40);
      break;
    case 2:  // truncated payload
      file.resize(file.size() - 1);
      break;
    case 3:  // a payload byte changed
      file.back() ^= 1;
      break;
    case 4:  // another key's entry under this name
      file = EncodeCacheEntry(Key("b"), "the image");
      break;
    case 5:  // not an entry at all
      file = "garbage";
      break;
  }
  WriteFile(path, file);
  int compiles = 0;
  CacheOutcome outcome;
  absl::StatusOr<std::string> image = cache->GetOrCompile(
      "k", key,
      [&]() -> absl::StatusOr<std::string> {
        ++compiles;
        return std::string("the image");
      },
      &outcome);
  EXPECT_EQ(image.value(), "the image");
  EXPECT_EQ(compiles, 1);
  EXPECT_EQ(outcome, CacheOutcome::kMissStored);
  EXPECT_EQ(cache->counters().corrupt_removed, 1u);
  EXPECT_EQ(ReadFile(path), EncodeCacheEntry(key, "the image"));
  // The rebuilt entry hits.
  EXPECT_EQ(cache->Lookup("k", key).value_or("none"), "the image");
}

INSTANTIATE_TEST_SUITE_P(Kinds, CorruptEntry, ::testing::Range(0, 6));

// A corrupt entry that cannot be removed still only costs a compilation.
TEST_F(BinaryCacheTest, CorruptEntryInReadOnlyDirectoryIsIgnored) {
  if (geteuid() == 0) {
    GTEST_SKIP() << "root may write into read-only directories";
  }
  auto cache = Cache(Settings());
  ASSERT_EQ(cache->Store("k", Key("a"), "x"),
            BinaryCache::StoreOutcome::kStored);
  WriteFile(cache->EntryPath("k", Key("a")), "garbage");
  ASSERT_EQ(chmod(directory_.c_str(), 0555), 0);
  EXPECT_FALSE(Cache(Settings())->Lookup("k", Key("a")).has_value());
  chmod(directory_.c_str(), 0755);
}

TEST_F(BinaryCacheTest, NoTemporaryFilesRemain) {
  auto cache = Cache(Settings());
  for (int i = 0; i < 10; ++i) {
    cache->Store("k", Key(std::to_string(i)), "image");
  }
  for (const std::string& name : Files(directory_)) {
    EXPECT_TRUE(BinaryCache::IsEntryFileName(name)) << name;
  }
}

// [api.cache.size.eviction-when-full]: least recently used first, never
// foreign files.
TEST_F(BinaryCacheTest, EvictsLeastRecentlyUsedBeyondTheTotal) {
  const uint64_t limit = 1000;  // total: 4000 bytes, 4 full-size entries
  auto cache = Cache(Settings(limit));
  const std::string payload(limit - kCacheEntryHeaderBytes, 'x');
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(cache->Store("k", Key(std::to_string(i)), payload),
              BinaryCache::StoreOutcome::kStored);
    SetModificationTime(cache->EntryPath("k", Key(std::to_string(i))),
                        1000000 + i);
  }
  WriteFile(directory_ + "/notes.txt", std::string(5000, 'n'));
  // Using entry 0 makes entry 1 the least recently used.
  ASSERT_TRUE(cache->Lookup("k", Key("0")).has_value());
  ASSERT_EQ(cache->Store("k", Key("4"), payload),
            BinaryCache::StoreOutcome::kStored);
  EXPECT_TRUE(cache->Lookup("k", Key("0")).has_value());
  EXPECT_FALSE(cache->Lookup("k", Key("1")).has_value());
  EXPECT_TRUE(cache->Lookup("k", Key("2")).has_value());
  EXPECT_TRUE(cache->Lookup("k", Key("3")).has_value());
  EXPECT_TRUE(cache->Lookup("k", Key("4")).has_value());
  EXPECT_EQ(cache->counters().evicted, 1u);
  EXPECT_EQ(ReadFile(directory_ + "/notes.txt").size(), 5000u);
}

// The control: within the total nothing is evicted.
TEST_F(BinaryCacheTest, NothingEvictedWithinTheTotal) {
  const uint64_t limit = 1000;
  auto cache = Cache(Settings(limit));
  const std::string payload(limit - kCacheEntryHeaderBytes, 'x');
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(cache->Store("k", Key(std::to_string(i)), payload),
              BinaryCache::StoreOutcome::kStored);
  }
  EXPECT_EQ(cache->counters().evicted, 0u);
  EXPECT_EQ(Files(directory_).size(), 4u);
}

TEST_F(BinaryCacheTest, AbandonedTemporariesAreRemovedFreshOnesKept) {
  auto cache = Cache(Settings());
  ASSERT_EQ(cache->Store("k", Key("a"), "x"),
            BinaryCache::StoreOutcome::kStored);
  const std::string old_temporary =
      directory_ + "/.k-" + Key("b").hex + ".mcbin.1.0.tmp";
  const std::string fresh_temporary =
      directory_ + "/.k-" + Key("c").hex + ".mcbin.2.0.tmp";
  WriteFile(old_temporary, "partial");
  WriteFile(fresh_temporary, "partial");
  SetModificationTime(old_temporary, time(nullptr) - 2 * 3600);
  ASSERT_EQ(cache->Store("k", Key("d"), "x"),
            BinaryCache::StoreOutcome::kStored);
  const std::vector<std::string> files = Files(directory_);
  EXPECT_EQ(std::count(files.begin(), files.end(),
                       old_temporary.substr(directory_.size() + 1)),
            0);
  EXPECT_EQ(std::count(files.begin(), files.end(),
                       fresh_temporary.substr(directory_.size() + 1)),
            1);
}

TEST_F(BinaryCacheTest, SettingsWarningsGoToTheSink) {
  BinaryCacheSettings settings = Settings();
  settings.warnings = {"first", "second"};
  auto cache = Cache(settings);
  EXPECT_EQ(warnings_, (std::vector<std::string>{"first", "second"}));
}

// [api.cache.concurrent.processes-share-safely]: processes storing and
// reading the same entries at once all succeed, and no reader ever finds a
// partial entry (which it would count as corrupt).
TEST_F(BinaryCacheTest, ProcessesShareADirectory) {
  constexpr int kProcesses = 4;
  constexpr int kRounds = 40;
  const std::string payload(64 * 1024, 'p');
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      BinaryCache cache(Settings(), [](const std::string&) { _exit(3); });
      for (int round = 0; round < kRounds; ++round) {
        const CacheKey key = Key(std::to_string(round % 5));
        absl::StatusOr<std::string> image = cache.GetOrCompile(
            "shared", key,
            [&]() -> absl::StatusOr<std::string> { return payload; });
        if (!image.ok() || *image != payload) _exit(1);
        // Rewrite what others read.
        cache.Store("shared", key, payload);
      }
      _exit(cache.counters().corrupt_removed == 0 ? 0 : 2);
    }
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0)
        << "1: wrong image, 2: a partial entry was seen, 3: a warning";
  }
  std::vector<std::string> files = Files(directory_);
  EXPECT_EQ(files.size(), 5u);
  for (const std::string& name : files) {
    EXPECT_TRUE(BinaryCache::IsEntryFileName(name)) << name;
  }
}

}  // namespace
}  // namespace mxcts::runtime
