// Copyright mxcts authors.
//
// mcrtc.h: runtime compilation of MXMACA device code. A program is device
// source held in a string, with the headers it includes given as strings;
// compiling it gives a device image that the module API
// (mcModuleLoadData, mc_runtime_api.h) loads and launches. Link with
// -lmcrtc (libmcrtc.so; mxcc links it when the program uses it).
//
//   mcrtcProgram prog;
//   mcrtcCreateProgram(&prog, source, "scale.cu", 0, NULL, NULL);
//   mcrtcAddNameExpression(prog, "&scale<float>");
//   const char* options[] = {"-std=c++17", "-DFACTOR=3"};
//   if (mcrtcCompileProgram(prog, 2, options) != MCRTC_SUCCESS) {
//     size_t n; mcrtcGetProgramLogSize(prog, &n);
//     std::string log(n, '\0'); mcrtcGetProgramLog(prog, &log[0]);
//   }
//   size_t size; mcrtcGetCodeSize(prog, &size);
//   std::vector<char> image(size); mcrtcGetCode(prog, image.data());
//   const char* lowered; mcrtcGetLoweredName(prog, "&scale<float>", &lowered);
//   mcModule_t module; mcModuleLoadData(&module, image.data());
//   mcFunction_t kernel; mcModuleGetFunction(&kernel, module, lowered);
//   mcrtcDestroyProgram(&prog);
//
// The reference compiles with its own mxcc (`mxcc --genco`, run without a
// shell in a private temporary directory, bounded in time), found beside
// libmcrtc.so in the installation ($MACA_PATH/mxgpu_llvm/bin/mxcc). Distinct
// programs may be used from distinct threads at once; calls on one program
// must not overlap. [api.rtc.thread-safety.distinct-programs]

#ifndef MCRTC_H_
#define MCRTC_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// The result of every mcrtc call, NVRTC's codes in NVRTC's order.
// [api.rtc.result.enumerator-values]
typedef enum {
  MCRTC_SUCCESS = 0,
  MCRTC_ERROR_OUT_OF_MEMORY = 1,
  MCRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  MCRTC_ERROR_INVALID_INPUT = 3,
  MCRTC_ERROR_INVALID_PROGRAM = 4,
  MCRTC_ERROR_INVALID_OPTION = 5,
  MCRTC_ERROR_COMPILATION = 6,
  MCRTC_ERROR_BUILTIN_OPERATION_FAILURE = 7,
  MCRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION = 8,
  MCRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION = 9,
  MCRTC_ERROR_NAME_EXPRESSION_NOT_VALID = 10,
  MCRTC_ERROR_INTERNAL_ERROR = 11,
} mcrtcResult;

// A program: its source, headers, name expressions and, once compiled, its
// log, image and lowered names.
typedef struct _mcrtcProgram* mcrtcProgram;

// The name of `result` ("MCRTC_SUCCESS", ...); never null: a value outside
// the enumeration gives "MCRTC_ERROR unknown".
// [api.rtc.error-string.names-each-result]
const char* mcrtcGetErrorString(mcrtcResult result);

// Stores the library's version in `*major` and `*minor`.
// Errors: MCRTC_ERROR_INVALID_INPUT if either is null.
// [api.rtc.version.reports-version] [api.rtc.version.null-invalid-input]
mcrtcResult mcrtcVersion(int* major, int* minor);

// Creates a program of the NUL-terminated source `src`, named `name` in
// diagnostics ("default_program" when null or empty). `headers[i]` is the
// text of the header `#include`d as `includeNames[i]`; such a header is
// used before any file of the include path. The strings are copied.
// Errors: MCRTC_ERROR_INVALID_INPUT if `prog` or `src` is null,
// `numHeaders` is negative, or `numHeaders` > 0 with `headers`,
// `includeNames` or one of their entries null, or an include name that is
// empty, absolute or has a `..` component.
// [api.rtc.create.creates-program] [api.rtc.create.null-prog-invalid-input]
// [api.rtc.create.null-source-invalid-input]
// [api.rtc.create.bad-header-arrays-invalid-input]
// [api.rtc.create.headers-take-precedence]
mcrtcResult mcrtcCreateProgram(mcrtcProgram* prog, const char* src,
                               const char* name, int numHeaders,
                               const char* const* headers,
                               const char* const* includeNames);

// Destroys `*prog` and sets it to null. Buffers copied out of it stay the
// caller's.
// Errors: MCRTC_ERROR_INVALID_PROGRAM if `prog` or `*prog` is null or not
// a live program. [api.rtc.destroy.releases-program]
// [api.rtc.destroy.null-invalid-program]
mcrtcResult mcrtcDestroyProgram(mcrtcProgram* prog);

