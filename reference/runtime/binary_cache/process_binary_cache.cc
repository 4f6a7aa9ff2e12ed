// Copyright mxcts authors.
//
// The process's cache is created on first use and never destroyed, so code
// that compiles while the process exits still finds it.
//
// Tested by process_binary_cache_test.cc and conformance/api/binary_cache.

#include "reference/runtime/binary_cache/process_binary_cache.h"

namespace __mc_internal {

mxcts::runtime::BinaryCache& ProcessBinaryCache() {
  static mxcts::runtime::BinaryCache* cache = new mxcts::runtime::BinaryCache(
      mxcts::runtime::ReadBinaryCacheSettings());
  return *cache;
}

}  // namespace __mc_internal
