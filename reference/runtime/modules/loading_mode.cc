// Copyright mxcts authors.
//
// MACA_MODULE_LOADING (loading_mode.h): read once, at the first module
// load, and kept for the life of the process, as the driver reads its
// environment once.
//
// Tested by conformance/api/compilation (module loading modes).

#include "reference/runtime/modules/loading_mode.h"

#include <stdio.h>
#include <stdlib.h>

#include "absl/strings/ascii.h"

namespace mxcts::runtime {

ModuleLoading ParseModuleLoading(const char* value, bool* valid) {
  *valid = true;
  if (value == nullptr) return ModuleLoading::kLazy;
  const std::string text = absl::AsciiStrToUpper(value);
  if (text == "LAZY") return ModuleLoading::kLazy;
  if (text == "EAGER") return ModuleLoading::kEager;
  *valid = false;
  return ModuleLoading::kLazy;
}

ModuleLoading ModuleLoadingMode() {
  static const ModuleLoading mode = [] {
    const char* value = getenv("MACA_MODULE_LOADING");
    bool valid = true;
    ModuleLoading parsed = ParseModuleLoading(value, &valid);
    if (!valid) {
      fprintf(stderr,
              "mxcts: warning: MACA_MODULE_LOADING=%s is neither LAZY nor "
              "EAGER; modules load lazily\n",
              value);
    }
    return parsed;
  }();
  return mode;
}

}  // namespace mxcts::runtime
