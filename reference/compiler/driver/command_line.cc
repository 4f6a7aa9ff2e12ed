// Copyright mxcts authors.
//
// ParseCommandLine(): one pass over the arguments, left to right, as gcc
// reads them. Each argument is, in this order of tests: an input file (no
// leading '-'), an option spelled exactly (-c, -shared, -MD), an option
// with a value written separately or joined (`-I dir`, `-Idir`, `-o a`), or
// a family prefix passed through to the host compiler (-f..., -m..., -g...,
// -W...). Anything else is an unknown option, reported by name.
//
// The -x language is state: it applies to the inputs that follow it, until
// the next -x. Inputs and positional linker options (-l, -Wl, -Xlinker) keep
// their relative order, because the link depends on it.
//
// Tested by command_line_test.cc.

#include "reference/compiler/driver/command_line.h"

#include <algorithm>
#include <cstddef>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace mxcts::driver {
namespace {

enum class Language { kNone, kMaca, kCxx, kC };

bool HasSuffix(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// The file name after the last '/'.
std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// `.o`, `.a`, `.so`, `.so.1.2`: files the link takes as they are.
bool IsLinkerFile(const std::string& path) {
  std::string base = BaseName(path);
  if (HasSuffix(base, ".o") || HasSuffix(base, ".obj") ||
      HasSuffix(base, ".a") || HasSuffix(base, ".so") ||
      HasSuffix(base, ".lo")) {
    return true;
  }
  size_t so = base.find(".so.");
  return so != std::string::npos &&
         base.find_first_not_of("0123456789.", so + 4) == std::string::npos;
}

bool IsHeaderFile(const std::string& path) {
  for (const char* suffix : {".h", ".hh", ".hpp", ".hxx", ".H"}) {
    if (HasSuffix(path, suffix)) return true;
  }
  return false;
}

InputKind KindBySuffix(const std::string& path) {
  if (HasSuffix(path, ".cu") || HasSuffix(path, ".maca")) {
    return InputKind::kMacaSource;  // [api.compile.mxcc.maca-macro]
  }
  for (const char* suffix :
       {".cpp", ".cc", ".cxx", ".c++", ".cp", ".CPP", ".C", ".ii"}) {
    if (HasSuffix(path, suffix)) return InputKind::kCxxSource;
  }
  if (HasSuffix(path, ".c")) return InputKind::kCSource;
  return InputKind::kLinkerInput;
}

bool IsExactly(const std::string& argument,
               std::initializer_list<const char*> spellings) {
  return std::any_of(spellings.begin(), spellings.end(),
                     [&](const char* s) { return argument == s; });
}

bool IsOptimizationLevel(const std::string& argument) {
  return IsExactly(argument, {"-O", "-O0", "-O1", "-O2", "-O3", "-Os", "-Og",
                              "-Oz", "-Ofast"});
}

class Parser {
 public:
  explicit Parser(const std::vector<std::string>& arguments)
      : arguments_(arguments) {}

  absl::StatusOr<CommandLine> Parse() {
    for (index_ = 0; index_ < arguments_.size(); ++index_) {
      absl::Status status = ParseArgument(arguments_[index_]);
      if (!status.ok()) return status;
    }
    if (saw_preprocess_) {
      result_.mode = Mode::kPreprocess;
    } else if (saw_device_link_) {
      result_.mode = Mode::kDeviceLink;
    } else if (saw_compile_) {
      result_.mode = Mode::kCompile;
    }
    if (result_.per_thread_default_stream) {
      result_.preprocessor_flags.push_back(
          "-DMACA_API_PER_THREAD_DEFAULT_STREAM");
    }
    absl::Status status = Validate();
    if (!status.ok()) return status;
    return result_;
  }

 private:
  absl::Status ParseArgument(const std::string& argument) {
    if (argument == "-") {
      return absl::InvalidArgumentError(
          "reading a source from standard input ('-') is not supported");
    }
    if (argument.empty() || argument[0] != '-') return AddInput(argument);
    if (ParseFlag(argument)) return absl::OkStatus();
    bool taken = false;
    absl::Status status = ParseValueOption(argument, &taken);
    if (!status.ok() || taken) return status;
    if (ParseFamily(argument)) return absl::OkStatus();
    return absl::InvalidArgumentError(
        absl::StrCat("unknown option '", argument, "'"));
  }

  // Options spelled exactly, without a value. Returns true if `argument`
  // was one.
  bool ParseFlag(const std::string& argument) {
    if (argument == "-c") {
      saw_compile_ = true;
    } else if (IsExactly(argument, {"-dc", "--device-c"})) {
      saw_compile_ = true;  // nvcc's -dc: -c with relocatable device code
      result_.relocatable_device_code = true;
    } else if (argument == "-fgpu-rdc") {
      result_.relocatable_device_code = true;
    } else if (argument == "-fno-gpu-rdc") {
      result_.relocatable_device_code = false;
    } else if (IsExactly(argument, {"-dlink", "--device-link"})) {
      saw_device_link_ = true;
    } else if (argument == "-E") {
      saw_preprocess_ = true;
    } else if (IsExactly(argument, {"-v", "--verbose"})) {
      result_.verbose = true;
    } else if (IsExactly(argument, {"-save-temps", "-save-temps=cwd",
                                    "-save-temps=obj"})) {
      result_.save_temps = true;
    } else if (IsExactly(argument,
                         {"--offload-device-only", "--cuda-device-only"})) {
      result_.device_only = true;
    } else if (argument == "--genco") {
      result_.genco = true;
      result_.device_only = true;
      saw_compile_ = true;
    } else if (argument == "--help") {
      result_.show_help = true;
    } else if (argument == "--version") {
      result_.show_version = true;
    } else if (argument == "-pipe") {
      // Accepted for compatibility; temporary files are used regardless.
    } else if (IsExactly(argument,
                         {"-w", "-pthread", "-pedantic", "-pedantic-errors"}) ||
               IsOptimizationLevel(argument)) {
      result_.code_flags.push_back(argument);
    } else if (IsExactly(argument,
                         {"-shared", "-static", "-rdynamic", "-pie", "-no-pie",
                          "-static-libgcc", "-static-libstdc++", "-s",
                          "-nostdlib", "-nodefaultlibs", "-nostartfiles"})) {
      result_.link_flags.push_back(argument);
    } else if (IsExactly(argument, {"-M", "-MM"})) {
      saw_preprocess_ = true;
      result_.dependency_flags.push_back(argument);
    } else if (IsExactly(argument, {"-MD", "-MMD", "-MP", "-MG"})) {
      result_.dependency_flags.push_back(argument);
    } else {
      return false;
    }
    return true;
  }

  // Reads the value of option `name` from `argument` (joined, if `joined`
  // allows) or from the next argument. Sets *matched when `argument` is
  // this option.
  absl::Status Value(const std::string& argument, const std::string& name,
                     bool joined, bool* matched, std::string* value) {
    *matched = false;
    if (argument == name) {
      *matched = true;
      if (index_ + 1 >= arguments_.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("missing argument to '", name, "'"));
      }
      *value = arguments_[++index_];
      return absl::OkStatus();
    }
    if (joined && StartsWith(argument, name)) {
      *matched = true;
      *value = argument.substr(name.size());
    }
    return absl::OkStatus();
  }

  // Options that take a value. Sets *taken when `argument` was one.
  absl::Status ParseValueOption(const std::string& argument, bool* taken) {
    std::string value;
    absl::Status status;
    // -include and friends first: they share the "-i" start.
    for (const char* name :
         {"-include", "-imacros", "-isystem", "-iquote", "-idirafter"}) {
      status = Value(argument, name, /*joined=*/true, taken, &value);
      if (!status.ok() || *taken) {
        Push(&result_.preprocessor_flags, {name, value});
        return status;
      }
    }
    for (const char* name : {"-I", "-D", "-U"}) {
      status = Value(argument, name, /*joined=*/true, taken, &value);
      if (!status.ok() || *taken) {
        result_.preprocessor_flags.push_back(name + value);
        return status;
      }
    }
    for (const char* name : {"-MF", "-MT", "-MQ"}) {
      status = Value(argument, name, /*joined=*/true, taken, &value);
      if (!status.ok() || *taken) {
        Push(&result_.dependency_flags, {name, value});
        return status;
      }
    }
    status = Value(argument, "-o", /*joined=*/true, taken, &value);
    if (!status.ok() || *taken) {
      result_.output = value;
      return status;
    }
    status = Value(argument, "-x", /*joined=*/true, taken, &value);
    if (!status.ok() || *taken)
      return status.ok() ? SetLanguage(value) : status;
    status = Value(argument, "-L", /*joined=*/true, taken, &value);
    if (!status.ok() || *taken) {
      result_.link_flags.push_back("-L" + value);
      return status;
    }
    status = Value(argument, "-l", /*joined=*/true, taken, &value);
    if (!status.ok() || *taken) {
      result_.inputs.push_back({InputKind::kLinkerOption, "-l" + value});
      return status;
    }
    status = Value(argument, "-Xlinker", /*joined=*/false, taken, &value);
    if (!status.ok() || *taken) {
      result_.inputs.push_back({InputKind::kLinkerOption, "-Xlinker"});
      result_.inputs.push_back({InputKind::kLinkerOption, value});
      return status;
    }
    status = Value(argument, "--maca-path", /*joined=*/false, taken, &value);
    if (!status.ok() || *taken) {
      result_.maca_path = value;
      return status;
    }
    if (StartsWith(argument, "--maca-path=")) {
      *taken = true;
      result_.maca_path = argument.substr(std::string("--maca-path=").size());
      return absl::OkStatus();
    }
    if (StartsWith(argument, "--offload-arch=")) {
      *taken = true;
      return AddOffloadArch(argument);
    }
    for (const char* name : {"-rdc", "--relocatable-device-code"}) {
      if (argument == name) {
        status = Value(argument, name, /*joined=*/false, taken, &value);
        return status.ok() ? SetRelocatableDeviceCode(argument, value) : status;
      }
      if (StartsWith(argument, std::string(name) + "=")) {
        *taken = true;
        return SetRelocatableDeviceCode(
            argument, argument.substr(std::string(name).size() + 1));
      }
    }
    return ParseDefaultStream(argument, taken);
  }

  // [api.sync.per-thread.compile-option-selects] nvcc's
  // `--default-stream legacy|null|per-thread` (also joined by '=') and
  // clang's `-fgpu-default-stream=legacy|per-thread`, read here before the
  // -f family would pass the latter to the host compiler. Sets *taken when
  // `argument` was one.
  absl::Status ParseDefaultStream(const std::string& argument, bool* taken) {
    const std::vector<std::string> nvcc_values = {"legacy", "null",
                                                  "per-thread"};
    std::string value;
    absl::Status status =
        Value(argument, "--default-stream", /*joined=*/false, taken, &value);
    if (!status.ok() || *taken) {
      return status.ok()
                 ? SetDefaultStream(value, argument + " " + value, nvcc_values)
                 : status;
    }
    const std::string nvcc_joined = "--default-stream=";
    if (StartsWith(argument, nvcc_joined)) {
      *taken = true;
      return SetDefaultStream(argument.substr(nvcc_joined.size()), argument,
                              nvcc_values);
    }
    const std::string clang_joined = "-fgpu-default-stream=";
    if (StartsWith(argument, clang_joined)) {
      *taken = true;
      return SetDefaultStream(argument.substr(clang_joined.size()), argument,
                              {"legacy", "per-thread"});
    }
    return absl::OkStatus();
  }

  // Records default stream `value`, one of `known`, given as `spelled`.
  absl::Status SetDefaultStream(const std::string& value,
                                const std::string& spelled,
                                const std::vector<std::string>& known) {
    if (std::find(known.begin(), known.end(), value) == known.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown default stream '", value, "' in '", spelled,
                       "' (known: ", absl::StrJoin(known, ", "), ")"));
    }
    result_.per_thread_default_stream = value == "per-thread";
    return absl::OkStatus();
  }

  // Families of host compiler options, passed through. Returns true if
  // `argument` belongs to one.
  bool ParseFamily(const std::string& argument) {
    if (StartsWith(argument, "-Wl,")) {
      result_.inputs.push_back({InputKind::kLinkerOption, argument});
    } else if (StartsWith(argument, "-Wp,")) {
      result_.preprocessor_flags.push_back(argument);
    } else if (StartsWith(argument, "-std=") || StartsWith(argument, "-W") ||
               (StartsWith(argument, "-f") && argument.size() > 2) ||
               (StartsWith(argument, "-m") && argument.size() > 2) ||
               StartsWith(argument, "-g")) {
      result_.code_flags.push_back(argument);
    } else if (StartsWith(argument, "--std=")) {
      result_.code_flags.push_back(argument.substr(1));
    } else {
      return false;
    }
    return true;
  }

  absl::Status SetLanguage(const std::string& name) {
    if (name == "maca") {
      language_ = Language::kMaca;
    } else if (name == "c++") {
      language_ = Language::kCxx;
    } else if (name == "c") {
      language_ = Language::kC;
    } else if (name == "none") {
      language_ = Language::kNone;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("language not recognized: '", name, "' in '-x ", name,
                       "' (known: maca, c++, c, none)"));
    }
    return absl::OkStatus();
  }

  // nvcc's spelling: -rdc=true, -rdc false, --relocatable-device-code=true.
  absl::Status SetRelocatableDeviceCode(const std::string& argument,
                                        const std::string& value) {
    if (value != "true" && value != "false") {
      return absl::InvalidArgumentError(absl::StrCat("invalid value '", value,
                                                     "' of '", argument,
                                                     "' (known: true, false)"));
    }
    result_.relocatable_device_code = value == "true";
    return absl::OkStatus();
  }

  // [api.compile.mxcc.offload-arch]
  absl::Status AddOffloadArch(const std::string& argument) {
    std::string arch = argument.substr(std::string("--offload-arch=").size());
    const std::vector<std::string>& known = KnownOffloadArchs();
    if (std::find(known.begin(), known.end(), arch) == known.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown offload architecture '", arch, "' in '", argument,
          "' (known: ", absl::StrJoin(known, ", "), ")"));
    }
    result_.offload_archs.push_back(arch);
    return absl::OkStatus();
  }

  // [api.compile.mxcc.language-option]
  absl::Status AddInput(const std::string& path) {
    InputKind kind;
    if (IsLinkerFile(path)) {
      kind = InputKind::kLinkerInput;
    } else if (language_ == Language::kMaca) {
      kind = InputKind::kMacaSource;
    } else if (language_ == Language::kCxx) {
      kind = InputKind::kCxxSource;
    } else if (language_ == Language::kC) {
      kind = InputKind::kCSource;
    } else if (IsHeaderFile(path)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", path, "' is a header file; mxcc compiles source files only"));
    } else {
      kind = KindBySuffix(path);
    }
    result_.inputs.push_back({kind, path});
    return absl::OkStatus();
  }

  absl::Status Validate() const {
    if (result_.show_help || result_.show_version) return absl::OkStatus();
    size_t files = 0;
    size_t sources = 0;
    for (const Input& input : result_.inputs) {
      if (input.kind != InputKind::kLinkerOption) ++files;
      if (input.is_source()) ++sources;
    }
    if (files == 0) return absl::InvalidArgumentError("no input files");
    if (result_.mode != Mode::kLink && sources > 1 && !result_.output.empty()) {
      return absl::InvalidArgumentError(
          "cannot specify '-o' with '-c', '-E' or '-M' with multiple files");
    }
    if (result_.device_only) return ValidateDeviceOnly();
    if (result_.mode == Mode::kDeviceLink) return ValidateDeviceLink();
    return absl::OkStatus();
  }

  // A device link reads objects and archives; its output is one object.
  absl::Status ValidateDeviceLink() const {
    if (result_.output.empty()) {
      return absl::InvalidArgumentError(
          "'--device-link' needs '-o' to name the object it writes");
    }
    for (const Input& input : result_.inputs) {
      if (input.is_source()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "'--device-link' links objects and archives, and '", input.value,
            "' is a source (compile it with -c -fgpu-rdc first)"));
      }
    }
    return absl::OkStatus();
  }

  // A device image comes only from compiling MXMACA source.
  absl::Status ValidateDeviceOnly() const {
    const char* option =
        result_.genco ? "'--genco'" : "'--offload-device-only'";
    if (result_.mode != Mode::kCompile) {
      return absl::InvalidArgumentError(
          absl::StrCat(option, " writes device images and needs '-c'"));
    }
    for (const Input& input : result_.inputs) {
      if (input.kind == InputKind::kLinkerOption) continue;
      if (input.kind != InputKind::kMacaSource) {
        return absl::InvalidArgumentError(
            absl::StrCat(option, " compiles MXMACA sources only, and '",
                         input.value, "' is not one (use -x maca)"));
      }
    }
    return absl::OkStatus();
  }

  static void Push(std::vector<std::string>* flags,
                   std::initializer_list<std::string> words) {
    flags->insert(flags->end(), words);
  }

  const std::vector<std::string>& arguments_;
  size_t index_ = 0;
  Language language_ = Language::kNone;
  bool saw_compile_ = false;
  bool saw_preprocess_ = false;
  bool saw_device_link_ = false;
  CommandLine result_;
};

