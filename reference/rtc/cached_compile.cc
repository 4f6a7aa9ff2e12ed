// Copyright mxcts authors.
//
// Runtime compilation through the binary cache. The key hashes every input
// of the compile step and the compiler's identity; the identity is a
// listing (relative path, size, modification time) of the installation the
// compiler belongs to and of the host compiler it runs, so rebuilding or
// reinstalling the SDK, or pointing MXCC_HOST_CXX elsewhere, starts a new
// key space instead of reusing code of another compiler. Listing about a
// hundred files costs well under a millisecond, and it is done once per
// compiler and process.
//
// A stored result is the encoded CompileOutputs; the cache checks the
// file's hash before the bytes reach DecodeCompileOutputs, which still
// checks their structure (a payload of another format version is a miss).
//
// Tested by cached_compile_test.cc and conformance/api/binary_cache.

#include "reference/rtc/cached_compile.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "reference/runtime/binary_cache/cache_settings.h"

// The process's cache, defined by libmcruntime.so; null where the process
// has no runtime library.
namespace __mc_internal {
mxcts::runtime::BinaryCache& ProcessBinaryCache() __attribute__((weak));
}  // namespace __mc_internal

namespace mxcts::rtc {

namespace {

namespace fs = std::filesystem;

constexpr absl::string_view kOutputsTag = "mxcts compile outputs v1";

runtime::BinaryCache& CacheOfThisProcess() {
  if (&__mc_internal::ProcessBinaryCache != nullptr) {
    return __mc_internal::ProcessBinaryCache();
  }
  static runtime::BinaryCache* own =
      new runtime::BinaryCache(runtime::ReadBinaryCacheSettings());
  return *own;
}

// "<size>:<seconds>.<nanoseconds>" of the file `path` names (links
// followed), or "missing".
std::string FileStamp(const std::string& path) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) return "missing";
  return absl::StrCat(info.st_size, ":", info.st_mtim.tv_sec, ".",
                      info.st_mtim.tv_nsec);
}

// Every file under `root`/`folder`, as "relative path=stamp" lines, sorted.
void ListFolder(const fs::path& root, const std::string& folder,
                std::vector<std::string>& lines) {
  std::error_code error;
  fs::recursive_directory_iterator it(
      root / folder, fs::directory_options::follow_directory_symlink, error);
  if (error) {
    lines.push_back(absl::StrCat(folder, "=missing"));
    return;
  }
  for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (error) break;
    if (it->is_directory(error)) continue;
    lines.push_back(absl::StrCat(fs::relative(it->path(), root, error).string(),
                                 "=", FileStamp(it->path().string())));
  }
}

// The host compiler mxcc runs: MXCC_HOST_CXX, else g++, found on PATH.
std::string HostCompilerIdentity() {
  const char* configured = getenv("MXCC_HOST_CXX");
  const std::string name =
      configured != nullptr && configured[0] != '\0' ? configured : "g++";
  if (name.find('/') != std::string::npos) {
    return absl::StrCat(name, "=", FileStamp(name));
  }
  const char* path = getenv("PATH");
  for (absl::string_view dir :
       absl::StrSplit(path != nullptr ? path : "", ':')) {
    if (dir.empty()) continue;
    const std::string candidate = absl::StrCat(dir, "/", name);
    const std::string stamp = FileStamp(candidate);
    if (stamp != "missing") return absl::StrCat(candidate, "=", stamp);
  }
  return absl::StrCat(name, "=missing");
}

void PutField(std::string& out, absl::string_view bytes) {
  const uint64_t size = bytes.size();
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(size >> (8 * i)));
  out.append(bytes.data(), bytes.size());
}

bool TakeField(absl::string_view& in, std::string& out) {
  if (in.size() < 8) return false;
  uint64_t size = 0;
  for (int i = 0; i < 8; ++i) {
    size |= uint64_t{static_cast<uint8_t>(in[i])} << (8 * i);
  }
  in.remove_prefix(8);
  if (size > in.size()) return false;
  out.assign(in.data(), size);
  in.remove_prefix(size);
  return true;
}

}  // namespace

std::string CompilerIdentity(const std::string& compiler) {
  static std::mutex mu;
  static auto* known = new std::map<std::string, std::string>;
  const std::string host = HostCompilerIdentity();
  const std::string memo_key = absl::StrCat(compiler, "\n", host);
  std::lock_guard<std::mutex> lock(mu);
  auto it = known->find(memo_key);
  if (it != known->end()) return it->second;
  // <root>/mxgpu_llvm/bin/mxcc
  const fs::path root =
      fs::path(compiler).parent_path().parent_path().parent_path();
  std::vector<std::string> lines = {
      absl::StrCat("compiler=", compiler, "=", FileStamp(compiler)),
      absl::StrCat("host=", host)};
  for (const char* folder : {"mxgpu_llvm/bin", "include", "lib"}) {
    std::vector<std::string> files;
    ListFolder(root, folder, files);
    std::sort(files.begin(), files.end());
    lines.insert(lines.end(), files.begin(), files.end());
  }
  std::string identity;
  for (const std::string& line : lines) absl::StrAppend(&identity, line, "\n");
  known->emplace(memo_key, identity);
  return identity;
}

