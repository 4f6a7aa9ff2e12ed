// Copyright mxcts authors.
//
// command_line.h: the command line of mxcc, parsed.
//
// mxcc takes the command lines of a gcc-style compiler driver, so that users'
// Makefiles and CMake projects work unchanged, plus the MXMACA options
// `-x maca`, `--offload-arch=`, `--maca-path=` and `--default-stream`. Parsing
// is pure: it reads only the arguments and touches no file. The result says
// what to do (link, compile only, preprocess only), which inputs to process in
// which language, and which of the user's flags go to which host tool
// invocation.
//
// Example:
//
//   absl::StatusOr<mxcts::driver::CommandLine> command_line =
//       mxcts::driver::ParseCommandLine({"-x", "maca", "a.cpp", "-o", "a"});
//   if (!command_line.ok()) {
//     std::cerr << "mxcc: error: " << command_line.status().message();
//   }
//   // command_line->inputs[0].kind == InputKind::kMacaSource

#ifndef MXCTS_REFERENCE_COMPILER_DRIVER_COMMAND_LINE_H_
#define MXCTS_REFERENCE_COMPILER_DRIVER_COMMAND_LINE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mxcts::driver {

// What one input of the command line is.
enum class InputKind {
  kMacaSource,    // compiled in two passes (host and device)
  kCxxSource,     // plain C++, compiled by the host compiler
  kCSource,       // plain C, compiled by the host compiler
  kLinkerInput,   // an object, archive or shared library: linked as is
  kLinkerOption,  // -lfoo, -Wl,..., -Xlinker ARG: linked in its position
};

struct Input {
  InputKind kind;
  // A file path for files; the exact argument word for linker options.
  std::string value;

  bool is_source() const {
    return kind == InputKind::kMacaSource || kind == InputKind::kCxxSource ||
           kind == InputKind::kCSource;
  }
  bool operator==(const Input& other) const {
    return kind == other.kind && value == other.value;
  }
};

// How far the driver goes.
enum class Mode {
  kLink,        // default: compile every source, link everything
  kCompile,     // -c: one object per source
  kPreprocess,  // -E, -M, -MM: run the host preprocessing only
  kDeviceLink,  // --device-link (-dlink): link the relocatable device code
                // of the input objects and archives into one object
};

struct CommandLine {
  Mode mode = Mode::kLink;
  // Inputs and positional linker options, in command-line order.
  std::vector<Input> inputs;
  // -o; empty when not given.
  std::string output;

  // Flags of the preprocessor, in order: -I, -D, -U, -isystem, -iquote,
  // -idirafter, -include, -imacros, -Wp,...
  std::vector<std::string> preprocessor_flags;
  // Flags that make the preprocessor write make dependencies, in order:
  // -M, -MM, -MD, -MMD, -MF, -MT, -MQ, -MP, -MG (with their arguments).
  // Given only to the host preprocessing of each source.
  std::vector<std::string> dependency_flags;
  // Flags of code generation and diagnostics, given to every host compiler
  // invocation (preprocessing, compiling, linking): -O, -g, -std=, -f...,
  // -m..., -W... (warnings), -w, -pedantic, -pthread, -Wa,...
  std::vector<std::string> code_flags;
  // Flags of the link only: -L, -shared, -static, -rdynamic, -pie, ...
  std::vector<std::string> link_flags;

  // --offload-arch values, validated; empty when not given.
  std::vector<std::string> offload_archs;
  // --maca-path; nullopt when not given.
  std::optional<std::string> maca_path;
  // --default-stream per-thread (or =per-thread, or
  // -fgpu-default-stream=per-thread), the last such option winning: stream
  // 0 of the sources compiled is the calling thread's per-thread default
  // stream. When set, preprocessor_flags end with
  // -DMACA_API_PER_THREAD_DEFAULT_STREAM, the macro the runtime header
  // reads. [api.sync.per-thread.compile-option-selects]
  bool per_thread_default_stream = false;

  bool verbose = false;     // -v: print each command before running it
  bool save_temps = false;  // -save-temps: keep the temporary directory
  // --offload-device-only (also --cuda-device-only): with -c, each MXMACA
  // source's device image (stage 8) is the output instead of an object.
  bool device_only = false;
  // --genco: each MXMACA source's device image, in the module image
  // container (reference/module_image/module_image.h), is the output
  // (default name `<stem>.mcbin`): what mcModuleLoad loads. Implies -c and
  // device_only. [api.compile.mxcc.genco]
  bool genco = false;
  // Relocatable device code: -fgpu-rdc (-fno-gpu-rdc undoes it),
  // -rdc=true, --relocatable-device-code=true, or -dc (which is -c too).
  // With -c each MXMACA source's object carries its device code unlinked;
  // the link (or --device-link) links the device code of all objects into
  // one device image [api.compile.mxcc.relocatable-device-code].
  bool relocatable_device_code = false;
  bool show_help = false;     // --help
  bool show_version = false;  // --version

  // True when dependency_flags hold -MD or -MMD (dependencies written as a
  // side effect of compiling).
  bool writes_dependencies_while_compiling() const;
  // True when dependency_flags hold -MF, -MT or -MQ respectively.
  bool has_dependency_file() const;
  bool has_dependency_target() const;
};

// The offload architectures mxcc accepts ("xcore1000", "native").
const std::vector<std::string>& KnownOffloadArchs();

// The number a device image records for offload architecture `arch` (one of
// KnownOffloadArchs): major * 100 + minor * 10 of the devices that run it
// (1000 for xcore1000), or 0 for "native", which runs on the device the
// program finds.
int OffloadArchNumber(const std::string& arch);

// Parses the arguments after the program name. Fails with
// InvalidArgumentError whose message names the offending argument: an
// unknown option, an option missing its argument, an unknown -x language,
// offload architecture or default stream, no input file (unless --help or
// --version), or -o with several outputs (-c, -E, -M with several sources),
// or --offload-device-only without -c or with a source that is not MXMACA,
// or --device-link with a source among its inputs or without -o, or a -rdc
// value other than true or false.
//
// Inputs are classified as they appear, under the -x language in effect:
// `.cu` and `.maca` files are MXMACA sources, `.cpp/.cc/.cxx/.c++/.cp/.C/.ii`
// files are C++ and `.c` files C, unless -x maca, -x c++ or -x c says
// otherwise; `-x none` restores classification by suffix. Objects, archives
// and shared libraries (`.o`, `.obj`, `.a`, `.so`, `.so.N`) are linker
// inputs whatever -x says, so a link line that repeats the compile flags
// (CMake's habit) still links; so is any file with another suffix.
absl::StatusOr<CommandLine> ParseCommandLine(
    const std::vector<std::string>& arguments);

// The text of `mxcc --help`.
std::string HelpText();

// The text of `mxcc --version`.
std::string VersionText();

}  // namespace mxcts::driver

#endif  // MXCTS_REFERENCE_COMPILER_DRIVER_COMMAND_LINE_H_
