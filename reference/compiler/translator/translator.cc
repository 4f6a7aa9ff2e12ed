// Copyright mxcts authors.
//
// Translate() runs the translator's stages over one preprocessed
// translation unit:
//
//   1. lex the text (lexer.h) and read its line markers (source_map.h);
//   2. scan the namespace- and class-scope declarations
//      (declarations.h);
//   3. collect edits and diagnostics: functions (function_rewrites.h),
//      variables (variable_rewrites.h), launches and kernel calls
//      (launch_rewrites.h), the host pass's checks of device-only names in
//      host code (host_code_checks.h), and last the qualifiers themselves
//      (here);
//   4. apply the edits (edit_list.h), which keeps every line in place.
//
// The stages never fail; text they cannot read stays as it is, so the host
// compiler reports what the translator could not. The rewrites are those of
// reference/compiler/design.md, "The translator".
//
// Tested by translator_test.cc.

#include "reference/compiler/translator/translator.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <string>

#include "reference/compiler/translator/context.h"
#include "reference/compiler/translator/declarations.h"
#include "reference/compiler/translator/function_rewrites.h"
#include "reference/compiler/translator/grid_launchers.h"
#include "reference/compiler/translator/host_code_checks.h"
#include "reference/compiler/translator/launch_rewrites.h"
#include "reference/compiler/translator/lexer.h"
#include "reference/compiler/translator/source_map.h"
#include "reference/compiler/translator/token_stream.h"
#include "reference/compiler/translator/variable_rewrites.h"

namespace mxcts::compiler {
namespace {

using translator_internal::Context;
using translator_internal::TokenStream;

// Whether an `inline` already applies to the declaration around `t`.
bool InlineNearby(const TokenStream& s, int t) {
  constexpr int kReach = 64;
  for (int k = t - 1; k >= 0 && k > t - kReach; --k) {
    if (s.Is(k, ";") || s.Is(k, "{") || s.Is(k, "}")) break;
    if (s.Is(k, "inline") || s.Is(k, "__forceinline__")) return true;
  }
  for (int k = t + 1; k < s.size() && k < t + kReach; ++k) {
    if (s.Is(k, ";") || s.Is(k, "{") || s.Is(k, "}") || s.Is(k, "(")) break;
    if (s.Is(k, "inline")) return true;
  }
  return false;
}

// Rewrite 9: the qualifiers go, or become GNU attributes; text inside
// `__attribute__((...))` is GCC's own and stays.
void RewriteQualifiers(Context& c) {
  const TokenStream& s = c.s;
  for (int t = 0; t < s.size(); ++t) {
    if ((s.Is(t, "__attribute__") || s.Is(t, "__attribute")) &&
        s.Is(t + 1, "(") && s.Match(t + 1) > t) {
      t = s.Match(t + 1);
      continue;
    }
    if (!s.IsIdentifier(t) ||
        !translator_internal::IsMxmacaQualifier(s.at(t).text)) {
      continue;
    }
    std::string_view word = s.at(t).text;
    if (word == "__launch_bounds__") {
      int close = s.Is(t + 1, "(") ? s.Match(t + 1) : -1;
      int last = close > t ? close : t;
      c.ReplaceTokens(t, last + 1, "");
      t = last;
    } else if (word == "__noinline__") {
      c.ReplaceTokens(t, t + 1, "__attribute__((noinline))");
    } else if (word == "__forceinline__" && c.plain_forceinline.count(t)) {
      c.ReplaceTokens(t, t + 1, InlineNearby(s, t) ? "" : "inline");
    } else if (word == "__forceinline__") {
      c.ReplaceTokens(t, t + 1,
                      InlineNearby(s, t)
                          ? "__attribute__((always_inline))"
                          : "__attribute__((always_inline)) inline");
    } else {
      c.ReplaceTokens(t, t + 1, "");
    }
  }
}

// The device declarations of `c` whose names no definition of the source
// has (a declaration before the definition is common).
std::set<std::string> DeclaredWithoutDefinition(const Context& c) {
  std::set<std::string> names = c.device_declarations;
  for (const translator_internal::FunctionDeclaration& f : c.index.functions) {
    if (f.is_definition() && c.s.IsName(f.name)) {
      names.erase(std::string(c.s.at(f.name).text));
    }
  }
  for (const translator_internal::VariableDeclaration& v : c.index.variables) {
    if (v.Has(c.s, "extern")) continue;
    for (const translator_internal::Declarator& d : v.declarators) {
      if (d.name >= 0) names.erase(std::string(c.s.at(d.name).text));
    }
  }
  return names;
}

}  // namespace

bool Translation::ok() const {
  return std::none_of(diagnostics.begin(), diagnostics.end(),
                      [](const Diagnostic& d) {
                        return d.severity == Diagnostic::Severity::kError;
                      });
}

Translation Translate(std::string_view source,
                      const TranslationOptions& options) {
  LexResult lexed = Lex(source);
  TokenStream stream(lexed.tokens);
  translator_internal::SourceMap map(lexed.tokens);
  translator_internal::DeclarationIndex index =
      translator_internal::ScanDeclarations(stream, map);
  Context c(source, lexed, stream, map, index, options);

  translator_internal::FunctionNames names =
      translator_internal::CollectFunctionNames(c);
  if (!c.host()) c.grid_launchers = translator_internal::FindGridLaunchers(c);
  translator_internal::RewriteFunctions(c);
  translator_internal::RewriteNamespaceScopeVariables(c);
  translator_internal::CheckBlockScopeSpaces(c);
  translator_internal::RewriteBlockScopeShared(c);
  translator_internal::FinishKernelRecords(c);
  translator_internal::RewriteLaunches(c, names);
  translator_internal::CheckKernelCalls(c, names);
  translator_internal::CheckHostCode(c);
  RewriteQualifiers(c);
  if (c.host() && c.first_image_use >= 0) {
    c.InsertBefore(c.first_image_use,
                   "extern const ::__mc_internal::ImageBlob " + c.image + "; ");
  }

  Translation result;
  result.text = c.edits.Apply(source, lexed.tokens);
  result.needs_image = c.needs_image;
  result.device_declarations_without_definition = DeclaredWithoutDefinition(c);
  // Diagnostics in the order of the text.
  std::vector<size_t> order(c.diagnostics.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return c.diagnostic_offsets[a] < c.diagnostic_offsets[b];
  });
  for (size_t i : order) result.diagnostics.push_back(c.diagnostics[i]);
  return result;
}

std::string FormatDiagnostic(const Diagnostic& d) {
  return d.file + ":" + std::to_string(d.line) + ":" +
         std::to_string(d.column) + ": " +
         (d.severity == Diagnostic::Severity::kError ? "error" : "warning") +
         ": " + d.message;
}

}  // namespace mxcts::compiler
