// Copyright mxcts authors.
//
// reference/runtime/modules/loading_mode.h: MACA_MODULE_LOADING, when a
// module's code is loaded for its device.
//
//   LAZY (the default)  at the first call that needs a kernel or variable
//                       of the module (mcModuleGetFunction,
//                       mcModuleGetGlobal); errors of loading surface there
//   EAGER               by mcModuleLoad* itself, which then fails with them
//
// The value is read once, case-insensitively; another value is a warning on
// stderr and LAZY. [api.module.loading.lazy-and-eager]
// [api.module.loading.lazy-errors-at-first-use]
// [api.module.loading.invalid-value-is-lazy]
//
// Tested by conformance/api/compilation (module loading modes).

#ifndef MXCTS_REFERENCE_RUNTIME_MODULES_LOADING_MODE_H_
#define MXCTS_REFERENCE_RUNTIME_MODULES_LOADING_MODE_H_

namespace mxcts::runtime {

enum class ModuleLoading { kLazy, kEager };

// MACA_MODULE_LOADING as the process started with it.
ModuleLoading ModuleLoadingMode();

// The mode `value` (the variable's text, or null when unset) selects; sets
// `*valid` to false for a value that is neither LAZY nor EAGER.
ModuleLoading ParseModuleLoading(const char* value, bool* valid);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_MODULES_LOADING_MODE_H_
