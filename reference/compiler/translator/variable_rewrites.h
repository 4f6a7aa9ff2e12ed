// Copyright mxcts authors.
//
// The rewrites and diagnostics of variables with MXMACA memory-space
// qualifiers (reference/compiler/design.md, "Rewrites" 6 to 8):
// `__shared__` variables at block and namespace scope become references to
// per-block storage the runtime hands out; `__device__`, `__constant__` and
// `__managed__` variables at namespace scope get their host registration
// (host pass) or their device record (device pass). Internal to the
// translator.

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_VARIABLE_REWRITES_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_VARIABLE_REWRITES_H_

#include "reference/compiler/translator/context.h"

namespace mxcts::compiler::translator_internal {

// Rewrites 7 and 8: the variables of `c.index`, and the later uses of
// namespace-scope `__shared__` variables. Marks the `__shared__` tokens it
// handles in `c.handled_shared`.
void RewriteNamespaceScopeVariables(Context& c);

// Rewrite 6: every `__shared__` declaration statement not in
// `c.handled_shared` (those in function bodies).
void RewriteBlockScopeShared(Context& c);

// Diagnoses memory space specifiers on variables declared in function
// bodies: in a host function (unless `extern`)
// [lang.variable.placement.not-in-host-function], and `__device__` or
// `__constant__` in a device function unless `static` or `extern`
// [lang.variable.placement.device-constant-not-automatic].
void CheckBlockScopeSpaces(Context& c);

}  // namespace mxcts::compiler::translator_internal

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_VARIABLE_REWRITES_H_
