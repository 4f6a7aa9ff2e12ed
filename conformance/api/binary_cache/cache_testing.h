// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/binary_cache/cache_testing.h
// -----------------------------------------------------------------------------
//
// What the binary cache tests (docs/spec/api-binary-cache.md) share. Every
// compilation runs in a child process of its own (child_process.h), so the
// cache variables it starts with are the ones it reads at initialization
// [api.cache.disable.read-at-initialization], and the test process itself
// never initializes the runtime. The child role "CompileScale" compiles a
// small kernel with mcrtc, reports the result, and (unless told not to)
// loads the code with mcModuleLoadData and checks what the kernel computes.
//
//   CacheDirectory dir("Location");           // a fresh directory
//   CompileReport r = CompileInChild({{"MACA_CACHE_PATH", dir.path()}});
//   EXPECT_EQ(r.result, "0");                 // MCRTC_SUCCESS
//   EXPECT_EQ(EntryFiles(dir.path()).size(), 1u);
//
// Entries are observed from outside as files: which regular files the
// directory holds, and each one's inode (a stored entry is a new file; a
// hit leaves the file in place). The spec leaves the names open, so the
// tests count every regular file whose name does not start with '.'.
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h> and <mcrtc.h>.

#ifndef MXCTS_CONFORMANCE_API_BINARY_CACHE_CACHE_TESTING_H_
#define MXCTS_CONFORMANCE_API_BINARY_CACHE_CACHE_TESTING_H_

#include <dirent.h>
#include <gtest/gtest.h>
#include <mc_runtime.h>
#include <mcrtc.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "conformance/api/testing/child_process.h"

