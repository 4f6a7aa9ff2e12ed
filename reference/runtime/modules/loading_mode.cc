// Copyright mxcts authors.
//
// MACA_MODULE_LOADING (loading_mode.h): read once, when the runtime
// initializes, and kept for the life of the process, as the driver reads
// its environment once. The warning and the debug line have the words of
// the runtime's other variables (reference/runtime/environment).
//
// Tested by conformance/api/compilation (module loading modes).

#include "reference/runtime/modules/loading_mode.h"

#include <stdlib.h>

#include "absl/strings/ascii.h"
#include "reference/logging/log.h"
#include "reference/logging/setting_messages.h"

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
    // [api.module.loading.invalid-value-is-lazy]
    // [api.env.general.invalid-value-warns]
    if (!valid) {
      MCR_LOGW("%s", logging::InvalidSettingWarning(
                         "MACA_MODULE_LOADING", value,
                         "LAZY, EAGER, in any case", "LAZY")
                         .c_str());
    }
    // [api.env.general.settings-logged-at-debug]
    MCR_LOGD("%s", logging::SettingLine(
                       "MACA_MODULE_LOADING",
                       parsed == ModuleLoading::kEager ? "EAGER" : "LAZY",
                       value == nullptr || !valid)
                       .c_str());
    return parsed;
  }();
  return mode;
}

}  // namespace mxcts::runtime
