// Copyright mxcts authors.
//
// Reading the parts of one C++ declaration that the rewrites need: where
// the decl-specifiers end, the declarator-id of a declarator (or where a
// name would go in an abstract one), the initializer, the parameters of a
// parameter list (names, packs, default arguments, `__grid_constant__`) and
// the parameters of a template header. Heuristic but total: any token range
// gives an answer, and ranges that are no declaration give harmless ones.
// Internal to the translator.
//
//   // For `const float* __restrict__ in, int n = 4`:
//   ParameterList list = AnalyzeParameters(stream, open, close);
//   // list.parameters[0].name == "in", [1].default_begin at `=`

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_DECLARATOR_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_DECLARATOR_H_

#include <string>
#include <string_view>
#include <vector>

#include "reference/compiler/translator/token_stream.h"

namespace mxcts::compiler::translator_internal {

// True for the MXMACA qualifiers the translator removes or replaces.
bool IsMxmacaQualifier(std::string_view word);

// The index of the first token after the decl-specifiers of the
// declaration in [begin, end): storage classes, cv-qualifiers, attributes,
// MXMACA qualifiers and one type (a keyword sequence, a qualified name with
// template arguments, decltype, or a class-key and name).
int SpecifiersEnd(const TokenStream& s, int begin, int end);

// The index after the attributes starting at `i`: `[[...]]`,
// `__attribute__((...))`, `alignas(...)`, `__declspec(...)`,
// `__launch_bounds__(...)`; `i` when none starts there.
int SkipAttributes(const TokenStream& s, int i, int end);

// For `[begin, end)` a qualified name: `::`, names, template argument lists
// and `template`. The index after it.
int SkipQualifiedName(const TokenStream& s, int begin, int end);

// One declarator (with its initializer or default argument), read from the
// token range a caller splits off.
struct Declarator {
  Range range;             // the whole declarator, initializer included
  int name = -1;           // last identifier of the declarator-id; -1 if none
  int name_begin = -1;     // first token of the declarator-id
  int name_insert = -1;    // where a name goes in an abstract declarator
  bool pack = false;       // `...` before the name
  int initializer = -1;    // `=`, or the `{`/`(` of a direct initializer
  int declarator_end = 0;  // end of the declarator proper (no initializer)
};

// Reads the declarator in [begin, end), which starts after the
// decl-specifiers. `variable` says that a `(` right after the name starts a
// direct initializer rather than a parameter list.
Declarator AnalyzeDeclarator(const TokenStream& s, int begin, int end,
                             bool variable);

struct Parameter {
  Range range;                     // the whole parameter
  Declarator declarator;           // its declarator
  std::string name;                // "" when unnamed
  int default_begin = -1;          // the `=` of a default argument
  std::vector<int> grid_constant;  // `__grid_constant__` tokens
};

struct ParameterList {
  std::vector<Parameter> parameters;  // `(void)` gives none
  bool c_variadic = false;            // ends with `...` (C varargs)
  int ellipsis = -1;                  // that `...`
};

// The parameters between the parentheses at `open` and `close`.
ParameterList AnalyzeParameters(const TokenStream& s, int open, int close);

struct TemplateParameter {
  std::string name;  // "" when unnamed
  bool pack = false;
  int name_insert = -1;  // where a name goes when unnamed
};

// The parameters of `template <...>` whose angle brackets are at `open` and
// `close`.
std::vector<TemplateParameter> AnalyzeTemplateParameters(const TokenStream& s,
                                                         int open, int close);

}  // namespace mxcts::compiler::translator_internal

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_DECLARATOR_H_