namespace mxcts::conformance::binary_cache {

// The variables a child starts with: each pair is set; a variable named in
// `unset` is removed.
using Environment = std::vector<std::pair<std::string, std::string>>;

// A fresh, empty directory under the test's temporary directory, named
// after the test, removed with its contents at the end of the scope.
class CacheDirectory {
 public:
  explicit CacheDirectory(const std::string& label) {
    const char* base = getenv("TEST_TMPDIR");
    std::string pattern = std::string(base != nullptr ? base : "/tmp") +
                          "/cache-" + label + "-XXXXXX";
    if (mkdtemp(&pattern[0]) != nullptr) path_ = pattern;
  }
  ~CacheDirectory() {
    if (path_.empty()) return;
    // Read-only folders made by a test must not stop the removal.
    std::string command =
        "chmod -R u+w '" + path_ + "' 2>/dev/null; rm -rf '" + path_ + "'";
    [[maybe_unused]] int ignored = std::system(command.c_str());
  }
  CacheDirectory(const CacheDirectory&) = delete;
  CacheDirectory& operator=(const CacheDirectory&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// One regular file of a directory.
struct FileState {
  ino_t inode = 0;
  off_t size = 0;
  bool operator==(const FileState& other) const {
    return inode == other.inode && size == other.size;
  }
};

// The regular files directly in `dir` whose names do not start with '.',
// by name. Empty if `dir` does not exist.
inline std::map<std::string, FileState> EntryFiles(const std::string& dir) {
  std::map<std::string, FileState> files;
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return files;
  while (struct dirent* item = readdir(handle)) {
    const std::string name = item->d_name;
    if (name.empty() || name[0] == '.') continue;
    struct stat info;
    if (stat((dir + "/" + name).c_str(), &info) != 0 ||
        !S_ISREG(info.st_mode)) {
      continue;
    }
    files[name] = {info.st_ino, info.st_size};
  }
  closedir(handle);
  return files;
}

// Every name in `dir` (hidden ones included), sorted.
inline std::vector<std::string> AllNames(const std::string& dir) {
  std::vector<std::string> names;
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return names;
  while (struct dirent* item = readdir(handle)) {
    const std::string name = item->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  closedir(handle);
  std::sort(names.begin(), names.end());
  return names;
}

inline bool PathExists(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

inline void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// The program the children compile: `data[i] = data[i] * SCALE + VARIANT`.
// SCALE comes from the header "scale.h" when a test gives one, else 2;
// VARIANT from a #define the test puts before the source, else 0.
inline constexpr char kScaleSource[] = R"(
#if __has_include("scale.h")
#include "scale.h"
#endif
#ifndef SCALE
#define SCALE 2
#endif
#ifndef VARIANT
#define VARIANT 0
#endif
extern "C" __global__ void scale(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * SCALE + VARIANT;
}
)";

// kScaleSource with "#define VARIANT <variant>" before it when `variant` is
// positive.
inline std::string ScaleSource(int variant) {
  if (variant <= 0) return kScaleSource;
  return "#define VARIANT " + std::to_string(variant) + "\n" + kScaleSource;
}

// How a child compiles; each field is one number of the role's argument.
struct CompileRequest {
  int variant = 0;  // > 0: "#define VARIANT <variant>" before the source
  int name = 0;     // index into ProgramNames()
  int option = 0;   // 0: no option; 1: -DSCALE=3
  int header = 0;   // 0: no header; 1: scale.h defines SCALE 2; 2: SCALE 3
  int launch = 1;   // 1: load the code and check the kernel's results
  int broken = 0;   // 1: a source with an error
  int first_runtime_call = 0;  // 1: mcGetDeviceCount before anything else
  int wait_for_go = 0;         // 1: compile only after the parent says "go"
  int big_blocks = 0;          // 1: launch blocks of 1024 threads instead of 64
  int then_variant = 0;  // > 0: then compiles the program again, in the same
                         // process, with this VARIANT (nothing reported)
};

// The names the children give mcrtcCreateProgram; index 0 is the default.
inline const std::vector<const char*>& ProgramNames() {
  static const std::vector<const char*> names = {
      "scale.cu", "", "kernels/other name.cu", "scale2.cu"};
  return names;
}

inline std::string RequestArgument(const CompileRequest& r) {
  return "variant=" + std::to_string(r.variant) +
         ";name=" + std::to_string(r.name) +
         ";option=" + std::to_string(r.option) +
         ";header=" + std::to_string(r.header) +
         ";launch=" + std::to_string(r.launch) +
         ";broken=" + std::to_string(r.broken) +
         ";first_runtime_call=" + std::to_string(r.first_runtime_call) +
         ";wait_for_go=" + std::to_string(r.wait_for_go) +
         ";big_blocks=" + std::to_string(r.big_blocks) +
         ";then_variant=" + std::to_string(r.then_variant);
}

// Whether two codes are the same bytes, for EXPECT_TRUE (EXPECT_EQ would
// print whole images). A compiler may embed its temporary paths in the
// code, so only code from the same compilation (an entry and its hits) is
// compared this way; separate compilations are compared by what the code
// computes.
inline bool SameCode(const std::string& a, const std::string& b) {
  return a == b;
}

// What a child reports.
struct CompileReport {
  int exit_code = -1;  // 0: the role found nothing wrong
  std::string result;  // the mcrtcResult of mcrtcCompileProgram, in decimal
  std::string code;    // the code mcrtcGetCode gave, if compiled
  std::string log;     // the program's log
};

// Starts the role with `request` and `environment` (variables named in
// `unset` are removed first).
inline std::unique_ptr<ChildProcess> StartCompile(
    const Environment& environment, const CompileRequest& request = {},
    const std::vector<std::string>& unset = {}) {
  std::vector<std::pair<std::string, const char*>> saved;
  for (const std::string& name : unset) {
    const char* old = getenv(name.c_str());
    saved.emplace_back(name, old != nullptr ? strdup(old) : nullptr);
    unsetenv(name.c_str());
  }
  auto child = std::make_unique<ChildProcess>(
      "CompileScale", RequestArgument(request), environment);
  for (auto& [name, old] : saved) {
    if (old != nullptr) {
      setenv(name.c_str(), old, 1);
      free(const_cast<char*>(old));
    }
  }
  return child;
}

// The rest of a started child's report: its result, code and log, and its
// exit code.
inline CompileReport FinishCompile(ChildProcess& child) {
  CompileReport report;
  report.result = child.Receive();
  std::string code_hex = child.Receive();
  std::string log_hex = child.Receive();
  report.code.resize(code_hex.size() / 2);
  report.log.resize(log_hex.size() / 2);
  if (!FromHex(code_hex, report.code.data(), report.code.size()) ||
      !FromHex(log_hex, report.log.data(), report.log.size())) {
    report.result = "bad report";
  }
  report.exit_code = child.Wait();
  return report;
}

inline CompileReport CompileInChild(
    const Environment& environment, const CompileRequest& request = {},
    const std::vector<std::string>& unset = {}) {
  std::unique_ptr<ChildProcess> child =
      StartCompile(environment, request, unset);
  return FinishCompile(*child);
}

inline constexpr char kSuccess[] = "0";  // MCRTC_SUCCESS

// The child role. Defined in one test source per binary through
// MX_BINARY_CACHE_CHILD_ROLE.
inline std::string RunCompileRole(LineChannel& parent,
                                  const std::string& argument) {
  CompileRequest r;
  r.variant = static_cast<int>(ChildArgument(argument, "variant", 0));
  r.name = static_cast<int>(ChildArgument(argument, "name", 0));
  r.option = static_cast<int>(ChildArgument(argument, "option", 0));
  r.header = static_cast<int>(ChildArgument(argument, "header", 0));
  r.launch = static_cast<int>(ChildArgument(argument, "launch", 1));
  r.broken = static_cast<int>(ChildArgument(argument, "broken", 0));
  r.first_runtime_call =
      static_cast<int>(ChildArgument(argument, "first_runtime_call", 0));
  r.wait_for_go = static_cast<int>(ChildArgument(argument, "wait_for_go", 0));
  r.big_blocks = static_cast<int>(ChildArgument(argument, "big_blocks", 0));
  r.then_variant = static_cast<int>(ChildArgument(argument, "then_variant", 0));

  if (r.first_runtime_call) {
    int count = 0;
    if (mcGetDeviceCount(&count) != mcSuccess) return "mcGetDeviceCount failed";
    // The runtime has initialized: changes from now on must not count.
    setenv("MACA_CACHE_DISABLE", "1", 1);
    const char* path = getenv("MXCTS_CACHE_TEST_LATER_PATH");
    if (path != nullptr) setenv("MACA_CACHE_PATH", path, 1);
  }
  std::string source = ScaleSource(r.variant);
  if (r.broken) source += "\nthis is not C++;\n";
  // Header 1 yields to -DSCALE=3, so the option alone changes SCALE.
  const char* header_text[] = {
      nullptr, "#ifndef SCALE\n#define SCALE 2\n#endif\n", "#define SCALE 3\n"};
  const char* header_name = "scale.h";
  const char* text = r.header > 0 ? header_text[r.header] : nullptr;
  mcrtcProgram program = nullptr;
  mcrtcResult created = mcrtcCreateProgram(
      &program, source.c_str(), ProgramNames().at(r.name), r.header > 0 ? 1 : 0,
      r.header > 0 ? &text : nullptr, r.header > 0 ? &header_name : nullptr);
  if (created != MCRTC_SUCCESS) return "mcrtcCreateProgram failed";
  if (r.wait_for_go && parent.Receive() != "go") return "no go";
  const char* options[] = {"-DSCALE=3"};
  mcrtcResult compiled =
      mcrtcCompileProgram(program, r.option, r.option ? options : nullptr);
  std::string code, log;
  size_t log_size = 0;
  if (mcrtcGetProgramLogSize(program, &log_size) == MCRTC_SUCCESS &&
      log_size > 0) {
    log.resize(log_size);
    mcrtcGetProgramLog(program, log.data());
  }
  size_t code_size = 0;
  if (compiled == MCRTC_SUCCESS) {
    if (mcrtcGetCodeSize(program, &code_size) != MCRTC_SUCCESS) {
      return "mcrtcGetCodeSize failed";
    }
    code.resize(code_size);
    if (mcrtcGetCode(program, code.data()) != MCRTC_SUCCESS) {
      return "mcrtcGetCode failed";
    }
  }
  mcrtcDestroyProgram(&program);
  if (r.then_variant > 0) {
    const std::string again = ScaleSource(r.then_variant);
    mcrtcProgram second = nullptr;
    if (mcrtcCreateProgram(&second, again.c_str(), ProgramNames().at(r.name), 0,
                           nullptr, nullptr) != MCRTC_SUCCESS ||
        mcrtcCompileProgram(second, 0, nullptr) != MCRTC_SUCCESS) {
      return "the second compilation failed";
    }
    mcrtcDestroyProgram(&second);
  }
  parent.Send(std::to_string(static_cast<int>(compiled)));
  parent.Send(ToHex(code.data(), code.size()));
  parent.Send(ToHex(log.data(), log.size()));
  if (compiled != MCRTC_SUCCESS || !r.launch) return "";

  // The code works: each element becomes x * SCALE + VARIANT.
  mcModule_t module = nullptr;
  if (mcModuleLoadData(&module, code.data()) != mcSuccess) {
    return "mcModuleLoadData failed";
  }
  mcFunction_t kernel = nullptr;
  if (mcModuleGetFunction(&kernel, module, "scale") != mcSuccess) {
    return "mcModuleGetFunction failed";
  }
  constexpr int kCount = 2048;
  const int block = r.big_blocks ? 1024 : 64;
  std::vector<float> host(kCount);
  for (int i = 0; i < kCount; ++i) host[i] = static_cast<float>(i);
  float* device = nullptr;
  if (mcMalloc(reinterpret_cast<void**>(&device), kCount * sizeof(float)) !=
      mcSuccess) {
    return "mcMalloc failed";
  }
  mcMemcpy(device, host.data(), kCount * sizeof(float), mcMemcpyHostToDevice);
  int n = kCount;
  void* args[] = {&device, &n};
  if (mcModuleLaunchKernel(kernel, kCount / block, 1, 1, block, 1, 1, 0,
                           nullptr, args, nullptr) != mcSuccess) {
    return "mcModuleLaunchKernel failed";
  }
  mcMemcpy(host.data(), device, kCount * sizeof(float), mcMemcpyDeviceToHost);
  mcFree(device);
  mcModuleUnload(module);
  const int scale = r.option == 1 || r.header == 2 ? 3 : 2;
  for (int i = 0; i < kCount; ++i) {
    const float expected = static_cast<float>(i * scale + r.variant);
    if (host[i] != expected) {
      return "element " + std::to_string(i) + " is " + std::to_string(host[i]) +
             ", expected " + std::to_string(expected);
    }
  }
  return "";
}

}  // namespace mxcts::conformance::binary_cache

// Registers the role "CompileScale" in this test binary.
#define MX_BINARY_CACHE_CHILD_ROLE()                                     \
  MX_CHILD_ROLE(CompileScale) {                                          \
    return ::mxcts::conformance::binary_cache::RunCompileRole(parent,    \
                                                              argument); \
  }

#endif  // MXCTS_CONFORMANCE_API_BINARY_CACHE_CACHE_TESTING_H_
