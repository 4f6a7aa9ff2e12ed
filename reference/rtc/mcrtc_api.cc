// Copyright mxcts authors.
//
// The mcrtc entry points (mcrtc.h; docs/spec/api-compilation.md, "Runtime
// compilation with mcrtc"). Each checks its arguments and the program
// handle, then works on the program (program.h); compilation is
// compile_job.h's Compile. No exception crosses the C boundary: an
// allocation failure is MCRTC_ERROR_OUT_OF_MEMORY, anything else
// unexpected MCRTC_ERROR_INTERNAL_ERROR.
//
// Tested by conformance/api/compilation.

#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <new>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "mcrtc.h"
#include "reference/rtc/cached_compile.h"
#include "reference/rtc/compile_job.h"
#include "reference/rtc/compile_options.h"
#include "reference/rtc/program.h"

namespace mxcts::rtc {
namespace {

// The library's version. [api.rtc.version.reports-version]
constexpr int kMajor = 2;
constexpr int kMinor = 33;

template <typename Body>
mcrtcResult Guarded(Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return MCRTC_ERROR_OUT_OF_MEMORY;
  } catch (...) {
    return MCRTC_ERROR_INTERNAL_ERROR;
  }
}

// An include name must stay inside the directory headers are written to.
bool GoodIncludeName(const char* name) {
  if (name == nullptr || name[0] == '\0' || name[0] == '/') return false;
  for (const auto& part : std::filesystem::path(name)) {
    if (part == "..") return false;
  }
  return true;
}

absl::Duration CompileTimeout() {
  const char* text = getenv("MCRTC_COMPILE_TIMEOUT");
  int seconds = 0;
  if (text != nullptr && absl::SimpleAtoi(text, &seconds) && seconds > 0) {
    return absl::Seconds(seconds);
  }
  return absl::Seconds(120);
}

mcrtcResult CompileNow(Program& program, int num_options,
                       const char* const* options) {
  // [api.rtc.compile.null-options-invalid-input]
  if (num_options < 0 || (num_options > 0 && options == nullptr)) {
    return MCRTC_ERROR_INVALID_INPUT;
  }
  std::vector<std::string> given;
  for (int i = 0; i < num_options; ++i) {
    if (options[i] == nullptr) return MCRTC_ERROR_INVALID_INPUT;
    given.emplace_back(options[i]);
  }
  absl::MutexLock lock(&program.mu);
  program.compile_attempted = true;
  program.compiled = false;
  program.image.clear();
  program.lowered.clear();
  absl::StatusOr<std::vector<std::string>> arguments = TranslateOptions(given);
  if (!arguments.ok()) {  // [api.rtc.compile.unknown-option-invalid-option]
    program.log = absl::StrCat(arguments.status().message(), "\n");
    return MCRTC_ERROR_INVALID_OPTION;
  }
  CompileInputs inputs;
  inputs.source = program.source;
  inputs.name = program.name;
  inputs.headers = program.headers;
  inputs.compiler_arguments = std::move(*arguments);
  inputs.name_expressions = program.name_expressions;
  inputs.timeout = CompileTimeout();
  absl::StatusOr<CompileOutputs> outputs = mxcts::rtc::CachedCompile(inputs);
  if (!outputs.ok()) {  // no compiler, killed, out of time
    program.log = absl::StrCat(outputs.status().message(), "\n");
    return MCRTC_ERROR_BUILTIN_OPERATION_FAILURE;
  }
  program.log = std::move(outputs->log);
  if (!outputs->compiled) {  // [api.rtc.compile.error-returns-compilation]
    return MCRTC_ERROR_COMPILATION;
  }
  program.image = std::move(outputs->image);
  for (size_t i = 0; i < program.name_expressions.size(); ++i) {
    program.lowered[program.name_expressions[i]] = outputs->lowered_names[i];
  }
  program.compiled = true;  // [api.rtc.compile.success]
  return MCRTC_SUCCESS;
}

// The image getters: size 0 and nothing copied before a successful
// compilation. [api.rtc.code.before-successful-compile]
mcrtcResult ImageSize(mcrtcProgram prog, size_t* size) {
  return Guarded([&] {
    Program* program = ProgramTable::Get().Find(prog);
    if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
    if (size == nullptr) return MCRTC_ERROR_INVALID_INPUT;
    absl::MutexLock lock(&program->mu);
    *size = program->compiled ? program->image.size() : 0;
    return MCRTC_SUCCESS;
  });
}

mcrtcResult ImageCopy(mcrtcProgram prog, char* out) {
  return Guarded([&] {
    Program* program = ProgramTable::Get().Find(prog);
    if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
    if (out == nullptr) return MCRTC_ERROR_INVALID_INPUT;
    absl::MutexLock lock(&program->mu);
    if (program->compiled) {
      std::memcpy(out, program->image.data(), program->image.size());
    }
    return MCRTC_SUCCESS;
  });
}

}  // namespace
}  // namespace mxcts::rtc

using mxcts::rtc::Guarded;
using mxcts::rtc::Program;
using mxcts::rtc::ProgramTable;

