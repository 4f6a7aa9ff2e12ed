// Copyright mxcts authors.
// -----------------------------------------------------------------------------
// File: conformance/api/testing/rtc_module.h
// -----------------------------------------------------------------------------
//
// Runtime compilation for the tests of docs/spec/api-compilation.md: a
// source compiled with mcrtc into a module image, with its log and the
// lowered names of its name expressions, through the public API only.
//
//   CompiledProgram p = CompileProgram(kSource, "k.cu", {"-std=c++17"},
//                                      {"&scale<int>"});
//   ASSERT_EQ(p.result, MCRTC_SUCCESS) << p.log;
//   mcModule_t m;
//   mcModuleLoadData(&m, p.image.data());
//
// Included by sources the backend's driver compiles, which supplies
// <mc_runtime.h> and <mcrtc.h>.

#ifndef MXCTS_CONFORMANCE_API_TESTING_RTC_MODULE_H_
#define MXCTS_CONFORMANCE_API_TESTING_RTC_MODULE_H_

#include <mc_runtime.h>
#include <mcrtc.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mxcts::conformance {

struct CompiledProgram {
  mcrtcResult result = MCRTC_ERROR_INTERNAL_ERROR;
  std::string log;
  std::vector<char> image;  // the code, when compiled
  std::map<std::string, std::string> lowered;
};

// Creates, compiles, reads and destroys one program.
inline CompiledProgram CompileProgram(
    const std::string& source, const char* name,
    const std::vector<std::string>& options = {},
    const std::vector<std::string>& name_expressions = {},
    const std::vector<std::pair<std::string, std::string>>& headers = {}) {
  CompiledProgram compiled;
  std::vector<const char*> header_texts, include_names, option_texts;
  for (const auto& [include_name, text] : headers) {
    include_names.push_back(include_name.c_str());
    header_texts.push_back(text.c_str());
  }
  mcrtcProgram program = nullptr;
  compiled.result = mcrtcCreateProgram(
      &program, source.c_str(), name, static_cast<int>(headers.size()),
      headers.empty() ? nullptr : header_texts.data(),
      headers.empty() ? nullptr : include_names.data());
  if (compiled.result != MCRTC_SUCCESS) return compiled;
  for (const std::string& expression : name_expressions) {
    mcrtcAddNameExpression(program, expression.c_str());
  }
  for (const std::string& option : options)
    option_texts.push_back(option.c_str());
  compiled.result =
      mcrtcCompileProgram(program, static_cast<int>(option_texts.size()),
                          option_texts.empty() ? nullptr : option_texts.data());
  size_t log_size = 0;
  if (mcrtcGetProgramLogSize(program, &log_size) == MCRTC_SUCCESS &&
      log_size > 0) {
    std::string log(log_size, '\0');
    mcrtcGetProgramLog(program, &log[0]);
    compiled.log = log.c_str();
  }
  if (compiled.result == MCRTC_SUCCESS) {
    size_t size = 0;
    mcrtcGetCodeSize(program, &size);
    compiled.image.resize(size);
    if (size > 0) mcrtcGetCode(program, compiled.image.data());
    for (const std::string& expression : name_expressions) {
      const char* lowered = nullptr;
      if (mcrtcGetLoweredName(program, expression.c_str(), &lowered) ==
              MCRTC_SUCCESS &&
          lowered != nullptr) {
        compiled.lowered[expression] = lowered;
      }
    }
  }
  mcrtcDestroyProgram(&program);
  return compiled;
}

// A module of `image` on the current device, unloaded at the end of the
// scope.
class ScopedModule {
 public:
  explicit ScopedModule(const std::vector<char>& image) {
    result_ = mcModuleLoadData(&module_, image.data());
  }
  ~ScopedModule() {
    if (result_ == mcSuccess) mcModuleUnload(module_);
  }
  ScopedModule(const ScopedModule&) = delete;
  ScopedModule& operator=(const ScopedModule&) = delete;
  mcError_t result() const { return result_; }
  mcModule_t get() const { return module_; }
  mcFunction_t Function(const char* name) const {
    mcFunction_t function = nullptr;
    if (mcModuleGetFunction(&function, module_, name) != mcSuccess) {
      return nullptr;
    }
    return function;
  }

 private:
  mcModule_t module_ = nullptr;
  mcError_t result_ = mcErrorUnknown;
};

}  // namespace mxcts::conformance

#endif  // MXCTS_CONFORMANCE_API_TESTING_RTC_MODULE_H_
