// Copyright mxcts authors.
//
// mcrtc (mcrtc.h) over NVRTC: MXMACA device source is CUDA source here, so
// NVRTC compiles it, for the architecture of the current device, into a
// CUBIN that the adapter wraps in its checked image (module_image.h).
//
// What the adapter adds to NVRTC:
//   - its own program records, never reused, so a destroyed program is
//     MCRTC_ERROR_INVALID_PROGRAM [api.rtc.destroy.null-invalid-program];
//     each compilation makes a fresh NVRTC program from them, so a program
//     compiles again after a failure [api.rtc.compile.success];
//   - MXMACA's options, checked and translated (TranslateOptions): an
//     option mcrtc does not take is MCRTC_ERROR_INVALID_OPTION, the log
//     naming it, where NVRTC takes many more;
//   - the MXMACA device headers (mc_runtime.h, maca.h, mc_common.h: the
//     adapter's mc_common.h, built in), which the program's own headers of
//     the same name replace, so the library needs no include directory on
//     the machine it runs on;
//   - the log in MXMACA's form, FILE:LINE:1: (NVRTC writes FILE(LINE):);
//   - a program without device code does not compile
//     [api.compile.mxcc.genco].
//
// NVRTC is opened when a program is first compiled (dlopen of
// libnvrtc.so.<CUDA major>: the bundle's lib/, LD_LIBRARY_PATH, then the
// toolkit's lib64), so programs that never compile at run time do not
// need it. Without it, compiling is MCRTC_ERROR_BUILTIN_OPERATION_FAILURE
// with the reason in the log.

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nvrtc.h>

#include <cstring>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "backends/cuda/runtime/module_image.h"
#include "reference/include/mcrtc.h"

namespace mxcts::cuda_backend {
namespace {

// --- NVRTC, opened at run time. ---

struct Nvrtc {
  bool loaded = false;
  std::string problem;  // why it is not
  decltype(&nvrtcCreateProgram) create = nullptr;
  decltype(&nvrtcDestroyProgram) destroy = nullptr;
  decltype(&nvrtcCompileProgram) compile = nullptr;
  decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&nvrtcGetProgramLog) log = nullptr;
  decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&nvrtcGetCUBIN) cubin = nullptr;
  decltype(&nvrtcGetPTXSize) ptx_size = nullptr;
  decltype(&nvrtcGetPTX) ptx = nullptr;
  decltype(&nvrtcAddNameExpression) add_name = nullptr;
  decltype(&nvrtcGetLoweredName) lowered = nullptr;
  decltype(&nvrtcVersion) version = nullptr;
};

template <class F>
bool Find(void* library, const char* name, F* function) {
  *function = reinterpret_cast<F>(dlsym(library, name));
  return *function != nullptr;
}

const Nvrtc& GetNvrtc() {
  static Nvrtc* nvrtc = [] {
    Nvrtc* n = new Nvrtc();
    const std::string soname =
        "libnvrtc.so." + std::to_string(CUDA_VERSION / 1000);
    void* library = nullptr;
    for (const std::string& path : {soname, "/usr/local/cuda/lib64/" + soname,
                                    std::string("libnvrtc.so")}) {
      library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (library != nullptr) break;
    }
    if (library == nullptr) {
      n->problem = "mcrtc: NVRTC (" + soname +
                   ") was not found: the CUDA backend compiles with it\n";
      return n;
    }
    n->loaded = Find(library, "nvrtcCreateProgram", &n->create) &&
                Find(library, "nvrtcDestroyProgram", &n->destroy) &&
                Find(library, "nvrtcCompileProgram", &n->compile) &&
                Find(library, "nvrtcGetProgramLogSize", &n->log_size) &&
                Find(library, "nvrtcGetProgramLog", &n->log) &&
                Find(library, "nvrtcGetCUBINSize", &n->cubin_size) &&
                Find(library, "nvrtcGetCUBIN", &n->cubin) &&
                Find(library, "nvrtcGetPTXSize", &n->ptx_size) &&
                Find(library, "nvrtcGetPTX", &n->ptx) &&
                Find(library, "nvrtcAddNameExpression", &n->add_name) &&
                Find(library, "nvrtcGetLoweredName", &n->lowered) &&
                Find(library, "nvrtcVersion", &n->version);
    if (!n->loaded) {
      n->problem = "mcrtc: " + soname +
                   " lacks a function the CUDA backend "
                   "calls\n";
    }
    return n;
  }();
  return *nvrtc;
}