extern "C" {

const char* mcrtcGetErrorString(mcrtcResult result) {
  // [api.rtc.error-string.names-each-result]
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
  // [api.rtc.version.null-invalid-input]
  if (major == nullptr || minor == nullptr) return MCRTC_ERROR_INVALID_INPUT;
  *major = mxcts::rtc::kMajor;
  *minor = mxcts::rtc::kMinor;
  return MCRTC_SUCCESS;
}

mcrtcResult mcrtcCreateProgram(mcrtcProgram* prog, const char* src,
                               const char* name, int numHeaders,
                               const char* const* headers,
                               const char* const* includeNames) {
  return Guarded([&] {
    // [api.rtc.create.null-prog-invalid-input]
    // [api.rtc.create.null-source-invalid-input]
    // [api.rtc.create.bad-header-arrays-invalid-input]
    if (prog == nullptr || src == nullptr || numHeaders < 0 ||
        (numHeaders > 0 && (headers == nullptr || includeNames == nullptr))) {
      return MCRTC_ERROR_INVALID_INPUT;
    }
    auto program = std::make_unique<Program>();
    program->source = src;
    program->name =
        name != nullptr && name[0] != '\0' ? name : "default_program";
    for (int i = 0; i < numHeaders; ++i) {
      if (headers[i] == nullptr ||
          !mxcts::rtc::GoodIncludeName(includeNames[i])) {
        return MCRTC_ERROR_INVALID_INPUT;
      }
      program->headers.emplace_back(includeNames[i], headers[i]);
    }
    // [api.rtc.create.creates-program]
    *prog = reinterpret_cast<mcrtcProgram>(
        ProgramTable::Get().Add(std::move(program)));
    return MCRTC_SUCCESS;
  });
}

mcrtcResult mcrtcDestroyProgram(mcrtcProgram* prog) {
  return Guarded([&] {
    // [api.rtc.destroy.null-invalid-program]
    if (prog == nullptr || !ProgramTable::Get().Remove(*prog)) {
      return MCRTC_ERROR_INVALID_PROGRAM;
    }
    *prog = nullptr;  // [api.rtc.destroy.releases-program]
    return MCRTC_SUCCESS;
  });
}

mcrtcResult mcrtcCompileProgram(mcrtcProgram prog, int numOptions,
                                const char* const* options) {
  return Guarded([&] {
    Program* program = ProgramTable::Get().Find(prog);
    if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
    return mxcts::rtc::CompileNow(*program, numOptions, options);
  });
}

mcrtcResult mcrtcGetCodeSize(mcrtcProgram prog, size_t* codeSizeRet) {
  return mxcts::rtc::ImageSize(prog, codeSizeRet);  // [api.rtc.code.get-code]
}

mcrtcResult mcrtcGetCode(mcrtcProgram prog, char* code) {
  return mxcts::rtc::ImageCopy(prog, code);
}

mcrtcResult mcrtcGetBitcodeSize(mcrtcProgram prog, size_t* bitcodeSizeRet) {
  return mxcts::rtc::ImageSize(prog,
                               bitcodeSizeRet);  // [api.rtc.code.get-bitcode]
}

mcrtcResult mcrtcGetBitcode(mcrtcProgram prog, char* bitcode) {
  return mxcts::rtc::ImageCopy(prog, bitcode);
}

mcrtcResult mcrtcGetProgramLogSize(mcrtcProgram prog, size_t* logSizeRet) {
  return Guarded([&] {
    Program* program = ProgramTable::Get().Find(prog);
    if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
    // [api.rtc.log.null-invalid-input]
    if (logSizeRet == nullptr) return MCRTC_ERROR_INVALID_INPUT;
    absl::MutexLock lock(&program->mu);
    *logSizeRet =
        program->log.size() + 1;  // [api.rtc.log.size-includes-terminator]
    return MCRTC_SUCCESS;
  });
}

mcrtcResult mcrtcGetProgramLog(mcrtcProgram prog, char* log) {
  return Guarded([&] {
    Program* program = ProgramTable::Get().Find(prog);
    if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
    if (log == nullptr) return MCRTC_ERROR_INVALID_INPUT;
    absl::MutexLock lock(&program->mu);
    std::memcpy(log, program->log.c_str(), program->log.size() + 1);
    return MCRTC_SUCCESS;
  });
}

mcrtcResult mcrtcAddNameExpression(mcrtcProgram prog,
                                   const char* const name_expression) {
  return Guarded([&] {
    Program* program = ProgramTable::Get().Find(prog);
    if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
    // [api.rtc.name.add-null-invalid-input]
    if (name_expression == nullptr || name_expression[0] == '\0') {
      return MCRTC_ERROR_INVALID_INPUT;
    }
    absl::MutexLock lock(&program->mu);
    // [api.rtc.name.add-after-compile-error]
    if (program->compile_attempted) {
      return MCRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
    }
    // [api.rtc.name.add-name-expression]
    for (const std::string& known : program->name_expressions) {
      if (known == name_expression) return MCRTC_SUCCESS;
    }
    program->name_expressions.emplace_back(name_expression);
    return MCRTC_SUCCESS;
  });
}

mcrtcResult mcrtcGetLoweredName(mcrtcProgram prog,
                                const char* const name_expression,
                                const char** lowered_name) {
  return Guarded([&] {
    Program* program = ProgramTable::Get().Find(prog);
    if (program == nullptr) return MCRTC_ERROR_INVALID_PROGRAM;
    if (name_expression == nullptr || lowered_name == nullptr) {
      return MCRTC_ERROR_INVALID_INPUT;
    }
    absl::MutexLock lock(&program->mu);
    // [api.rtc.name.lowered-before-compile-error]
    if (!program->compiled) {
      return MCRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
    }
    auto it = program->lowered.find(name_expression);
    // [api.rtc.name.unknown-expression-not-valid]
    if (it == program->lowered.end()) {
      return MCRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
    }
    *lowered_name = it->second.c_str();  // [api.rtc.name.get-lowered-name]
    return MCRTC_SUCCESS;
  });
}

}  // extern "C"
