// Copyright mxcts authors.
//
// The host pass compiles host code only, but the device-only names stay
// declared in it (rewrite 4 keeps every __device__ function, with a body
// that traps, and the runtime header declares the built-in variables for
// both passes), so the host compiler alone would accept host code that
// takes the address of a __device__ function or reads threadIdx. The
// checks here find those uses in the token stream:
//
//   * host code is every token outside the bodies of __global__, __device__
//     and __host__ __device__ functions and outside the declarations of
//     device variables (whose initializers are device code);
//   * `&f`, `&ns::f` or `&C::f` in host code, where no declaration of the
//     source gives the last name `f` a host version, is an error at `f`;
//   * a built-in variable named in the body of a host-only function of the
//     user's files (a namespace-scope definition with an unqualified name)
//     is an error, unless the user's files declare that name anywhere (a
//     variable, parameter or member: the name right after a type, or after
//     `*` or `&` after a type), which may hide the built-in
//     ([lang.builtin.host-declarations-hide-builtins]).
//
// The checks are conservative: what they cannot tell apart they accept,
// and the host compiler or the trap body has the last word.
//
// Tested by host_code_checks_test.cc.

#include "reference/compiler/translator/host_code_checks.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "reference/compiler/translator/declarations.h"
#include "reference/compiler/translator/declarator.h"

