// Copyright mxcts authors.
//
// The rewrites and diagnostics of function declarations
// (reference/compiler/design.md, "Rewrites" 2 to 5): kernel definitions
// become launch stubs (host pass) or registered device entries (device
// pass); `__device__`-only bodies trap in the host pass; host-only functions
// of the user's files are renamed in the device pass. Internal to the
// translator.

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_FUNCTION_REWRITES_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_FUNCTION_REWRITES_H_

#include <string>

#include "reference/compiler/translator/context.h"

namespace mxcts::compiler::translator_internal {

// Checks every function declaration of `c.index` and records the edits of
// its pass.
void RewriteFunctions(Context& c);

// The statement that instantiates `kernel`'s record with its launch bounds
// and shared footprint.
std::string KernelRecordTouch(const KernelBody& kernel);

// Device pass, after the `__shared__` rewrites: inserts each kernel's
// record statement at the end of its body.
void FinishKernelRecords(Context& c);

}  // namespace mxcts::compiler::translator_internal

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_FUNCTION_REWRITES_H_