runtime::CacheKey CompileCacheKey(const CompileInputs& inputs,
                                  absl::string_view compiler_identity) {
  runtime::CacheKeyBuilder key;
  key.Add("outputs format", kOutputsTag);
  key.Add("compiler", compiler_identity);
  key.Add("name", inputs.name);
  key.Add("source", inputs.source);
  for (const auto& [include_name, text] : inputs.headers) {
    key.Add("header name", include_name);
    key.Add("header text", text);
  }
  for (const std::string& argument : inputs.compiler_arguments) {
    key.Add("argument", argument);
  }
  for (const std::string& expression : inputs.name_expressions) {
    key.Add("name expression", expression);
  }
  return key.Build();
}

std::string EncodeCompileOutputs(const CompileOutputs& outputs) {
  std::string bytes;
  PutField(bytes, kOutputsTag);
  PutField(bytes, outputs.log);
  PutField(bytes, outputs.image);
  PutField(bytes, absl::StrCat(outputs.lowered_names.size()));
  for (const std::string& name : outputs.lowered_names) PutField(bytes, name);
  return bytes;
}

std::optional<CompileOutputs> DecodeCompileOutputs(absl::string_view bytes) {
  std::string tag, count_text;
  CompileOutputs outputs;
  if (!TakeField(bytes, tag) || tag != kOutputsTag ||
      !TakeField(bytes, outputs.log) || !TakeField(bytes, outputs.image) ||
      !TakeField(bytes, count_text)) {
    return std::nullopt;
  }
  size_t count = 0;
  for (char c : count_text) {
    if (c < '0' || c > '9' || count > bytes.size()) return std::nullopt;
    count = count * 10 + static_cast<size_t>(c - '0');
  }
  outputs.lowered_names.resize(count);
  for (std::string& name : outputs.lowered_names) {
    if (!TakeField(bytes, name)) return std::nullopt;
  }
  if (!bytes.empty()) return std::nullopt;
  outputs.compiled = true;
  return outputs;
}

absl::StatusOr<CompileOutputs> CachedCompile(
    const CompileInputs& inputs, runtime::BinaryCache& cache,
    absl::string_view compiler_identity,
    absl::FunctionRef<absl::StatusOr<CompileOutputs>(const CompileInputs&)>
        compile,
    runtime::CacheOutcome* outcome) {
  auto say = [outcome](runtime::CacheOutcome what) {
    if (outcome != nullptr) *outcome = what;
  };
  if (!cache.enabled()) {
    say(runtime::CacheOutcome::kDisabled);
    return compile(inputs);
  }
  const runtime::CacheKey key = CompileCacheKey(inputs, compiler_identity);
  if (std::optional<std::string> hit = cache.Lookup(inputs.name, key)) {
    if (std::optional<CompileOutputs> outputs = DecodeCompileOutputs(*hit)) {
      say(runtime::CacheOutcome::kHit);
      return *std::move(outputs);
    }
  }
  absl::StatusOr<CompileOutputs> outputs = compile(inputs);
  if (!outputs.ok() || !outputs->compiled) {
    // [api.cache.contents.runtime-compiled-code]: a failed compilation
    // writes no entry.
    say(runtime::CacheOutcome::kCompileFailed);
    return outputs;
  }
  const bool stored =
      cache.Store(inputs.name, key, EncodeCompileOutputs(*outputs)) ==
      runtime::BinaryCache::StoreOutcome::kStored;
  say(stored ? runtime::CacheOutcome::kMissStored
             : runtime::CacheOutcome::kMissNotStored);
  return outputs;
}

absl::StatusOr<CompileOutputs> CachedCompile(const CompileInputs& inputs) {
  runtime::BinaryCache& cache = CacheOfThisProcess();
  if (!cache.enabled()) return Compile(inputs);
  std::string compiler = inputs.compiler;
  if (compiler.empty()) {
    absl::StatusOr<std::string> found = FindCompiler();
    // No compiler: Compile says so.
    if (!found.ok()) return Compile(inputs);
    compiler = *found;
  }
  CompileInputs resolved = inputs;
  resolved.compiler = compiler;
  return CachedCompile(resolved, cache, CompilerIdentity(compiler), &Compile);
}

}  // namespace mxcts::rtc