// --- The MXMACA device headers NVRTC is given. ---

// The adapter's mc_common.h (include/mc_common.h), built in by a genrule.
constexpr char kMcCommon[] =
#include "backends/cuda/runtime/rtc_mc_common.inc"
    ;

// The runtime headers of device code: on NVRTC, only mc_common.h adds to
// what NVRTC defines itself (threadIdx, __syncthreads, atomics, math, wave
// intrinsics).
constexpr char kMcRuntime[] =
    "#pragma once\n"
    "#include \"mc_common.h\"\n";

const std::vector<std::pair<std::string, std::string>>& BuiltInHeaders() {
  static const auto* headers =
      new std::vector<std::pair<std::string, std::string>>{
          {"mc_common.h", kMcCommon},       {"mc_runtime.h", kMcRuntime},
          {"mc_runtime_api.h", kMcRuntime}, {"maca.h", kMcRuntime},
          {"mcr/mc_runtime.h", kMcRuntime}, {"mc/mc_runtime.h", kMcRuntime},
      };
  return *headers;
}

// --- Programs. ---

struct Program {
  std::mutex mutex;
  std::string source;
  std::string name;
  std::vector<std::pair<std::string, std::string>> headers;  // name, text
  std::vector<std::string> expressions;
  bool compile_attempted = false;
  bool compiled = false;
  std::string log;
  std::vector<char> image;
  std::map<std::string, std::string> lowered;
};

struct Table {
  std::mutex mutex;
  std::set<Program*> live;
};

Table& Programs() {
  static Table* table = new Table();
  return *table;
}

// The live program `handle` names, or null. A destroyed program's record
// stays allocated (emptied), so its address never names another.
Program* Find(mcrtcProgram handle) {
  Table& t = Programs();
  std::lock_guard<std::mutex> lock(t.mutex);
  Program* program = reinterpret_cast<Program*>(handle);
  return t.live.count(program) == 1 ? program : nullptr;
}

// An include name inside the program's tree: not empty, not absolute, no
// ".." component [api.rtc.create.include-name-outside-invalid-input].
bool IsInsideName(const std::string& name) {
  if (name.empty() || name[0] == '/') return false;
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = name.find('/', start);
    if (end == std::string::npos) end = name.size();
    if (name.compare(start, end - start, "..") == 0 && end - start == 2) {
      return false;
    }
    start = end + 1;
  }
  return true;
}

// --- Options [api.rtc.compile.options]. ---

struct Translated {
  std::vector<std::string> arguments;  // for NVRTC
  std::string rejected;                // the option refused, if any
  bool has_standard = false;
};

bool IsStandard(const std::string& value, std::string* nvrtc) {
  if (value == "c++17" || value == "gnu++17") {
    *nvrtc = "-std=c++17";
    return true;
  }
  if (value == "c++20" || value == "gnu++20") {
    *nvrtc = "-std=c++20";
    return true;
  }
  return false;
}

bool StartsWith(const std::string& text, const char* prefix) {
  return text.rfind(prefix, 0) == 0;
}