namespace mxcts::compiler::translator_internal {
namespace {

constexpr const char* kBuiltins[] = {"threadIdx", "blockIdx", "blockDim",
                                     "gridDim"};

bool IsBuiltin(std::string_view word) {
  return std::find(std::begin(kBuiltins), std::end(kBuiltins), word) !=
         std::end(kBuiltins);
}

// Words after which a name is an operand, not a declarator.
bool IsExpressionKeyword(std::string_view word) {
  for (std::string_view keyword :
       {"return", "case", "throw", "else", "do", "sizeof", "alignof",
        "decltype", "typeid", "noexcept", "co_return", "co_yield", "co_await",
        "new", "delete", "not", "and", "or"}) {
    if (word == keyword) return true;
  }
  return false;
}

bool Inside(const std::vector<Range>& ranges, int t) {
  for (const Range& r : ranges) {
    if (t >= r.begin && t < r.end) return true;
  }
  return false;
}

// The token ranges that are device code.
std::vector<Range> DeviceCode(const Context& c) {
  const TokenStream& s = c.s;
  std::vector<Range> ranges;
  for (const FunctionDeclaration& f : c.index.functions) {
    if (f.is_definition() &&
        (f.Has(s, "__global__") || f.Has(s, "__device__"))) {
      ranges.push_back({f.body_begin, f.body_end});
    }
  }
  for (const VariableDeclaration& v : c.index.variables) {
    for (std::string_view space :
         {"__device__", "__constant__", "__managed__", "__shared__"}) {
      if (v.Has(s, space)) {
        ranges.push_back(v.range);
        break;
      }
    }
  }
  return ranges;
}

// The last name of the id-expression that starts at `t` (`f`, `::f`,
// `ns::f`), or -1.
int LastNameOf(const TokenStream& s, int t) {
  int j = t;
  if (s.Is(j, "::")) ++j;
  while (s.IsName(j) && s.Is(j + 1, "::")) j += 2;
  return s.IsName(j) ? j : -1;
}

void CheckDeviceFunctionAddresses(Context& c,
                                  const std::vector<Range>& device_code) {
  const TokenStream& s = c.s;
  std::set<std::string> device_only;
  std::set<std::string> other;
  for (const FunctionDeclaration& f : c.index.functions) {
    if (!s.IsName(f.name)) continue;
    std::string name(s.at(f.name).text);
    if (f.Has(s, "__device__") && !f.Has(s, "__host__")) {
      device_only.insert(name);
    } else {
      other.insert(name);
    }
  }
  for (const std::string& name : other) device_only.erase(name);
  if (device_only.empty()) return;
  for (int t = 0; t + 1 < s.size(); ++t) {
    if (!s.Is(t, "&") || Inside(device_code, t)) continue;
    // Unary: not after an operand.
    if (t > 0 && (s.IsName(t - 1) || s.Is(t - 1, ")") || s.Is(t - 1, "]"))) {
      continue;
    }
    int name = LastNameOf(s, t + 1);
    if (name < 0 || s.Is(name + 1, "(")) continue;
    std::string text(s.at(name).text);
    if (!device_only.count(text)) continue;
    c.Error(name, "host code cannot take the address of __device__ function '" +
                      text +
                      "' [lang.function.address.device-function-in-host]");
  }
}

// Whether a declaration may start right after token `k`.
bool StartsDeclaration(const TokenStream& s, int k) {
  return k < 0 || s.Is(k, ";") || s.Is(k, "{") || s.Is(k, "}") ||
         s.Is(k, "(") || s.Is(k, ",") || s.Is(k, "const") ||
         s.Is(k, "static") || s.Is(k, "::");
}

// Whether the `,` at `comma` separates the declarators of a declaration
// statement (`dim3 gridDim(4), blockDim(16);`), not the operands of a
// call or of the comma operator: the statement it ends starts with a type
// followed by a declarator.
bool InDeclarationStatement(const TokenStream& s, int comma) {
  int j = comma - 1;
  while (j >= 0) {
    if (s.Is(j, ")") || s.Is(j, "]")) {
      int open = s.Match(j);
      if (open < 0 || open >= j) return false;
      j = open - 1;
      continue;
    }
    if (s.Is(j, "(") || s.Is(j, "[")) return false;
    if (s.Is(j, ";") || s.Is(j, "{") || s.Is(j, "}")) break;
    --j;
  }
  int b = j + 1;
  while (s.Is(b, "const") || s.Is(b, "static") || s.Is(b, "constexpr")) ++b;
  if (!s.IsName(b) && !s.Is(b, "::")) return false;
  int type_end = SkipQualifiedName(s, b, comma);
  while (s.Is(type_end, "*") || s.Is(type_end, "&")) ++type_end;
  return type_end < comma && s.IsName(type_end);
}

// Whether the built-in's name at `k` is declared there: right after a type
// (an identifier that is not an expression keyword, or a template's `>`),
// or after `*`, `&` or `&&` that follow a type at the start of a
// declaration.
bool LooksDeclared(const TokenStream& s, int k) {
  if (s.Is(k - 1, ",")) return InDeclarationStatement(s, k - 1);
  if (s.Is(k - 1, ">")) return true;
  if (s.IsName(k - 1) && !IsExpressionKeyword(s.at(k - 1).text)) return true;
  return (s.Is(k - 1, "*") || s.Is(k - 1, "&") || s.Is(k - 1, "&&")) &&
         (s.IsName(k - 2) || s.Is(k - 2, ">")) && StartsDeclaration(s, k - 3);
}

void CheckBuiltinsInHostFunctions(Context& c,
                                  const std::vector<Range>& device_code) {
  const TokenStream& s = c.s;
  // The names the user's files declare anywhere, as variables, parameters
  // or members (the runtime header's own declarations do not count).
  std::set<std::string> declared;
  for (int k = 0; k < s.size(); ++k) {
    if (s.IsName(k) && IsBuiltin(s.at(k).text) && LooksDeclared(s, k) &&
        !c.map.Locate(s.at(k).line).system_header) {
      declared.insert(std::string(s.at(k).text));
    }
  }
  for (const FunctionDeclaration& f : c.index.functions) {
    if (!f.is_definition() || f.system_header || f.is_friend ||
        f.scope.kind != ScopeKind::kNamespace || f.name_begin != f.name ||
        f.Has(s, "__device__") || f.Has(s, "__global__") ||
        Inside(device_code, f.body_open)) {
      continue;
    }
    for (int k = f.body_open; k < f.body_end; ++k) {
      if (!s.IsName(k) || !IsBuiltin(s.at(k).text)) continue;
      if (s.Is(k - 1, ".") || s.Is(k - 1, "->") || s.Is(k - 1, "::") ||
          s.Is(k + 1, "::")) {
        continue;
      }
      std::string name(s.at(k).text);
      if (declared.count(name)) continue;
      c.Error(k, "built-in variable '" + name +
                     "' is valid only in device code, not in host function '" +
                     std::string(s.at(f.name).text) +
                     "' [lang.builtin.device-code-only]");
    }
  }
}

}  // namespace

void CheckHostCode(Context& c) {
  if (!c.host()) return;
  const std::vector<Range> device_code = DeviceCode(c);
  CheckDeviceFunctionAddresses(c, device_code);
  CheckBuiltinsInHostFunctions(c, device_code);
}

}  // namespace mxcts::compiler::translator_internal
