// Copyright mxcts authors.
//
// The three variables, parsed as strictly as the runtime's other variables:
// MACA_CACHE_DISABLE is "0" or "1"; MACA_CACHE_MAXSIZE is decimal digits
// only ("1e6", " 42", "-1" and "" are not sizes), a number too long for any
// integer type counting as above the cap; MACA_CACHE_PATH is any non-empty
// path, made absolute against the working directory at initialization so
// that a later chdir does not move the cache. Anything else is a warning
// and the default [api.cache.size.invalid-value-uses-default]
// [api.cache.disable.invalid-value-enables], in the words of the runtime's
// other variables (reference/runtime/environment); so are the debug lines
// that say which setting is in force.
//
// Tested by cache_settings_test.cc.

#include "reference/runtime/binary_cache/cache_settings.h"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "reference/logging/setting_messages.h"

namespace mxcts::runtime {

namespace {

// The home directory when HOME is unset or empty: the password database's.
std::string HomeFromPasswordDatabase() {
  struct passwd entry;
  struct passwd* found = nullptr;
  char buffer[4096];
  if (getpwuid_r(getuid(), &entry, buffer, sizeof(buffer), &found) != 0 ||
      found == nullptr || found->pw_dir == nullptr) {
    return "";
  }
  return found->pw_dir;
}

// The working directory, or "" if it cannot be named.
std::string WorkingDirectory() {
  char buffer[4096];
  if (getcwd(buffer, sizeof(buffer)) == nullptr) return "";
  return buffer;
}

}  // namespace

BinaryCacheSettings ParseBinaryCacheSettings(
    const BinaryCacheEnvironment& environment) {
  BinaryCacheSettings settings;

  // [api.cache.disable.value-one-disables]
  // [api.cache.disable.zero-or-unset-enables]
  bool disable_valid = false;
  if (environment.disable != nullptr) {
    if (std::strcmp(environment.disable, "1") == 0) {
      settings.enabled = false;
      disable_valid = true;
    } else if (std::strcmp(environment.disable, "0") == 0) {
      disable_valid = true;
    } else {
      // [api.env.general.invalid-value-warns]
      settings.warnings.push_back(logging::InvalidSettingWarning(
          "MACA_CACHE_DISABLE", environment.disable, "0, 1", "0"));
    }
  }
  // [api.env.general.settings-logged-at-debug]
  settings.setting_lines.push_back(logging::SettingLine(
      "MACA_CACHE_DISABLE", settings.enabled ? "0" : "1", !disable_valid));

  bool max_size_valid = false;
  if (environment.max_size != nullptr) {
    const char* text = environment.max_size;
    bool is_number = text[0] != '\0';
    uint64_t bytes = 0;
    for (const char* c = text; *c != '\0' && is_number; ++c) {
      if (*c < '0' || *c > '9') {
        is_number = false;
        break;
      }
      // Past the cap the exact value no longer matters; stop growing so it
      // cannot overflow.
      if (bytes <= kCacheMaxEntryBytesCap) {
        bytes = bytes * 10 + static_cast<uint64_t>(*c - '0');
      }
    }
    if (!is_number) {
      // [api.cache.size.invalid-value-uses-default]
      settings.warnings.push_back(logging::InvalidSettingWarning(
          "MACA_CACHE_MAXSIZE", text, "a decimal number of bytes",
          absl::StrCat(kDefaultCacheMaxEntryBytes)));
    } else {
      // [api.cache.size.clamped-to-4-gib]
      settings.max_entry_bytes = std::min(bytes, kCacheMaxEntryBytesCap);
      max_size_valid = true;
    }
  }
  settings.setting_lines.push_back(logging::SettingLine(
      "MACA_CACHE_MAXSIZE", absl::StrCat(settings.max_entry_bytes),
      !max_size_valid));
  settings.max_total_bytes =
      kCacheTotalEntriesFactor * settings.max_entry_bytes;

  if (environment.path != nullptr && environment.path[0] != '\0') {
    // [api.cache.location.cache-path-variable]
    settings.directory = environment.path;
    if (settings.directory[0] != '/' &&
        !environment.working_directory.empty()) {
      settings.directory =
          absl::StrCat(environment.working_directory, "/", settings.directory);
    }
  } else {
    if (environment.path != nullptr) {
      settings.warnings.push_back(logging::InvalidSettingWarning(
          "MACA_CACHE_PATH", "", "a directory", "~/.metax/shadercache"));
    }
    // [api.cache.location.default-directory]
    std::string home = environment.home != nullptr ? environment.home : "";
    if (home.empty()) home = HomeFromPasswordDatabase();
    if (home.empty()) {
      if (settings.enabled) {
        settings.warnings.push_back(
            "the binary cache is disabled: no home directory for its default "
            "location and MACA_CACHE_PATH is not set");
      }
      settings.enabled = false;
    } else {
      settings.directory = absl::StrCat(home, "/", kDefaultCacheSubdirectory);
      settings.directory_is_default = true;
    }
  }
  settings.setting_lines.push_back(
      settings.directory.empty()
          ? std::string("environment: MACA_CACHE_PATH unset (default: no "
                        "home directory)")
          : logging::SettingLine("MACA_CACHE_PATH", settings.directory,
                                 settings.directory_is_default));
  return settings;
}

BinaryCacheSettings ReadBinaryCacheSettings() {
  BinaryCacheEnvironment environment;
  environment.disable = std::getenv("MACA_CACHE_DISABLE");
  environment.path = std::getenv("MACA_CACHE_PATH");
  environment.max_size = std::getenv("MACA_CACHE_MAXSIZE");
  environment.home = std::getenv("HOME");
  environment.working_directory = WorkingDirectory();
  return ParseBinaryCacheSettings(environment);
}

}  // namespace mxcts::runtime
