// Copyright mxcts authors.
//
// Which functions of a translation unit launch grids from device code
// (dynamic parallelism), for the kernel records of the device pass: a
// function launches when its body holds a `<<<...>>>` launch or a call of
// the device runtime's launch entry points (mcLaunchDevice,
// mcGetParameterBuffer and their V2 forms), or calls, by name, a function
// of the unit that launches. The runtime refuses to update a kernel node
// of an executable graph from a kernel that does not launch to one that
// does [api.graph.exec-update.kernel-to-dynamic-parallelism-rejected].
//
// Names are unqualified and overloads are not told apart, so a call of any
// function of a launching name counts; a call through a pointer, or of a
// function defined in another source of relocatable device code, does not
// (the reference documents this in docs/spec/api-graph.md). Internal to
// the translator.

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_GRID_LAUNCHERS_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_GRID_LAUNCHERS_H_

#include <set>
#include <string>

#include "reference/compiler/translator/context.h"

namespace mxcts::compiler::translator_internal {

// The unqualified names of the functions defined in the unit that launch
// grids, directly or through the functions they call.
std::set<std::string> FindGridLaunchers(const Context& c);

}  // namespace mxcts::compiler::translator_internal

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_GRID_LAUNCHERS_H_
