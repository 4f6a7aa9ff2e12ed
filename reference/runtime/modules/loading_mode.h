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
// The value is read once, when the runtime initializes, case-insensitively;
// another value is a warning in the runtime's log and LAZY, and at the
// debug level the mode in force is logged as the runtime's other variables
// are [api.env.general.settings-logged-at-debug].
// [api.module.loading.lazy-and-eager]
// [api.module.loading.lazy-errors-at-first-use]
// [api.module.loading.invalid-value-is-lazy]
//
// Tested by conformance/api/compilation (module loading modes).

#ifndef MXCTS_REFERENCE_RUNTIME_MODULES_LOADING_MODE_H_
#define MXCTS_REFERENCE_RUNTIME_MODULES_LOADING_MODE_H_

namespace mxcts::runtime {

enum class ModuleLoading { kLazy, kEager };

// MACA_MODULE_LOADING as the process started with it; the first call reads
// and logs it (the runtime's initialization makes that call).
ModuleLoading ModuleLoadingMode();

// The mode `value` (the variable's text, or null when unset) selects; sets
// `*valid` to false for a value that is neither LAZY nor EAGER.
ModuleLoading ParseModuleLoading(const char* value, bool* valid);

}  // namespace mxcts::runtime

#endif  // MXCTS_REFERENCE_RUNTIME_MODULES_LOADING_MODE_H_