Translated TranslateOptions(const std::vector<std::string>& given) {
  Translated t;
  for (size_t i = 0; i < given.size(); ++i) {
    const std::string& option = given[i];
    // The value of a two-word option ("-D" "X=1"), if there is one.
    const bool has_next = i + 1 < given.size();
    if (option == "-x maca") continue;
    if (option == "-x") {
      if (has_next && given[i + 1] == "maca") {
        ++i;
        continue;
      }
      t.rejected = has_next ? option + " " + given[i + 1] : option;
      return t;
    }
    if (option == "-D" || option == "-U" || option == "-I") {
      if (!has_next || given[i + 1].empty()) {
        t.rejected = option;
        return t;
      }
      t.arguments.push_back(option + given[++i]);
      continue;
    }
    if ((StartsWith(option, "-D") || StartsWith(option, "-U")) &&
        option.size() > 2 && option[2] != '=') {
      t.arguments.push_back(option);
      continue;
    }
    if (StartsWith(option, "--define-macro=") && option.size() > 15) {
      t.arguments.push_back("-D" + option.substr(15));
      continue;
    }
    if (StartsWith(option, "--undefine-macro=") && option.size() > 17) {
      t.arguments.push_back("-U" + option.substr(17));
      continue;
    }
    if (StartsWith(option, "-I") && option.size() > 2) {
      t.arguments.push_back(option);
      continue;
    }
    if (StartsWith(option, "--include-path=") && option.size() > 15) {
      t.arguments.push_back("-I" + option.substr(15));
      continue;
    }
    std::string standard;
    if ((StartsWith(option, "-std=") &&
         IsStandard(option.substr(5), &standard)) ||
        (StartsWith(option, "--std=") &&
         IsStandard(option.substr(6), &standard))) {
      t.arguments.push_back(standard);
      t.has_standard = true;
      continue;
    }
    // NVRTC chooses its own optimization; the code is for this device
    // whatever architecture MXMACA names; -G and -lineinfo change no
    // result.
    if (option == "-O0" || option == "-O1" || option == "-O2" ||
        option == "-O3" || option == "--offload-arch=xcore1000" ||
        option == "--offload-arch=native" || option == "-G" ||
        option == "-lineinfo") {
      continue;
    }
    if (option == "-w" || option == "-default-device") {
      t.arguments.push_back(option);
      continue;
    }
    t.rejected = option;
    return t;
  }
  return t;
}

// The architecture of the current device, as NVRTC names it.
std::string Architecture() {
  int device = 0;
  int major = 9;
  int minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                             device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor,
                             device) != cudaSuccess) {
    cudaGetLastError();
    major = 9;
    minor = 0;
  }
  return "--gpu-architecture=sm_" + std::to_string(major) +
         std::to_string(minor);
}

// NVRTC's "FILE(LINE): " as MXMACA's "FILE:LINE:1: ", and the name
// expressions' source under MXMACA's name for it.
std::string MxmacaLog(const std::string& log) {
  static const std::regex* location =
      new std::regex(R"(^([^\n(]+)\((\d+)\): )", std::regex::multiline);
  // NVRTC compiles the name expressions as a source of its own.
  static const std::regex* names = new std::regex("__nv_name_map");
  return std::regex_replace(std::regex_replace(log, *location, "$1:$2:1: "),
                            *names, "<mcrtc name expressions>");
}

// True if the PTX defines a kernel, a device function or a variable.
bool HasDeviceCode(const std::string& ptx) {
  return ptx.find(".entry") != std::string::npos ||
         ptx.find(".func") != std::string::npos ||
         ptx.find(".global ") != std::string::npos ||
         ptx.find(".const ") != std::string::npos;
}

