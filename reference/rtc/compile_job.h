// Copyright mxcts authors.
//
// reference/rtc/compile_job.h: one runtime compilation, from a program's
// source to its module image: the step mcrtcCompileProgram takes, kept
// apart from the program object so that a cache of compiled images can
// wrap it (look up, else Compile, then store).
//
// A compilation runs the installation's own compiler, `mxcc --genco`, in a
// private temporary directory (mkdtemp, mode 0700), removed afterwards:
//
//   <dir>/program.cu          `#line 1 "<name>"`, the source, the probes
//                             of the name expressions (lowered_names.h)
//   <dir>/include/<name>      each header, at its include name
//   <dir>/program.mcbin       mxcc's output
//
// with `-I <dir>/include` ahead of the caller's include directories, so
// the program's headers come first [api.rtc.create.headers-take-precedence].
// The compiler starts without a shell and is killed when it outlives the
// time bound (bounded_process.h). Its diagnostics, with the temporary
// directory's paths removed, are the log: they name the program's name
// and line [api.rtc.compile.error-returns-compilation].
//
//   CompileInputs in;
//   in.source = "extern \"C\" __global__ void k() {}";
//   in.name = "k.cu";
//   absl::StatusOr<CompileOutputs> out = Compile(in);
//   if (out.ok() && out->compiled) Load(out->image);
//
// Tested by compile_job_test.cc and conformance/api/compilation.

#ifndef MXCTS_REFERENCE_RTC_COMPILE_JOB_H_
#define MXCTS_REFERENCE_RTC_COMPILE_JOB_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace mxcts::rtc {

struct CompileInputs {
  std::string source;
  std::string name;  // as diagnostics show it
  // (include name, text) of each header the program was given.
  std::vector<std::pair<std::string, std::string>> headers;
  // mxcc arguments (TranslateOptions of the caller's options).
  std::vector<std::string> compiler_arguments;
  std::vector<std::string> name_expressions;
  // The compiler to run; empty: FindCompiler().
  std::string compiler;
  absl::Duration timeout = absl::Seconds(120);
};

struct CompileOutputs {
  bool compiled = false;  // false: the source has errors (see log)
  std::string log;
  std::string image;  // the module image, when compiled
  // The symbol of each name expression, in order, when compiled.
  std::vector<std::string> lowered_names;
};

// Compiles `inputs`. An error (InternalError, NotFoundError,
// DeadlineExceededError) only when the compilation could not be done: no
// compiler, no temporary directory, a compiler that was killed or ran past
// the time bound; a source with errors is a result with `compiled` false.
absl::StatusOr<CompileOutputs> Compile(const CompileInputs& inputs);

// The installation's compiler: mxgpu_llvm/bin/mxcc of the installation that
// holds the library this code is in (lib/libmcrtc.so), else of $MACA_PATH,
// else of /opt/maca. NotFoundError naming the places looked at.
absl::StatusOr<std::string> FindCompiler();

}  // namespace mxcts::rtc

#endif  // MXCTS_REFERENCE_RTC_COMPILE_JOB_H_
