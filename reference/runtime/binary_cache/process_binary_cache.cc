// Copyright mxcts authors.
//
// The process's cache is created on first use and never destroyed, so code
// that compiles while the process exits still finds it. Its creation, at
// the runtime's initialization, logs the settings' warnings and, at the
// debug level, the setting of each cache variable, as the runtime's other
// variables are logged [api.env.general.settings-logged-at-debug].
//
// Tested by process_binary_cache_test.cc and conformance/api/binary_cache.

#include "reference/runtime/binary_cache/process_binary_cache.h"

#include <string>
#include <utility>
#include <vector>

#include "reference/logging/log.h"

namespace __mc_internal {

mxcts::runtime::BinaryCache& ProcessBinaryCache() {
  static mxcts::runtime::BinaryCache* cache = [] {
    mxcts::runtime::BinaryCacheSettings settings =
        mxcts::runtime::ReadBinaryCacheSettings();
    const std::vector<std::string> lines = settings.setting_lines;
    // The warnings first, as the runtime's other variables log them.
    auto* created = new mxcts::runtime::BinaryCache(std::move(settings));
    for (const std::string& line : lines) MCR_LOGD("%s", line.c_str());
    return created;
  }();
  return *cache;
}

}  // namespace __mc_internal