// Compiles `program` (locked) with NVRTC arguments `arguments`.
mcrtcResult CompileNow(Program& program,
                       const std::vector<std::string>& arguments) {
  const Nvrtc& nvrtc = GetNvrtc();
  if (!nvrtc.loaded) {
    program.log = nvrtc.problem;
    return MCRTC_ERROR_BUILTIN_OPERATION_FAILURE;
  }
  // The program's headers first, then the built-in ones it did not give.
  std::vector<const char*> texts;
  std::vector<const char*> names;
  std::set<std::string> given;
  for (const auto& [name, text] : program.headers) {
    names.push_back(name.c_str());
    texts.push_back(text.c_str());
    given.insert(name);
  }
  for (const auto& [name, text] : BuiltInHeaders()) {
    if (given.count(name) == 1) continue;
    names.push_back(name.c_str());
    texts.push_back(text.c_str());
  }
  nvrtcProgram nv = nullptr;
  if (nvrtc.create(&nv, program.source.c_str(), program.name.c_str(),
                   static_cast<int>(texts.size()), texts.data(),
                   names.data()) != NVRTC_SUCCESS) {
    program.log = "mcrtc: NVRTC could not create the program\n";
    return MCRTC_ERROR_PROGRAM_CREATION_FAILURE;
  }
  for (const std::string& expression : program.expressions) {
    nvrtc.add_name(nv, expression.c_str());
  }
  std::vector<const char*> options;
  for (const std::string& argument : arguments) {
    options.push_back(argument.c_str());
  }
  const nvrtcResult result =
      nvrtc.compile(nv, static_cast<int>(options.size()), options.data());
  size_t log_size = 0;
  std::string log;
  if (nvrtc.log_size(nv, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    log.resize(log_size);
    nvrtc.log(nv, &log[0]);
    log.resize(log_size - 1);
  }
  program.log = MxmacaLog(log);
  mcrtcResult outcome = MCRTC_SUCCESS;
  if (result != NVRTC_SUCCESS) {
    outcome = result == NVRTC_ERROR_COMPILATION
                  ? MCRTC_ERROR_COMPILATION
                  : static_cast<mcrtcResult>(result);
  }
  std::string ptx;
  size_t ptx_size = 0;
  if (outcome == MCRTC_SUCCESS &&
      nvrtc.ptx_size(nv, &ptx_size) == NVRTC_SUCCESS && ptx_size > 0) {
    ptx.resize(ptx_size);
    nvrtc.ptx(nv, &ptx[0]);
  }
  if (outcome == MCRTC_SUCCESS && !HasDeviceCode(ptx)) {
    program.log +=
        program.name + ":1:1: error: the program defines no device code\n";
    outcome = MCRTC_ERROR_COMPILATION;
  }
  std::vector<char> cubin;
  size_t cubin_size = 0;
  if (outcome == MCRTC_SUCCESS &&
      (nvrtc.cubin_size(nv, &cubin_size) != NVRTC_SUCCESS || cubin_size == 0)) {
    program.log += "mcrtc: NVRTC gave no code\n";
    outcome = MCRTC_ERROR_INTERNAL_ERROR;
  }
  if (outcome == MCRTC_SUCCESS) {
    cubin.resize(cubin_size);
    nvrtc.cubin(nv, cubin.data());
    for (const std::string& expression : program.expressions) {
      const char* lowered = nullptr;
      if (nvrtc.lowered(nv, expression.c_str(), &lowered) == NVRTC_SUCCESS &&
          lowered != nullptr) {
        program.lowered[expression] = lowered;
      }
    }
    program.image = WrapImage(cubin);
    program.compiled = true;
  }
  nvrtc.destroy(&nv);
  return outcome;
}

// Copies the image of a compiled program: nothing before a successful
// compilation [api.rtc.code.before-successful-compile].
mcrtcResult ImageSize(mcrtcProgram prog, size_t* size) {
  Program* program = Find(prog);
  if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
  if (size == nullptr) return MCRTC_ERROR_INVALID_INPUT;
  std::lock_guard<std::mutex> lock(program->mutex);
  *size = program->compiled ? program->image.size() : 0;
  return MCRTC_SUCCESS;
}

mcrtcResult CopyImage(mcrtcProgram prog, char* out) {
  Program* program = Find(prog);
  if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
  if (out == nullptr) return MCRTC_ERROR_INVALID_INPUT;
  std::lock_guard<std::mutex> lock(program->mutex);
  if (program->compiled && !program->image.empty()) {
    std::memcpy(out, program->image.data(), program->image.size());
  }
  return MCRTC_SUCCESS;
}

}  // namespace
}  // namespace mxcts::cuda_backend

using mxcts::cuda_backend::Find;
using mxcts::cuda_backend::Program;

