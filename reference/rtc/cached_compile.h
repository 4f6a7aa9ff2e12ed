// Copyright mxcts authors.
//
// reference/rtc/cached_compile.h: runtime compilation through the binary
// cache (docs/spec/api-binary-cache.md). mcrtcCompileProgram calls
// CachedCompile where it would call Compile (compile_job.h): on a hit the
// stored result is returned and no compiler runs
// [api.cache.hit.no-compilation]; on a miss Compile runs and a successful
// result is stored. What is stored is the whole result (the module image,
// the compiler's log and the lowered names), so a program sees the same
// code, log and names whether its code came from the cache or not
// [api.cache.hit.same-results-as-miss]. A source with errors, or a
// compilation that could not run, is never stored.
//
//   CompileInputs in;
//   in.source = "extern \"C\" __global__ void k() {}";
//   in.name = "k.cu";
//   absl::StatusOr<CompileOutputs> out = CachedCompile(in);
//
// The cache is the process's one cache, the one libmcruntime.so created
// when the runtime initialized
// (reference/runtime/binary_cache/process_binary_cache.h), reached through
// a weak reference; a process without libmcruntime.so gets a cache of its
// own, from the environment as it is at the first compilation.

#ifndef MXCTS_REFERENCE_RTC_CACHED_COMPILE_H_
#define MXCTS_REFERENCE_RTC_CACHED_COMPILE_H_

#include <optional>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "reference/rtc/compile_job.h"
#include "reference/runtime/binary_cache/binary_cache.h"
#include "reference/runtime/binary_cache/cache_key.h"

namespace mxcts::rtc {

// Compile(inputs), through the process's binary cache.
absl::StatusOr<CompileOutputs> CachedCompile(const CompileInputs& inputs);

// The same with the cache, the compile step and the compiler's identity
// given (for tests and benchmarks). `outcome`, if not null, says what
// happened.
absl::StatusOr<CompileOutputs> CachedCompile(
    const CompileInputs& inputs, runtime::BinaryCache& cache,
    absl::string_view compiler_identity,
    absl::FunctionRef<absl::StatusOr<CompileOutputs>(const CompileInputs&)>
        compile,
    runtime::CacheOutcome* outcome = nullptr);

// The key of `inputs` compiled by the compiler `compiler_identity` names:
// the source, the name, each header's include name and text, every
// compiler argument and name expression in order. The time bound is not
// part of it: it decides whether a compilation finishes, not its result.
// [api.cache.contents.keyed-by-input]
runtime::CacheKey CompileCacheKey(const CompileInputs& inputs,
                                  absl::string_view compiler_identity);

// What identifies the compiler at `compiler` (the path of mxcc): its path,
// the relative path, size and modification time of every file of its
// installation's mxgpu_llvm/bin, include and lib folders, and the host
// compiler it runs (MXCC_HOST_CXX, else g++, with its size and time).
// Computed once per path and process.
std::string CompilerIdentity(const std::string& compiler);

// The bytes a successful CompileOutputs is stored as, and back; nullopt
// for bytes that are not such an encoding.
std::string EncodeCompileOutputs(const CompileOutputs& outputs);
std::optional<CompileOutputs> DecodeCompileOutputs(absl::string_view bytes);

}  // namespace mxcts::rtc

#endif  // MXCTS_REFERENCE_RTC_CACHED_COMPILE_H_