bool HasAny(const std::vector<std::string>& flags,
            std::initializer_list<const char*> names) {
  return std::any_of(flags.begin(), flags.end(), [&](const std::string& flag) {
    return IsExactly(flag, names);
  });
}

}  // namespace

bool CommandLine::writes_dependencies_while_compiling() const {
  return HasAny(dependency_flags, {"-MD", "-MMD"});
}

bool CommandLine::has_dependency_file() const {
  return HasAny(dependency_flags, {"-MF"});
}

bool CommandLine::has_dependency_target() const {
  return HasAny(dependency_flags, {"-MT", "-MQ"});
}

const std::vector<std::string>& KnownOffloadArchs() {
  static const std::vector<std::string>* const known =
      new std::vector<std::string>{"xcore1000", "native"};
  return *known;
}

int OffloadArchNumber(const std::string& arch) {
  return arch == "xcore1000" ? 1000 : 0;
}

absl::StatusOr<CommandLine> ParseCommandLine(
    const std::vector<std::string>& arguments) {
  return Parser(arguments).Parse();
}

std::string HelpText() {
  return R"(Usage: mxcc [options] file...

The MXMACA compiler driver of the mxcts reference implementation. It compiles
MXMACA sources in two passes (host and device) with the host C++ compiler
($MXCC_HOST_CXX, else g++) and links programs against $MACA_PATH/lib.

Inputs:
  a.cu, a.maca         MXMACA source
  a.cpp a.cc a.cxx     C++ source (MXMACA under -x maca)
  a.c                  C source (MXMACA under -x maca)
  a.o a.a a.so         linked as they are
  -x maca|c++|c|none   language of the inputs that follow (none: by suffix)

Modes:
  (default)            compile every source and link an executable (a.out)
  -c                   compile each source to its own object file
  -E                   preprocess only (host pass)
  -M, -MM              write make dependencies only
  -o FILE              the output file

MXMACA:
  --offload-arch=ARCH  device architecture: xcore1000 or native
  --maca-path=DIR      the installation to use (else $MACA_PATH, else the
                       installation that holds this mxcc)
  --offload-device-only
                       with -c: write each source's device image (a shared
                       object the runtime loads) instead of an object file
  --genco              write each source's device image as a module image
                       (<stem>.mcbin unless -o names it) for mcModuleLoad
                       and mcModuleLoadData; implies -c
  -fgpu-rdc            relocatable device code: device code may call device
                       functions and use device variables of other sources;
                       with -c the object keeps its device code unlinked,
                       and the link links the device code of all objects
                       and archives into one image (also -rdc=true,
                       --relocatable-device-code=true; -fno-gpu-rdc undoes)
  -dc                  -c -fgpu-rdc
  --device-link, -dlink
                       link the device code of the input objects and
                       archives into the object -o names, to link with them
                       by another linker (g++ a.o b.o dlink.o -lmcruntime)
  --default-stream legacy|null|per-thread
                       what stream 0 (and an omitted stream) names in the
                       sources compiled: the legacy default stream (legacy
                       and null, the default) or the calling thread's
                       per-thread default stream (per-thread: defines
                       MACA_API_PER_THREAD_DEFAULT_STREAM); also spelled
                       --default-stream=VALUE, and -fgpu-default-stream=
                       legacy|per-thread

Passed to the host compiler with their usual meaning:
  -I DIR  -D NAME[=V]  -U NAME  -isystem DIR  -iquote DIR  -include FILE
  -O0 -O1 -O2 -O3 -Os  -g  -std=STD  -fPIC and other -f...  -m...
  -Wall and other warnings  -w  -pedantic  -pthread
  -MD -MMD -MF FILE -MT TARGET -MQ TARGET -MP -MG
  -l LIB  -L DIR  -Wl,ARGS  -Xlinker ARG  -shared  -static  -rdynamic

Driver:
  -v                   print each command before running it
  -save-temps          keep the temporary files (the directory is printed)
  --help               this text
  --version            the version
)";
}

std::string VersionText() {
  return "mxcc (mxcts reference MXMACA compiler) 1.0.0\n"
         "Offload architectures: xcore1000\n";
}

}  // namespace mxcts::driver