extern "C" {

const char* mcrtcGetErrorString(mcrtcResult result) {
  switch (result) {
    case MCRTC_SUCCESS:
      return "MCRTC_SUCCESS";
    case MCRTC_ERROR_OUT_OF_MEMORY:
      return "MCRTC_ERROR_OUT_OF_MEMORY";
    case MCRTC_ERROR_PROGRAM_CREATION_FAILURE:
      return "MCRTC_ERROR_PROGRAM_CREATION_FAILURE";
    case MCRTC_ERROR_INVALID_INPUT:
      return "MCRTC_ERROR_INVALID_INPUT";
    case MCRTC_ERROR_INVALID_PROGRAM:
      return "MCRTC_ERROR_INVALID_PROGRAM";
    case MCRTC_ERROR_INVALID_OPTION:
      return "MCRTC_ERROR_INVALID_OPTION";
    case MCRTC_ERROR_COMPILATION:
      return "MCRTC_ERROR_COMPILATION";
    case MCRTC_ERROR_BUILTIN_OPERATION_FAILURE:
      return "MCRTC_ERROR_BUILTIN_OPERATION_FAILURE";
    case MCRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION:
      return "MCRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION";
    case MCRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION:
      return "MCRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION";
    case MCRTC_ERROR_NAME_EXPRESSION_NOT_VALID:
      return "MCRTC_ERROR_NAME_EXPRESSION_NOT_VALID";
    case MCRTC_ERROR_INTERNAL_ERROR:
      return "MCRTC_ERROR_INTERNAL_ERROR";
  }
  return "MCRTC_ERROR unknown";
}

mcrtcResult mcrtcVersion(int* major, int* minor) {
  if (major == nullptr || minor == nullptr) return MCRTC_ERROR_INVALID_INPUT;
  // The CUDA release the library was built with (NVRTC's version is the
  // toolkit's).
  *major = CUDA_VERSION / 1000;
  *minor = CUDA_VERSION % 1000 / 10;
  return MCRTC_SUCCESS;
}

mcrtcResult mcrtcCreateProgram(mcrtcProgram* prog, const char* src,
                               const char* name, int numHeaders,
                               const char* const* headers,
                               const char* const* includeNames) {
  // [api.rtc.create.null-prog-invalid-input]
  // [api.rtc.create.null-source-invalid-input]
  // [api.rtc.create.bad-header-arrays-invalid-input]
  if (prog == nullptr || src == nullptr || numHeaders < 0 ||
      (numHeaders > 0 && (headers == nullptr || includeNames == nullptr))) {
    return MCRTC_ERROR_INVALID_INPUT;
  }
  for (int i = 0; i < numHeaders; ++i) {
    if (headers[i] == nullptr || includeNames[i] == nullptr ||
        !mxcts::cuda_backend::IsInsideName(includeNames[i])) {
      return MCRTC_ERROR_INVALID_INPUT;
    }
  }
  Program* program = new Program();
  program->source = src;
  // [api.rtc.create.default-name]
  program->name = name == nullptr || name[0] == '\0' ? "default_program" : name;
  for (int i = 0; i < numHeaders; ++i) {
    program->headers.emplace_back(includeNames[i], headers[i]);
  }
  mxcts::cuda_backend::Table& t = mxcts::cuda_backend::Programs();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.live.insert(program);
  *prog = reinterpret_cast<mcrtcProgram>(program);
  return MCRTC_SUCCESS;
}

mcrtcResult mcrtcDestroyProgram(mcrtcProgram* prog) {
  if (prog == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
  mxcts::cuda_backend::Table& t = mxcts::cuda_backend::Programs();
  Program* program = nullptr;
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    program = reinterpret_cast<Program*>(*prog);
    if (t.live.erase(program) == 0) return MCRTC_ERROR_INVALID_PROGRAM;
  }
  {
    std::lock_guard<std::mutex> lock(program->mutex);
    program->source.clear();
    program->source.shrink_to_fit();
    program->headers.clear();
    program->expressions.clear();
    program->log.clear();
    program->image = std::vector<char>();
    program->lowered.clear();
    program->compiled = false;
  }
  *prog = nullptr;
  return MCRTC_SUCCESS;
}

mcrtcResult mcrtcCompileProgram(mcrtcProgram prog, int numOptions,
                                const char* const* options) {
  Program* program = Find(prog);
  if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
  // [api.rtc.compile.null-options-invalid-input]
  if (numOptions < 0 || (numOptions > 0 && options == nullptr)) {
    return MCRTC_ERROR_INVALID_INPUT;
  }
  std::vector<std::string> given;
  for (int i = 0; i < numOptions; ++i) {
    if (options[i] == nullptr) return MCRTC_ERROR_INVALID_INPUT;
    given.emplace_back(options[i]);
  }
  std::lock_guard<std::mutex> lock(program->mutex);
  program->compile_attempted = true;
  program->compiled = false;
  program->image.clear();
  program->lowered.clear();
  mxcts::cuda_backend::Translated translated =
      mxcts::cuda_backend::TranslateOptions(given);
  // [api.rtc.compile.unknown-option-invalid-option]
  if (!translated.rejected.empty()) {
    program->log =
        "mcrtc: unknown or malformed option '" + translated.rejected + "'\n";
    return MCRTC_ERROR_INVALID_OPTION;
  }
  std::vector<std::string> arguments = {mxcts::cuda_backend::Architecture()};
  if (!translated.has_standard) arguments.push_back("-std=c++17");
  for (std::string& argument : translated.arguments) {
    arguments.push_back(std::move(argument));
  }
  return mxcts::cuda_backend::CompileNow(*program, arguments);
}

mcrtcResult mcrtcGetCodeSize(mcrtcProgram prog, size_t* codeSizeRet) {
  return mxcts::cuda_backend::ImageSize(prog, codeSizeRet);
}

mcrtcResult mcrtcGetCode(mcrtcProgram prog, char* code) {
  return mxcts::cuda_backend::CopyImage(prog, code);
}

// The bitcode is the image itself, as in the reference
// [api.rtc.code.bitcode-is-the-image].
mcrtcResult mcrtcGetBitcodeSize(mcrtcProgram prog, size_t* bitcodeSizeRet) {
  return mxcts::cuda_backend::ImageSize(prog, bitcodeSizeRet);
}

mcrtcResult mcrtcGetBitcode(mcrtcProgram prog, char* bitcode) {
  return mxcts::cuda_backend::CopyImage(prog, bitcode);
}

mcrtcResult mcrtcGetProgramLogSize(mcrtcProgram prog, size_t* logSizeRet) {
  Program* program = Find(prog);
  if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
  if (logSizeRet == nullptr) return MCRTC_ERROR_INVALID_INPUT;
  std::lock_guard<std::mutex> lock(program->mutex);
  *logSizeRet = program->log.size() + 1;
  return MCRTC_SUCCESS;
}

mcrtcResult mcrtcGetProgramLog(mcrtcProgram prog, char* log) {
  Program* program = Find(prog);
  if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
  if (log == nullptr) return MCRTC_ERROR_INVALID_INPUT;
  std::lock_guard<std::mutex> lock(program->mutex);
  std::memcpy(log, program->log.c_str(), program->log.size() + 1);
  return MCRTC_SUCCESS;
}

mcrtcResult mcrtcAddNameExpression(mcrtcProgram prog,
                                   const char* const name_expression) {
  Program* program = Find(prog);
  if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
  // [api.rtc.name.add-null-invalid-input]
  if (name_expression == nullptr || name_expression[0] == '\0') {
    return MCRTC_ERROR_INVALID_INPUT;
  }
  std::lock_guard<std::mutex> lock(program->mutex);
  // [api.rtc.name.add-after-compile-error]
  if (program->compile_attempted) {
    return MCRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
  }
  for (const std::string& known : program->expressions) {
    if (known == name_expression) return MCRTC_SUCCESS;
  }
  program->expressions.emplace_back(name_expression);
  return MCRTC_SUCCESS;
}

mcrtcResult mcrtcGetLoweredName(mcrtcProgram prog,
                                const char* const name_expression,
                                const char** lowered_name) {
  Program* program = Find(prog);
  if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
  if (name_expression == nullptr || lowered_name == nullptr) {
    return MCRTC_ERROR_INVALID_INPUT;
  }
  std::lock_guard<std::mutex> lock(program->mutex);
  // [api.rtc.name.lowered-before-compile-error]
  if (!program->compiled) {
    return MCRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
  }
  auto it = program->lowered.find(name_expression);
  // [api.rtc.name.unknown-expression-not-valid]
  if (it == program->lowered.end()) {
    return MCRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
  }
  *lowered_name = it->second.c_str();
  return MCRTC_SUCCESS;
}

}  // extern "C"
