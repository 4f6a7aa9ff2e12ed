// Copyright mxcts authors.
//
// reference/runtime/binary_cache/process_binary_cache.h: the one binary
// cache of a process. libmcruntime.so defines it and exports it (its
// version script exports the __mc_internal namespace); the runtime creates
// it when it initializes, so the cache variables are read then
// [api.cache.disable.read-at-initialization]. Other libraries of the SDK
// (libmcrtc.so) reach it through a weak reference, so a process has one
// cache and one set of settings however many libraries compile code.
//
//   mxcts::runtime::BinaryCache& cache = __mc_internal::ProcessBinaryCache();

#ifndef MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_PROCESS_BINARY_CACHE_H_
#define MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_PROCESS_BINARY_CACHE_H_

#include "reference/runtime/binary_cache/binary_cache.h"

namespace __mc_internal {

// The process's cache, created from the environment on the first call
// (which runtime initialization makes) and never destroyed.
mxcts::runtime::BinaryCache& ProcessBinaryCache();

}  // namespace __mc_internal

#endif  // MXCTS_REFERENCE_RUNTIME_BINARY_CACHE_PROCESS_BINARY_CACHE_H_