// Compiles `prog` with `numOptions` options: `-x maca` (also as one string
// "-x maca"), `-D<name>[=<value>]`, `-U<name>`, `-I<dir>`,
// `--include-path=<dir>`, `-std=c++17` or `-std=c++20` (and their gnu++
// forms), `-O0` to `-O3`, `--offload-arch=<arch>` (`xcore1000`, `native`),
// `-w`, `-default-device` and `-G`/`-lineinfo` (accepted, no effect). A
// program may be compiled once.
// Errors: MCRTC_ERROR_INVALID_PROGRAM for a bad `prog`;
// MCRTC_ERROR_INVALID_INPUT if `numOptions` is negative, or positive with
// `options` or one of its entries null; MCRTC_ERROR_INVALID_OPTION for an
// option not listed above, or a listed one with a bad value (another
// standard, an unknown architecture), the log naming it;
// MCRTC_ERROR_COMPILATION when the source does not compile, or a name
// expression names no function or variable, the log holding the
// compiler's diagnostics at the program's name (or "<mcrtc name
// expressions>") and line; MCRTC_ERROR_BUILTIN_OPERATION_FAILURE when the
// compiler cannot be run or exceeds its time (MCRTC_COMPILE_TIMEOUT
// seconds, default 120), the log saying why. A program may be compiled
// again; each compilation replaces the log, code and lowered names.
// [api.rtc.compile.success] [api.rtc.compile.options]
// [api.rtc.compile.error-returns-compilation]
// [api.rtc.compile.unknown-option-invalid-option]
// [api.rtc.compile.null-options-invalid-input]
// [api.rtc.name.invalid-expression-fails-compilation]
// [api.rtc.compile.isolated-and-bounded]
mcrtcResult mcrtcCompileProgram(mcrtcProgram prog, int numOptions,
                                const char* const* options);

// The size in bytes of the device image of a compiled program, and the
// image itself (`code` must have room for that many bytes): what
// mcModuleLoadData loads. Before a successful compilation the size is 0.
// Errors: MCRTC_ERROR_INVALID_INPUT for a null output;
// MCRTC_ERROR_INVALID_PROGRAM for a bad `prog`.
// [api.rtc.code.get-code] [api.rtc.code.null-invalid-input]
// [api.rtc.code.before-successful-compile]
mcrtcResult mcrtcGetCodeSize(mcrtcProgram prog, size_t* codeSizeRet);
mcrtcResult mcrtcGetCode(mcrtcProgram prog, char* code);

// The same for the program's bitcode: in the reference, the device image
// itself (its device code needs no further compilation), so it loads as
// the code does. [api.rtc.code.get-bitcode]
mcrtcResult mcrtcGetBitcodeSize(mcrtcProgram prog, size_t* bitcodeSizeRet);
mcrtcResult mcrtcGetBitcode(mcrtcProgram prog, char* bitcode);

// The size of the program's log including its NUL, and the log (`log` must
// have room for that many bytes). Empty (size 1) before a compilation and
// after one that printed nothing.
// Errors: MCRTC_ERROR_INVALID_INPUT for a null output;
// MCRTC_ERROR_INVALID_PROGRAM for a bad `prog`.
// [api.rtc.log.size-includes-terminator] [api.rtc.log.null-invalid-input]
mcrtcResult mcrtcGetProgramLogSize(mcrtcProgram prog, size_t* logSizeRet);
mcrtcResult mcrtcGetProgramLog(mcrtcProgram prog, char* log);

// Registers `name_expression` (a kernel or __device__ variable, possibly a
// template instantiation: "&scale<float>", "scale<int>", "&ns::table") to
// be instantiated by the compilation and lowered after it.
// Errors: MCRTC_ERROR_INVALID_INPUT for a null or empty expression;
// MCRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION once compiled;
// MCRTC_ERROR_INVALID_PROGRAM for a bad `prog`.
// [api.rtc.name.add-name-expression] [api.rtc.name.add-after-compile-error]
// [api.rtc.name.add-null-invalid-input]
mcrtcResult mcrtcAddNameExpression(mcrtcProgram prog,
                                   const char* const name_expression);

// Stores in `*lowered_name` the symbol of the entity `name_expression`
// names (its mangled name, or the plain name of an `extern "C"` one),
// which mcModuleGetFunction and mcModuleGetGlobal accept; valid until the
// program is destroyed.
// Errors: MCRTC_ERROR_INVALID_INPUT for a null argument;
// MCRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION before a successful
// compilation; MCRTC_ERROR_NAME_EXPRESSION_NOT_VALID for an expression
// that was not added; MCRTC_ERROR_INVALID_PROGRAM for a bad `prog`.
// [api.rtc.name.get-lowered-name] [api.rtc.name.lowered-before-compile-error]
// [api.rtc.name.unknown-expression-not-valid]
mcrtcResult mcrtcGetLoweredName(mcrtcProgram prog,
                                const char* const name_expression,
                                const char** lowered_name);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // MCRTC_H_
