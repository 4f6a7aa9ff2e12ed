// Copyright mxcts authors.
//
// Kernel launches (reference/compiler/design.md, "Rewrites" 1) and the
// diagnostics about calling kernels: `E<<<C1, C2, C3, C4>>>(A...)` becomes
// `(::__mc_internal::PushLaunchConfiguration(C1, C2, C3, C4), E(A...))`;
// a kernel called without a configuration, a configuration after a
// function that is no kernel, and a configuration with fewer than two or
// more than four operands are errors. Internal to the translator.

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_LAUNCH_REWRITES_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_LAUNCH_REWRITES_H_

#include <string>
#include <unordered_set>

#include "reference/compiler/translator/context.h"

namespace mxcts::compiler::translator_internal {

// What the translation unit declares as functions, by unqualified name.
struct FunctionNames {
  std::unordered_set<std::string> kernels;  // declared __global__
  std::unordered_set<std::string> others;   // declared without __global__
  std::unordered_set<int> declarator_ids;   // name tokens of declarations
};

FunctionNames CollectFunctionNames(const Context& c);

// Rewrite 1 for every launch, with the configuration diagnostics.
void RewriteLaunches(Context& c, const FunctionNames& names);

// [lang.function.global.requires-configuration]: calls of names declared
// only as kernels, without `<<<...>>>`.
void CheckKernelCalls(Context& c, const FunctionNames& names);

}  // namespace mxcts::compiler::translator_internal

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_LAUNCH_REWRITES_H_
