// Copyright mxcts authors.
//
// The declaration scanner: walks the namespace-scope and class-scope
// declarations of a translation unit (namespace bodies, `extern "C"`
// blocks and class bodies are entered; function bodies and initializers
// are not) and records every function declaration and every variable
// declaration that carries an MXMACA memory-space qualifier. The rewrites
// and the diagnostics of the translator work from these records. Internal
// to the translator.
//
//   DeclarationIndex index = ScanDeclarations(stream, map);
//   for (const FunctionDeclaration& f : index.functions)
//     if (f.Has(stream, "__global__") && f.body_open >= 0) ...

#ifndef MXCTS_REFERENCE_COMPILER_TRANSLATOR_DECLARATIONS_H_
#define MXCTS_REFERENCE_COMPILER_TRANSLATOR_DECLARATIONS_H_

#include <string>
#include <string_view>
#include <vector>

#include "reference/compiler/translator/declarator.h"
#include "reference/compiler/translator/source_map.h"
#include "reference/compiler/translator/token_stream.h"

namespace mxcts::compiler::translator_internal {

enum class ScopeKind { kNamespace, kClass };

// Where a declaration is.
struct DeclarationScope {
  ScopeKind kind = ScopeKind::kNamespace;
  std::vector<std::string> namespaces;  // enclosing namespaces, outermost first
  int file_scope_begin = 0;  // first token of the enclosing file-scope item
};

struct FunctionDeclaration {
  DeclarationScope scope;
  bool system_header = false;  // declared in a system header (flag 3)
  Range range;                 // template headers and body included
  int head_begin = 0;          // first token after the template headers
  int template_open = -1;      // `<` of the innermost template header
  int template_close = -1;     // its `>`
  int name_begin = 0;          // the declarator-id, qualified ...
  int name = 0;                // ... and its last identifier (or `operator`)
  int params_open = 0;
  int params_close = 0;
  int trailing_arrow = -1;  // `->` of a trailing return type
  int body_begin = -1;      // `{`, or `try` of a function-try-block
  int body_open = -1;       // the body's `{`
  int body_end = -1;        // one past the body (and its handlers)
  bool is_friend = false;
  std::vector<int> qualifiers;  // MXMACA qualifier tokens of the head

  bool is_definition() const { return body_open >= 0; }
  // True when `word` is a top-level token of the head before the name.
  bool Has(const TokenStream& s, std::string_view word) const;
  int Find(const TokenStream& s, std::string_view word) const;  // or -1
};

struct VariableDeclaration {
  DeclarationScope scope;
  bool system_header = false;
  Range range;         // one past the `;` at the end
  int head_begin = 0;  // first token after template headers
  bool is_template = false;
  int specifiers_end = 0;
  std::vector<Declarator> declarators;
  std::vector<int> qualifiers;  // MXMACA qualifier tokens

  bool Has(const TokenStream& s, std::string_view word) const;
  int Find(const TokenStream& s, std::string_view word) const;  // or -1
};

struct DeclarationIndex {
  std::vector<FunctionDeclaration> functions;
  std::vector<VariableDeclaration> variables;
};

// Scans the whole stream. Never fails; unbalanced or unparsable text is
// skipped a declaration at a time.
DeclarationIndex ScanDeclarations(const TokenStream& s, const SourceMap& map);

}  // namespace mxcts::compiler::translator_internal

#endif  // MXCTS_REFERENCE_COMPILER_TRANSLATOR_DECLARATIONS_H_
